import { AppError } from '../../core/errors.js';
import { SELF } from '../../events/types.js';
import type { SchemaView } from '../definitions/schema-view.js';
import type { FlowStepDef } from '../definitions/types.js';
import type { Enrollment } from '../methods/method.js';
import { validationFailed } from '../errors.js';
import { BUDGETED } from '../methods/registry.js';
import { flowCompleted } from '../state.js';
import type { FlowRun, Loaded } from './run.js';

/** The run and the step a user is created on (a `RunContext` is one). */
interface RunStep {
  readonly run: FlowRun;
  readonly loaded: Loaded;
  readonly step: FlowStepDef;
}

/** Schema attributes from collected values: dotted paths become nested objects, typed per schema. */
export function attributesFrom(values: Record<string, string>, schema: SchemaView): Record<string, unknown> {
  const attributes: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(values)) {
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

/** The new user's attributes: what the flow collected of the schema's properties. */
export function collectedAttributes({ run, loaded }: RunStep): Record<string, unknown> {
  return attributesFrom(Object.fromEntries(Object.entries(run.frame.c).filter(([field]) => loaded.schema.fields.has(field))), loaded.schema);
}

/** A refused attribute answers on its field. */
function invalidAttributes(flowId: string, error: AppError): AppError {
  const fields: Record<string, string> = {};
  for (const issue of (error.details.errors as Array<{ path: string; keyword?: string }> | undefined) ?? []) {
    const path = issue.path.replace(/^attributes\/?/, '').replaceAll('/', '.');
    fields[path || 'attributes'] = issue.keyword === 'required' ? 'error.required' : 'error.invalid';
  }
  return validationFailed(flowId, fields);
}

/**
 * The user from the collected attributes and, in the same transaction, the credentials the methods
 * enroll (a password, a passkey, an SSO link), so that a refusal leaves nothing behind; each
 * enrollment's factor is then recorded on the flow's auth attempt. Refusals are the users
 * domain's own (`user.invalid`, `user.already_exists`), for the caller to answer.
 */
export async function insertUser(ctx: RunStep, enrollments: (attributes: Record<string, unknown>) => Promise<Enrollment[]>): Promise<void> {
  const { run, loaded } = ctx;
  const { deps, frame, projectId } = run;
  const attributes = collectedAttributes(ctx);
  const prepared = await enrollments(attributes);
  const input = { schema: loaded.def.user_schema ?? loaded.row.schema_uri, attributes };
  let created;
  try {
    created = await deps.transaction(async (trx) => {
      // A flow creates one user: a `_zflow` replayed after completion, or submitted concurrently,
      // writes nothing (the claim is undone with the transaction when the user is refused); nor
      // does a flow whose session was deleted (404 sess.not_found).
      if (!(await deps.definitions.claimUserCreation(frame.id, trx))) throw flowCompleted(frame.id);
      const user = await deps.users.create(projectId, input, { actor: SELF, trx });
      for (const enrollment of prepared) await enrollment.write(trx, user);
      return user;
    });
  } catch (error) {
    // Why the run took no user is read after the transaction (PGlite has one connection).
    if (error instanceof AppError && error.code === 'flow.completed') throw await run.endedBecause();
    throw error;
  }
  frame.u = created.id;
  frame.cr = created.id;
  for (const { factor, done } of prepared) {
    if (factor) await run.recordFactor(factor, created.id);
    // A budgeted factor starts the new user's own counter of it (the one their sign-ins will
    // count against, DESIGN §4.6a); nothing is read first.
    if (factor && BUDGETED.has(factor.method)) {
      await deps.risk.recordSuccess(projectId, deps.risk.accountKeyFor(projectId, { userId: created.id, identifier: '' }, factor.method), created.id, run.entry.ss);
    }
    await done?.(created.id);
  }
}

/**
 * `create_user`: `insertUser`, answered as a step answers (unless the caller answers `refusals` itself). An identifier that is taken follows
 * `user_already_exists`, or answers on the identifier field.
 */
export async function createUser(ctx: RunStep, enrollments: (attributes: Record<string, unknown>) => Promise<Enrollment[]>, refusals: 'answer' | 'throw' = 'answer'): Promise<string | undefined> {
  if (refusals === 'throw') {
    await insertUser(ctx, enrollments);
    return undefined;
  }
  const { run, loaded, step } = ctx;
  const { frame } = run;
  try {
    await insertUser(ctx, enrollments);
    return undefined;
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    if (error.code === 'user.invalid') throw invalidAttributes(frame.id, error);
    if (error.code !== 'user.already_exists') throw error;
    if (step.transitions?.user_already_exists) return 'user_already_exists';
    const field = (step.fields ?? []).find((f) => loaded.schema.identifiers.includes(f)) ?? loaded.schema.identifiers[0] ?? 'identifier';
    throw validationFailed(frame.id, { [field]: 'error.user_already_exists' }, 'An account with this identifier already exists.');
  }
}
