import type { FlowStepDef } from '../definitions/types.js';
import { createUser } from '../hooks/create-user.js';
import type { Enrollment, StepContext } from '../methods/method.js';
import { hookNamed, METHODS, methodOfField } from '../methods/registry.js';
import { identifierField } from './identifier.js';
import { BUDGETED_FACTORS, type BudgetedFactor } from '../risk/service.js';

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
  const method = METHODS.find((m) => m.checksCredentials?.(step) && (BUDGETED_FACTORS as readonly string[]).includes(m.name));
  return (method?.name as BudgetedFactor | undefined) ?? 'password';
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
    const outcome = await methodOfField(field)?.method.verify?.(ctx, value);
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
