import { identifierField } from '../definitions/schema-view.js';
import { isCompleteStep, type FlowStepDef } from '../definitions/types.js';
import type { Enrollment } from '../methods/method.js';
import { followUpsOf, hookNamed, METHODS, methodOfField, renderersOf } from '../methods/registry.js';
import type { StepView } from '../view.js';
import { RunContext } from './context.js';
import { createUser } from './create-user.js';
import { stepFields } from './fields.js';
import { countingRefusals } from './guard.js';
import type { FlowRun, Loaded } from './run.js';

/*
 * One step of a run: how it renders (every method adds its part) and what it does with the values
 * a submit gave (`runStep`).
 */

/** The step as the answer shows it: fields, actions, the captcha gate, each method's part. */
export async function renderStep(run: FlowRun, step: FlowStepDef, loaded: Loaded, captcha: boolean): Promise<StepView> {
  const view: StepView = {
    name: step.name,
    type: isCompleteStep(step) ? 'complete' : 'form',
    texts: {
      title_key: step.texts?.title_key ?? `step.${step.name}.title`,
      description_key: step.texts?.description_key ?? `step.${step.name}.description`,
    },
    fields: stepFields(step, loaded.schema, run.frame.c),
    actions: (step.actions ?? []).map((a) => ({ name: a.name, kind: a.kind, text_key: a.text_key ?? `action.${a.name}`, primary: a.primary ?? false })),
  };
  if (isCompleteStep(step)) view.behavior = step.complete;
  if (captcha) view.gates = { captcha: await run.challenge() };
  const renderers = renderersOf(step);
  if (renderers.length > 0) {
    const ctx = new RunContext(run, loaded, step);
    for (const method of renderers) await method.render!(ctx, view);
  }
  if (run.frame.er !== undefined) view.error = run.frame.er;
  return Object.assign(view, run.extensions);
}

/** The credentials the step's method fields enroll with a new user (a password at registration). */
async function enrollments(ctx: RunContext, values: Map<string, string>, attributes: Record<string, unknown>): Promise<Enrollment[]> {
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
export async function runStep(ctx: RunContext, values: Map<string, string>): Promise<string | undefined> {
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
  for (const method of followUpsOf(step)) {
    const asked = await method.followUp!(ctx);
    if (asked !== undefined) return asked;
  }
  return undefined;
}
