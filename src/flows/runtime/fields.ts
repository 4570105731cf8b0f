import type { SchemaView } from '../definitions/schema-view.js';
import { submitKey, type FlowStepDef } from '../definitions/types.js';
import { validationFailed } from '../errors.js';
import type { AuthMethod, StepHook } from '../methods/declaration.js';
import { FIELD_OWNERS, generation, HOOKS, METHODS } from '../methods/registry.js';
import type { BudgetedFactor } from '../risk/service.js';
import type { StepField } from '../view.js';

/*
 * A step's fields: how they render and how a submit's values are read and checked (what the step
 * then does with them is `runStep`, context.ts), and the plan of which methods a step calls.
 */

const EMAIL = /^[^\s@]{1,64}@[^\s@]{1,255}$/;
const MAX_VALUE = 1024;
// Control characters and lone surrogates are never typed on purpose and cannot be stored.
const UNPRINTABLE = /[\u0000-\u001f\u007f]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

export function fieldType(field: string, schema: SchemaView): string {
  const owned = FIELD_OWNERS.get(field);
  if (owned) return owned.field.type;
  const spec = schema.fields.get(field);
  if (spec?.format === 'email') return 'email';
  if (spec?.type === 'number' || spec?.type === 'integer') return 'number';
  if (spec?.type === 'boolean') return 'checkbox';
  if (spec?.format === 'uri') return 'url';
  return 'text';
}

/** Whether a field must be filled in on this step: method fields always, attributes as the schema says on `create_user`. */
export function fieldRequired(field: string, step: FlowStepDef, schema: SchemaView): boolean {
  if (FIELD_OWNERS.get(field)) return true;
  if (step.on_success === 'create_user') return schema.fields.get(field)?.required ?? false;
  return true;
}

/** The step's fields as rendered; a value the flow collected already (never a secret) comes back as `value`, to prefill. */
export function stepFields(step: FlowStepDef, schema: SchemaView, collected: Record<string, string> = {}): StepField[] {
  return (step.fields ?? []).map((field) => {
    const name = submitKey(field);
    const rendered: StepField = { name, type: fieldType(field, schema), text_key: `field.${name}`, required: fieldRequired(field, step, schema) };
    const value = FIELD_OWNERS.get(field) ? undefined : collected[field];
    if (value !== undefined) rendered.value = value;
    return rendered;
  });
}

/** Which of a step's fields to read, and whether empty ones are refused. */
export interface ReadOptions {
  /** the fields to read (default: all of the step's); other fields of the step are ignored, anything else is refused as unknown */
  fields?: readonly string[];
  /** nothing is required (a passkey action may name its user or not) */
  optional?: boolean;
}

function problem(field: string, value: string, type: string, schema: SchemaView): string | undefined {
  const owned = FIELD_OWNERS.get(field)?.field;
  const limit = owned ? owned.maxLength : Math.min(MAX_VALUE, schema.fields.get(field)?.maxLength ?? MAX_VALUE);
  if (value.length > limit) return 'error.too_long';
  if (!owned?.raw && UNPRINTABLE.test(value)) return 'error.invalid_characters';
  if (owned?.pattern && !owned.pattern.regex.test(value)) return owned.pattern.error;
  if (type === 'email' && !EMAIL.test(value)) return 'error.invalid_email';
  if (type === 'number' && !Number.isFinite(Number(value))) return 'error.invalid_type';
  return undefined;
}

/**
 * Checks the submitted values of a step (required, type, format) and returns them as strings
 * keyed by their definition field; problems answer 400 `flow.validation_failed` with text keys.
 */
export function readFields(flowId: string, step: FlowStepDef, schema: SchemaView, submitted: Record<string, unknown>, options: ReadOptions = {}): Map<string, string> {
  const fields = options.fields ?? step.fields ?? [];
  const values = new Map<string, string>();
  const errors: Record<string, string> = {};
  // A form posts every input of the step; an action that reads fewer (a passkey registration reads
  // no password) ignores the rest of the step's fields.
  const known = new Set((step.fields ?? []).map(submitKey));
  for (const key of Object.keys(submitted)) if (!known.has(key)) errors[key] = 'error.unknown_field';
  for (const field of fields) {
    const key = submitKey(field);
    const raw = submitted[key];
    const type = fieldType(field, schema);
    const required = !options.optional && fieldRequired(field, step, schema);
    if (raw === undefined || raw === null || raw === '') {
      if (required) errors[key] = 'error.required';
      continue;
    }
    let value: string;
    if (typeof raw === 'string') value = FIELD_OWNERS.get(field)?.field.raw ? raw : raw.trim();
    else if ((typeof raw === 'number' && type === 'number') || (typeof raw === 'boolean' && type === 'checkbox')) value = String(raw);
    else {
      errors[key] = 'error.invalid_type';
      continue;
    }
    const wrong = problem(field, value, type, schema);
    if (wrong) errors[key] = wrong;
    else if (value.length === 0 && required) errors[key] = 'error.required';
    else values.set(field, value);
  }
  if (Object.keys(errors).length > 0) throw validationFailed(flowId, errors);
  return values;
}

/**
 * Which methods one step definition calls, worked out once per definition (loaded definitions are
 * frozen and shared, so the step object is the key) and again after a method registers: a warm
 * request asks no method about a step it does not name.
 */
export interface StepPlan {
  /** the methods whose `render` adds to the step (`rendersOn`; without it, every step) */
  readonly renderers: readonly AuthMethod[];
  /** the methods whose `followUp` may ask for an outcome on the step (`followsUpOn`; without it, every step) */
  readonly followUps: readonly AuthMethod[];
  /** the methods whose `pendingEnrollment` `create_user` asks */
  readonly enrollers: readonly AuthMethod[];
  /** submitting the step checks a secret: risk assessment, lock-out and captcha apply */
  readonly checksCredentials: boolean;
  /**
   * The factor whose failure counter a step's guess counts against (DESIGN §4.6a): its method's
   * own for a budgeted secret, else the one the checking method names (`precheckFactor`: a mailed
   * code has a budget per code; its captcha decision reads the account's password counter), else
   * none (the IP's rules alone decide).
   */
  readonly guessedFactor: BudgetedFactor | undefined;
  /** the step's `on_success` hook of a method's, if any */
  readonly hook?: StepHook;
}

const plans = new WeakMap<FlowStepDef, { generation: number; plan: StepPlan }>();

export function planOf(step: FlowStepDef): StepPlan {
  const known = plans.get(step);
  if (known?.generation === generation) return known.plan;
  const checking = METHODS.filter((m) => m.checksCredentials?.(step) ?? false);
  const plan: StepPlan = {
    renderers: METHODS.filter((m) => m.render !== undefined && (m.rendersOn?.(step) ?? true)),
    followUps: METHODS.filter((m) => m.followUp !== undefined && (m.followsUpOn?.(step) ?? true)),
    enrollers: METHODS.filter((m) => m.pendingEnrollment !== undefined),
    checksCredentials: checking.length > 0,
    guessedFactor: checking.find((m) => m.budget === 'account')?.name ?? checking.find((m) => m.precheckFactor !== undefined)?.precheckFactor,
    hook: step.on_success !== undefined ? HOOKS.get(step.on_success)?.hook : undefined,
  };
  plans.set(step, { generation, plan });
  return plan;
}
