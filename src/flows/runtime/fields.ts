import { identifierField, type SchemaView } from '../definitions/schema-view.js';
import { submitKey, type FlowStepDef } from '../definitions/types.js';
import { validationFailed } from '../errors.js';
import { createUser } from '../hooks/create-user.js';
import type { Enrollment, StepContext } from '../methods/method.js';
import { hookNamed, METHODS, methodOfField } from '../methods/registry.js';
import type { BudgetedFactor } from '../risk/service.js';
import type { StepField } from '../view.js';
import { countingRefusals } from './guard.js';

/*
 * A step's fields: how they render, how a submit's values are read and checked, and what the step
 * does with the accepted values (`runStep`).
 */

const EMAIL = /^[^\s@]{1,64}@[^\s@]{1,255}$/;
const MAX_VALUE = 1024;
// Control characters and lone surrogates are never typed on purpose and cannot be stored.
const UNPRINTABLE = /[\u0000-\u001f\u007f]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

export function fieldType(field: string, schema: SchemaView): string {
  const owned = methodOfField(field);
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
  if (methodOfField(field)) return true;
  if (step.on_success === 'create_user') return schema.fields.get(field)?.required ?? false;
  return true;
}

/** The step's fields as rendered; a value the flow collected already (never a secret) comes back as `value`, to prefill. */
export function stepFields(step: FlowStepDef, schema: SchemaView, collected: Record<string, string> = {}): StepField[] {
  return (step.fields ?? []).map((field) => {
    const name = submitKey(field);
    const rendered: StepField = { name, type: fieldType(field, schema), text_key: `field.${name}`, required: fieldRequired(field, step, schema) };
    const value = methodOfField(field) ? undefined : collected[field];
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
  const owned = methodOfField(field)?.field;
  const limit = owned ? owned.maxLength : Math.min(MAX_VALUE, schema.fields.get(field)?.maxLength ?? MAX_VALUE);
  if (value.length > limit) return 'error.too_long';
  if (type !== 'password' && UNPRINTABLE.test(value)) return 'error.invalid_characters';
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
    if (typeof raw === 'string') value = type === 'password' ? raw : raw.trim();
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

/** Whether submitting this step checks a secret: risk assessment, lock-out and captcha apply. */
export function checksCredentials(step: FlowStepDef): boolean {
  return METHODS.some((method) => method.checksCredentials?.(step) ?? false);
}

/**
 * The factor whose failure counter a step's guess counts against (DESIGN §4.6a): its method's own
 * for the password, TOTP and recovery codes; the password's for a step that checks another secret
 * (a mailed code has a budget per code; its captcha decision reads the account's password counter).
 */
export function guessedFactor(step: FlowStepDef): BudgetedFactor {
  const method = METHODS.find((m) => m.checksCredentials?.(step) && m.budget === 'account');
  return method?.name ?? 'password';
}

/** The credentials the step's method fields enroll with a new user (a password at registration). */
async function enrollments(ctx: StepContext, values: Map<string, string>, attributes: Record<string, unknown>): Promise<Enrollment[]> {
  const prepared: Enrollment[] = [];
  for (const [field, value] of values) {
    const method = methodOfField(field)?.method;
    if (method?.enroll) prepared.push(await method.enroll(ctx, value, attributes));
  }
  for (const method of METHODS) {
    const pending = await method.pendingEnrollment?.(ctx, attributes);
    if (pending) prepared.push(pending);
  }
  return prepared;
}

/**
 * What a step does with accepted input, in the order every method relies on:
 * 1. keep the non-secret values in the frame (a new identifier forgets who was identified);
 * 2. `create_user` creates the user with what the methods enroll, and ends there;
 * 3. an identifier field identifies the user (or follows `user_not_found`);
 * 4. each method field is verified by its method, unless the step's hook takes it as input;
 * 5. the step's `on_success` hook runs;
 * 6. a method may ask for an outcome (`followUp`: a second factor is due).
 * Returns an outcome trigger when one applies.
 */
export async function runStep(ctx: StepContext, values: Map<string, string>): Promise<string | undefined> {
  const { run, loaded, step } = ctx;
  const { frame } = run;
  const identField = identifierField(step, loaded.schema);
  if (identField && values.has(identField) && frame.c[identField] !== values.get(identField)) {
    frame.u = undefined;
    frame.pv = undefined;
  }
  for (const [field, value] of values) if (!methodOfField(field)) frame.c[field] = value;

  if (step.on_success === 'create_user') return createUser(ctx, (attributes) => enrollments(ctx, values, attributes));

  if (identField && values.has(identField)) {
    frame.u = await run.userNamed(loaded.row.schema_id, values.get(identField)!);
    if (frame.u === undefined && step.transitions?.user_not_found) return 'user_not_found';
  }

  const hook = step.on_success !== undefined ? hookNamed(step.on_success)?.hook : undefined;
  for (const [field, value] of values) {
    if (hook?.takes?.includes(field)) continue;
    const owner = methodOfField(field)?.method;
    if (!owner?.verify) continue;
    const outcome = await countingRefusals(run, owner, () => owner.verify!(ctx, value));
    if (outcome !== undefined) return outcome;
  }
  const outcome = await hook?.run(ctx, values);
  if (outcome !== undefined) return outcome;
  for (const method of METHODS) {
    const asked = await method.followUp?.(ctx);
    if (asked !== undefined) return asked;
  }
  return undefined;
}
