import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import type { RelyingParty } from '../../../passkeys/relying-party.js';
import type { VerifiedPasskey } from '../../../passkeys/service.js';
import { valueAt } from '../../../schemas/document.js';
import { createUser } from '../../hooks/create-user.js';
import { recentlyProvenUser } from '../proof.js';
import { invalidAction, validationFailed } from '../../errors.js';
import type { FlowRun } from '../../runtime/run.js';
import type { SubmitInput } from '../../view.js';
import type { ActionAnswer, Enrollment, StepContext } from '../method.js';
import { consume, issueChallenge, passkeyFactor, pendingFor, refuse, relyingPartyOf, verified } from './ceremony.js';

/** The attribute fields of a step (a passkey registration reads these and no method field). */
const attributeFields = ({ step, loaded }: StepContext) => (step.fields ?? []).filter((field) => loaded.schema.fields.has(field));

/** Who the new credential is for when the step registers a new user: names from what the flow collected. */
function newUserNames({ run }: StepContext): { userName: string; displayName: string } {
  const userName = run.collectedIdentifier();
  const given = ['name.given', 'name'].map((path) => run.frame.c[path]).find((value) => value !== undefined && value !== '');
  return { userName, displayName: given ?? userName };
}

/**
 * The user a passkey may be added to outside `create_user`: one this flow created, one this flow
 * authenticated (its auth attempt holds a factor of that user), or the session's signed-in user.
 * A user the flow merely identified by a typed identifier never qualifies.
 */
async function provenUser(run: FlowRun): Promise<string | undefined> {
  const { frame, entry, deps, projectId } = run;
  if (frame.u !== undefined && frame.cr === frame.u) return frame.u;
  if (frame.u !== undefined && entry.a !== undefined) {
    const attempt = run.attempt?.id === entry.a ? run.attempt : await deps.attempts.get(projectId, entry.a).catch(() => undefined);
    if (attempt?.user_id === frame.u && attempt.factors.length > 0) return frame.u;
  }
  const session = await deps.sessions.get(projectId, entry.ss).catch(() => undefined);
  return session?.state === 'active' ? session.user_id : undefined;
}

/** A creation challenge for an existing user: its handle, its identifier as the name, its passkeys excluded. */
async function existingUserChallenge({ run, loaded }: StepContext, rp: RelyingParty, userId: string) {
  const { passkeys, users } = run.deps;
  const [handle, existing, user] = await Promise.all([passkeys.userHandleOf(run.projectId, userId), passkeys.credentialsFor(run.projectId, userId), users.find(run.projectId, userId)]);
  const identifier = loaded.schema.identifiers.map((path) => (user ? valueAt(user.attributes, path) : undefined)).find((value) => typeof value === 'string');
  const userName = typeof identifier === 'string' ? identifier : userId;
  return issueChallenge(run, rp, { kind: 'passkey_register', userHandle: handle ?? passkeys.newUserHandle(), userName, displayName: userName, exclude: existing.map((c) => c.id) });
}

/** An identifier the new user would take that is already taken: follow `user_already_exists`, or answer on the field. */
async function takenIdentifier(ctx: StepContext): Promise<string | undefined> {
  const { run, loaded, step } = ctx;
  for (const field of loaded.schema.identifiers) {
    const value = run.frame.c[field];
    if (value === undefined || !(await run.deps.users.findByIdentifier(run.projectId, loaded.row.schema_id, value))) continue;
    if (step.transitions?.user_already_exists) return 'user_already_exists';
    throw validationFailed(run.frame.id, { [field]: 'error.user_already_exists' }, 'An account with this identifier already exists.');
  }
  return undefined;
}

/**
 * A `passkey_register` action. On a `create_user` step it registers a passkey-only account: the
 * attributes are validated and kept first, then the creation challenge is issued with a new user
 * handle, and the answer's credential is written with the new user in one transaction. On any
 * other step (settings) it adds a passkey to the signed-in user.
 */
export async function passkeyRegister(ctx: StepContext, input: SubmitInput): Promise<ActionAnswer> {
  const { run, step } = ctx;
  const { deps, frame } = run;
  const rp = await relyingPartyOf(run);
  const creating = step.on_success === 'create_user';
  const answer = input.challenge_response;
  const userId = creating ? undefined : await provenUser(run);
  if (!creating && userId === undefined) throw invalidAction(frame.id, input.action, 'Sign in first to add a passkey.');
  // In a settings flow, as every settings change: the sign-in must be younger than 15 minutes.
  if (!creating && frame.su !== undefined) await recentlyProvenUser(ctx, input.action);
  const fresh = () => (creating ? issueChallenge(run, rp, { kind: 'passkey_register', userHandle: frame.ch?.h ?? deps.passkeys.newUserHandle(), ...newUserNames(ctx), exclude: [] }) : existingUserChallenge(ctx, rp, userId!));
  if (!answer) {
    if (creating) {
      const values = run.read(step, input.fields, { fields: attributeFields(ctx) });
      for (const [field, value] of values) frame.c[field] = value;
      const taken = await takenIdentifier(ctx);
      if (taken !== undefined) return { stay: false, outcome: taken };
      frame.ch = undefined;
    } else run.read(step, input.fields, { fields: [] });
    await fresh();
    return { stay: true };
  }
  run.read(step, input.fields, { fields: [] });
  const pending = pendingFor(run, 'passkey_register', answer, rp);
  if (!pending?.h) return refuse(run, fresh);
  const userHandle = pending.h;
  const passkey = await verified(run, () => deps.passkeys.verifyRegistration({ response: answer.proof, expectedChallenge: pending.c, rp }), fresh);
  if (!(await consume(run, pending))) return refuse(run, fresh);
  const enrollment: Enrollment = {
    write: (trx, user) => save(run, trx, user.id, userHandle, passkey),
    factor: passkeyFactor(passkey),
  };
  if (creating) {
    const outcome = await createUser(ctx, async () => [enrollment]);
    return { stay: false, outcome };
  }
  await deps.transaction((trx) => save(run, trx, userId!, userHandle, passkey));
  return { stay: false };
}

async function save(run: FlowRun, trx: Kysely<Database>, userId: string, userHandle: string, passkey: VerifiedPasskey): Promise<void> {
  await run.deps.passkeys.saveCredential(trx, { projectId: run.projectId, userId, userHandle, passkey });
}
