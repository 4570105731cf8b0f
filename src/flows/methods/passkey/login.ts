import type { SubmitInput } from '../../view.js';
import type { ChallengeView } from './view.js';
import { identifierField } from '../../definitions/schema-view.js';
import type { MethodContext, PendingUse } from '../method.js';
import type { ActionAnswer } from '../declaration.js';
import { challengeSlot, issueChallenge, passkeyFactor, pendingFor, refuse, relyingPartyOf, verified } from './ceremony.js';
import type { RelyingParty } from '../../../passkeys/relying-party.js';
import type { PendingPasskeyUse } from '../../../passkeys/assertion.js';
import type { PasskeyRow } from '../../../passkeys/store.js';

/**
 * The options of a login challenge: after an identifier, the user's passkeys, or stable fake ids
 * alike for an identifier that names nobody and for a user without passkeys (the options reveal
 * no account); none for a usernameless sign-in.
 */
async function loginChallenge(ctx: MethodContext, rp: RelyingParty, conditional = false) {
  const { userId, identifier } = ctx;
  if (userId !== undefined || identifier !== '') {
    const allow = await ctx.services.passkeys.loginCredentials(ctx.projectId, userId, identifier);
    return issueChallenge(ctx, rp, { kind: 'passkey', allow, userId: userId ?? '' });
  }
  return issueChallenge(ctx, rp, { kind: 'passkey', conditional });
}

/**
 * A `passkey` action. Without an answer: identify the user when the step's identifier field was
 * filled in, then issue the challenge. With an answer: verify it against the challenge in the
 * frame, consume the challenge, and prove the `passkey` factor for the credential's user.
 */
export async function passkeyLogin(ctx: MethodContext, input: SubmitInput): Promise<ActionAnswer> {
  const { passkeys, users } = ctx.services;
  const rp = await relyingPartyOf(ctx);
  const answer = input.challenge_response;
  if (!answer) {
    const identField = identifierField(ctx.step, ctx.schema);
    const values = ctx.read(input.fields, { fields: identField ? [identField] : [], optional: true });
    const typed = identField ? values.get(identField) : undefined;
    if (identField && typed !== undefined && typed !== ctx.collected(identField)) {
      ctx.collect(new Map([[identField, typed]]));
      ctx.identify((await users.findByIdentifier(ctx.projectId, ctx.schema.id, typed))?.id);
    }
    await loginChallenge(ctx, rp);
    return { stay: true };
  }
  ctx.read(input.fields, { fields: [] });
  // The credential the answer names is read in the statement that reads the risk signals (one round trip).
  const found = prefetchCredential(ctx, answer.proof);
  await ctx.guard(found?.carry);
  const pending = pendingFor(ctx, 'passkey', answer, rp);
  const fresh = async () => {
    await ctx.countRefusal('passkey');
    return loginChallenge(ctx, rp);
  };
  if (!pending) return refuse(ctx, fresh);
  // As the attempt's first factor (nothing written for it yet), the challenge's consumption rides
  // on the flow's hand-off; otherwise it is written at once, before the factor is.
  const consumeChallenge = { expiresAt: new Date(pending.x), carried: !ctx.attemptStarted };
  const proven = await verified(ctx, () => passkeys.verifyAuthentication({ projectId: ctx.projectId, response: answer.proof, expectedChallenge: pending.c, rp, expectedUserId: pending.u, consumeChallenge, found: found?.credential }), fresh);
  const use = proven.use;
  if (use) ctx.carryUse((rollBack) => pendingUseOf(ctx, use, rollBack, fresh));
  challengeSlot(ctx).clear();
  ctx.identify(proven.userId);
  await ctx.prove(passkeyFactor(proven), proven.userId);
  return { stay: false };
}

/**
 * The run's view of a carried consumption: refused as any passkey answer is (400 with a fresh
 * challenge), with the flow put back as it was before the answer (`rollBack`), since by then the
 * step had moved on.
 */
function pendingUseOf(ctx: MethodContext, use: PendingPasskeyUse, rollBack: () => void, fresh: () => Promise<ChallengeView>): PendingUse {
  const again = async () => {
    rollBack();
    return fresh();
  };
  return {
    parts: use.parts,
    check: (report) => verified(ctx, async () => use.check(report), again),
    alone: () => verified(ctx, () => use.alone(), again),
  };
}

/**
 * Reads the credential an answer names together with the run's risk signals, which the deny check
 * then uses (`carry`). Nothing for an answer without a usable id (the verification refuses it).
 */
function prefetchCredential(ctx: MethodContext, proof: unknown) {
  const id = (proof as { id?: unknown } | null)?.id;
  if (typeof id !== 'string' || id.length === 0 || id.length > 1024) return undefined;
  let credential: { webauthnId: string; passkey: Promise<PasskeyRow | undefined> } | undefined;
  const carry: Parameters<MethodContext['guard']>[0] = (signals) => {
    const read = ctx.services.passkeys.findAlongside(ctx.projectId, id, signals);
    const passkey = read.then((result) => result.passkey);
    // Awaited later, or not at all when the deny check refuses first: never an unhandled rejection.
    passkey.catch(() => undefined);
    credential = { webauthnId: id, passkey };
    return read.then((result) => result.alongside);
  };
  return {
    carry,
    get credential() {
      return credential;
    },
  };
}

/** Autofill (conditional UI): a rendered step with a `passkey` action carries a usernameless challenge when the request's origin may use passkeys. */
export async function offerAutofill(ctx: MethodContext): Promise<void> {
  if (ctx.view.has('challenge') || ctx.request.origin === undefined) return;
  let rp: RelyingParty;
  try {
    rp = await relyingPartyOf(ctx);
  } catch {
    return;
  }
  if (ctx.userId === undefined && ctx.identifier === '') await loginChallenge(ctx, rp, true);
}
