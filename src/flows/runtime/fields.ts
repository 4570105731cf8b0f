import { AppError } from '../../core/errors.js';
import type { SchemaView } from '../definitions/schema-view.js';
import { CODE_FIELD, METHOD_FIELD_PREFIX, submitKey, type FlowStepDef } from '../definitions/types.js';
import type { StepField } from './types.js';

const EMAIL = /^[^\s@]{1,64}@[^\s@]{1,255}$/;
const MAX_VALUE = 1024;
const MAX_SECRET = 4096;
// Control characters and lone surrogates are never typed on purpose and cannot be stored.
const UNPRINTABLE = /[\u0000-\u001f\u007f]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

export function fieldType(field: string, schema: SchemaView): string {
  if (field === `${METHOD_FIELD_PREFIX}password`) return 'password';
  if (field === CODE_FIELD) return 'code';
  const spec = schema.fields.get(field);
  if (spec?.format === 'email') return 'email';
  if (spec?.type === 'number' || spec?.type === 'integer') return 'number';
  if (spec?.type === 'boolean') return 'checkbox';
  if (spec?.format === 'uri') return 'url';
  return 'text';
}

/** Whether a field must be filled in on this step. */
export function fieldRequired(field: string, step: FlowStepDef, schema: SchemaView): boolean {
  if (field.startsWith(METHOD_FIELD_PREFIX) || field === CODE_FIELD) return true;
  if (step.on_success === 'create_user') return schema.fields.get(field)?.required ?? false;
  return true;
}

export function stepFields(step: FlowStepDef, schema: SchemaView): StepField[] {
  return (step.fields ?? []).map((field) => {
    const name = submitKey(field);
    return { name, type: fieldType(field, schema), text_key: `field.${name}`, required: fieldRequired(field, step, schema) };
  });
}

export function validationFailed(flowId: string, fields: Record<string, string>, message = 'Some fields are missing or invalid.', extra: Record<string, unknown> = {}): AppError {
  return new AppError('flow.validation_failed', message, { flow_id: flowId, fields, ...extra });
}

/**
 * Checks the submitted values of a step (required, type, format) and returns them as strings
 * keyed by their definition field; problems answer 400 `flow.validation_failed` with text keys.
 */
export function readFields(flowId: string, step: FlowStepDef, schema: SchemaView, submitted: Record<string, unknown>): Map<string, string> {
  const values = new Map<string, string>();
  const errors: Record<string, string> = {};
  const known = new Set((step.fields ?? []).map(submitKey));
  for (const key of Object.keys(submitted)) if (!known.has(key)) errors[key] = 'error.unknown_field';
  for (const field of step.fields ?? []) {
    const key = submitKey(field);
    const raw = submitted[key];
    const type = fieldType(field, schema);
    if (raw === undefined || raw === null || raw === '') {
      if (fieldRequired(field, step, schema)) errors[key] = 'error.required';
      continue;
    }
    let value: string;
    if (typeof raw === 'string') value = type === 'password' ? raw : raw.trim();
    else if ((typeof raw === 'number' && type === 'number') || (typeof raw === 'boolean' && type === 'checkbox')) value = String(raw);
    else {
      errors[key] = 'error.invalid_type';
      continue;
    }
    const limit = type === 'password' ? MAX_SECRET : Math.min(MAX_VALUE, schema.fields.get(field)?.maxLength ?? MAX_VALUE);
    if (value.length > limit) errors[key] = 'error.too_long';
    else if (type !== 'password' && UNPRINTABLE.test(value)) errors[key] = 'error.invalid_characters';
    else if (type === 'email' && !EMAIL.test(value)) errors[key] = 'error.invalid_email';
    else if (type === 'code' && !/^\d{6,12}$/.test(value)) errors[key] = 'error.invalid_code';
    else if (type === 'number' && !Number.isFinite(Number(value))) errors[key] = 'error.invalid_type';
    else if (value.length === 0 && fieldRequired(field, step, schema)) errors[key] = 'error.required';
    else values.set(field, value);
  }
  if (Object.keys(errors).length > 0) throw validationFailed(flowId, errors);
  return values;
}

/** Schema attributes from collected values: dotted paths become nested objects, typed per schema. */
export function attributesFrom(values: Map<string, string> | Record<string, string>, schema: SchemaView): Record<string, unknown> {
  const attributes: Record<string, unknown> = {};
  const entries = values instanceof Map ? [...values.entries()] : Object.entries(values);
  for (const [field, value] of entries) {
    const spec = schema.fields.get(field);
    if (!spec) continue;
    const typed = spec.type === 'number' || spec.type === 'integer' ? Number(value) : spec.type === 'boolean' ? value === 'true' : value;
    const parts = field.split('.');
    let target = attributes;
    for (const part of parts.slice(0, -1)) {
      target[part] ??= {};
      target = target[part] as Record<string, unknown>;
    }
    target[parts[parts.length - 1]] = typed;
  }
  return attributes;
}
