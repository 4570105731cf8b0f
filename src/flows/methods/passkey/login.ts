import type { SubmitInput } from '../../view.js';
import { identifierField } from '../../definitions/schema-view.js';
import type { ActionAnswer, StepContext } from '../method.js';
import { issueChallenge, passkeyFactor, pendingFor, refuse, relyingPartyOf, verified } from './ceremony.js';
import type { RelyingParty } from '../../../passkeys/relying-party.js';
import type { PendingPasskeyUse } from '../../../passkeys/assertion.js';
import type { PasskeyRow } from '../../../passkeys/store.js';
import type { FlowRun } from '../../runtime/run.js';
import type { PendingUse } from '../../runtime/types.js';
import type { ChallengeView } from '../../view.js';
import type { FlowEntry } from '../../state.js';

/**
 * The options of a login challenge: after an identifier, the user's passkeys, or stable fake ids
 * alike for an identifier that names nobody and for a user without passkeys (the options reveal
 * no account); none for a usernameless sign-in.
 */
async function loginChallenge(ctx: StepContext, rp: RelyingParty, conditional = false) {
  const { run } = ctx;
  const { deps, frame, projectId } = run;
  const identifier = run.collectedIdentifier();
  if (frame.u !== undefined || identifier !== '') {
    const allow = await deps.passkeys.loginCredentials(projectId, frame.u, identifier);
    return issueChallenge(run, rp, { kind: 'passkey', allow, userId: frame.u ?? '' });
  }
  return issueChallenge(run, rp, { kind: 'passkey', conditional });
}

/**
 * A `passkey` action. Without an answer: identify the user when the step's identifier field was
 * filled in, then issue the challenge. With an answer: verify it against the challenge in the
 * frame, consume the challenge, and prove the `passkey` factor for the credential's user.
 */
export async function passkeyLogin(ctx: StepContext, input: SubmitInput): Promise<ActionAnswer> {
  const { run, loaded, step } = ctx;
  const { deps, frame, projectId } = run;
  const rp = await relyingPartyOf(run);
  const answer = input.challenge_response;
  if (!answer) {
    const identField = identifierField(step, loaded.schema);
    const values = run.read(step, input.fields, { fields: identField ? [identField] : [], optional: true });
    const typed = identField ? values.get(identField) : undefined;
    if (identField && typed !== undefined && typed !== frame.c[identField]) {
      frame.c[identField] = typed;
      frame.u = (await deps.users.findByIdentifier(projectId, loaded.row.schema_id, typed))?.id;
    }
    await loginChallenge(ctx, rp);
    return { stay: true };
  }
  run.read(step, input.fields, { fields: [] });
  // The credential the answer names is read in the statement that reads the risk signals (one round trip).
  const found = prefetchCredential(ctx, answer.proof);
  await run.refuseWhenDenied();
  const pending = pendingFor(run, 'passkey', answer, rp);
  const fresh = async () => {
    await deps.risk.recordFailure(projectId, undefined, run.ctx.ip, await run.riskRules());
    return loginChallenge(ctx, rp);
  };
  if (!pending) return refuse(run, fresh);
  // As the attempt's first factor (nothing written for it yet), the challenge's consumption rides
  // on the flow's hand-off; otherwise it is written at once, before the factor is.
  const consumeChallenge = { expiresAt: new Date(pending.x), carried: run.entry.a === undefined };
  const proven = await verified(run, () => deps.passkeys.verifyAuthentication({ projectId, response: answer.proof, expectedChallenge: pending.c, rp, expectedUserId: pending.u, consumeChallenge, found }), fresh);
  if (proven.use) run.pendingUse = pendingUseOf(run, proven.use, structuredClone(run.entry), fresh);
  frame.ch = undefined;
  frame.u = proven.userId;
  await run.recordFactor(passkeyFactor(proven), proven.userId);
  return { stay: false };
}

/**
 * The run's view of a carried consumption: refused as any passkey answer is (400 with a fresh
 * challenge), with the flow put back as it was `before` the answer, since by then the step had
 * moved on.
 */
function pendingUseOf(run: FlowRun, use: PendingPasskeyUse, before: FlowEntry, fresh: () => Promise<ChallengeView>): PendingUse {
  const again = async () => {
    run.rollBack(before);
    return fresh();
  };
  return {
    parts: use.parts,
    check: (report) => verified(run, async () => use.check(report), again),
    alone: () => verified(run, () => use.alone(), again),
  };
}

/**
 * Starts reading the credential an answer names together with the run's risk signals, which the
 * deny check then uses. Nothing for an answer without a usable id (the verification refuses it).
 */
function prefetchCredential(ctx: StepContext, proof: unknown): { webauthnId: string; passkey: Promise<PasskeyRow | undefined> } | undefined {
  const id = (proof as { id?: unknown } | null)?.id;
  if (typeof id !== 'string' || id.length === 0 || id.length > 1024) return undefined;
  const { run } = ctx;
  const risk = run.signalsAlongside();
  const read = run.deps.passkeys.findAlongside(run.projectId, id, risk.query);
  risk.primed(read.then((result) => result.alongside));
  const passkey = read.then((result) => result.passkey);
  // Awaited later, or not at all when the deny check refuses first: never an unhandled rejection.
  passkey.catch(() => undefined);
  return { webauthnId: id, passkey };
}

/** Autofill (conditional UI): a rendered step with a `passkey` action carries a usernameless challenge when the request's origin may use passkeys. */
export async function offerAutofill(ctx: StepContext): Promise<void> {
  const { run } = ctx;
  if (run.extensions.challenge || run.ctx.origin === undefined) return;
  let rp: RelyingParty;
  try {
    rp = await relyingPartyOf(run);
  } catch {
    return;
  }
  if (run.frame.u === undefined && run.collectedIdentifier() === '') await loginChallenge(ctx, rp, true);
}
