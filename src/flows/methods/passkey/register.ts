import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import type { RelyingParty } from '../../../passkeys/relying-party.js';
import type { VerifiedPasskey } from '../../../passkeys/service.js';
import { valueAt } from '../../../schemas/document.js';
import { recentlyProvenUser } from '../proof.js';
import { invalidAction, validationFailed } from '../../errors.js';
import type { SubmitInput } from '../../view.js';
import type { Enrollment, MethodContext } from '../method.js';
import type { ActionAnswer } from '../declaration.js';
import { challengeSlot, consume, issueChallenge, passkeyFactor, pendingFor, refuse, relyingPartyOf, verified } from './ceremony.js';

/** The attribute fields of a step (a passkey registration reads these and no method field). */
const attributeFields = (ctx: MethodContext) => (ctx.step.fields ?? []).filter((field) => ctx.schema.fields.has(field));

/** Who the new credential is for when the step registers a new user: names from what the flow collected. */
function newUserNames(ctx: MethodContext): { userName: string; displayName: string } {
  const userName = ctx.identifier;
  const given = ['name.given', 'name'].map((path) => ctx.collected(path)).find((value) => value !== undefined && value !== '');
  return { userName, displayName: given ?? userName };
}

/**
 * The user a passkey may be added to outside `create_user`: one this flow created, one this flow
 * authenticated (its auth attempt holds a factor of that user), or the session's signed-in user.
 * A user the flow merely identified by a typed identifier never qualifies.
 */
async function provenUser(ctx: MethodContext): Promise<string | undefined> {
  const userId = ctx.userId;
  if (userId !== undefined && ctx.createdUser === userId) return userId;
  if (userId !== undefined && ctx.attemptStarted && (await ctx.factors(userId, { flowOnly: true })).length > 0) return userId;
  return ctx.sessionUser();
}

/** A creation challenge for an existing user: its handle, its identifier as the name, its passkeys excluded. */
async function existingUserChallenge(ctx: MethodContext, rp: RelyingParty, userId: string) {
  const { passkeys, users } = ctx.services;
  const [handle, existing, user] = await Promise.all([passkeys.userHandleOf(ctx.projectId, userId), passkeys.credentialsFor(ctx.projectId, userId), users.find(ctx.projectId, userId)]);
  const identifier = ctx.schema.identifiers.map((path) => (user ? valueAt(user.attributes, path) : undefined)).find((value) => typeof value === 'string');
  const userName = typeof identifier === 'string' ? identifier : userId;
  return issueChallenge(ctx, rp, { kind: 'passkey_register', userHandle: handle ?? passkeys.newUserHandle(), userName, displayName: userName, exclude: existing.map((c) => c.id) });
}

/** An identifier the new user would take that is already taken: follow `user_already_exists`, or answer on the field. */
async function takenIdentifier(ctx: MethodContext): Promise<string | undefined> {
  for (const field of ctx.schema.identifiers) {
    const value = ctx.collected(field);
    if (value === undefined || !(await ctx.services.users.findByIdentifier(ctx.projectId, ctx.schema.id, value))) continue;
    if (ctx.step.transitions?.user_already_exists) return 'user_already_exists';
    throw validationFailed(ctx.flowId, { [field]: 'error.user_already_exists' }, 'An account with this identifier already exists.');
  }
  return undefined;
}

/**
 * A `passkey_register` action. On a `create_user` step it registers a passkey-only account: the
 * attributes are validated and kept first, then the creation challenge is issued with a new user
 * handle, and the answer's credential is written with the new user in one transaction. On any
 * other step (settings) it adds a passkey to the signed-in user.
 */
export async function passkeyRegister(ctx: MethodContext, input: SubmitInput): Promise<ActionAnswer> {
  const { passkeys } = ctx.services;
  const rp = await relyingPartyOf(ctx);
  const creating = ctx.step.on_success === 'create_user';
  const answer = input.challenge_response;
  const userId = creating ? undefined : await provenUser(ctx);
  if (!creating && userId === undefined) throw invalidAction(ctx.flowId, input.action, 'Sign in first to add a passkey.');
  // In a settings flow, as every settings change: the sign-in must be younger than 15 minutes.
  if (!creating && ctx.boundUser !== undefined) await recentlyProvenUser(ctx, input.action);
  const slot = challengeSlot(ctx);
  const fresh = () => (creating ? issueChallenge(ctx, rp, { kind: 'passkey_register', userHandle: slot.get()?.h ?? passkeys.newUserHandle(), ...newUserNames(ctx), exclude: [] }) : existingUserChallenge(ctx, rp, userId!));
  if (!answer) {
    if (creating) {
      ctx.collect(ctx.read(input.fields, { fields: attributeFields(ctx) }));
      const taken = await takenIdentifier(ctx);
      if (taken !== undefined) return { stay: false, outcome: taken };
      slot.clear();
    } else ctx.read(input.fields, { fields: [] });
    await fresh();
    return { stay: true };
  }
  ctx.read(input.fields, { fields: [] });
  const pending = pendingFor(ctx, 'passkey_register', answer, rp);
  if (!pending?.h) return refuse(ctx, fresh);
  const userHandle = pending.h;
  const passkey = await verified(ctx, () => passkeys.verifyRegistration({ response: answer.proof, expectedChallenge: pending.c, rp }), fresh);
  if (!(await consume(ctx, pending))) return refuse(ctx, fresh);
  const enrollment: Enrollment = {
    write: (trx, user) => save(ctx, trx, user.id, userHandle, passkey),
    factor: passkeyFactor(passkey),
  };
  if (creating) return { stay: false, outcome: await ctx.createUser([enrollment]) };
  await ctx.services.transaction((trx) => save(ctx, trx, userId!, userHandle, passkey));
  return { stay: false };
}

async function save(ctx: MethodContext, trx: Kysely<Database>, userId: string, userHandle: string, passkey: VerifiedPasskey): Promise<void> {
  await ctx.services.passkeys.saveCredential(trx, { projectId: ctx.projectId, userId, userHandle, passkey });
}
