import { PasskeyError } from '../../../passkeys/errors.js';
import type { RelyingParty } from '../../../passkeys/relying-party.js';
import type { PasskeyService } from '../../../passkeys/service.js';
import { FlowStateChanged } from '../../errors.js';
import type { ChallengeResponse, ChallengeView } from './view.js';
import type { MethodContext, ProvenFactor } from '../method.js';

/** A WebAuthn challenge waiting for its answer (DESIGN §4.10); consumed in the database when answered. */
export interface PendingChallenge {
  /** challenge_id the client names in its answer */
  i: string;
  /** `passkey` or `passkey_register` */
  m: string;
  /** the challenge (base64url) */
  c: string;
  /** expires at, epoch ms */
  x: number;
  /** relying party id the options named */
  rp: string;
  /** login: the user the allowCredentials belong to (identifier given first) */
  u?: string;
  /** registration: the new credential's user handle */
  h?: string;
}

/** A challenge is answered within 5 minutes (DESIGN §4.10). */
export const CHALLENGE_TTL_MS = 5 * 60 * 1000;

export type CeremonyKind = 'passkey' | 'passkey_register';

function passkeys(ctx: MethodContext): PasskeyService {
  return ctx.services.passkeys;
}

/** The challenge issued on the current step, until it is answered or replaced (the method's slot). */
export const challengeSlot = (ctx: MethodContext) => ctx.state<PendingChallenge>('passkey');

/**
 * The relying party of this request: its `Origin` must be the service's own origin or one of the
 * project's preview origins (403 `auth.csrf_invalid` otherwise); the RP ID is that origin's host,
 * or the project's `flow_settings.passkeys.rp_id`.
 */
export async function relyingPartyOf(ctx: MethodContext): Promise<RelyingParty> {
  const [project, settings] = await Promise.all([ctx.services.projects.row(ctx.projectId), ctx.flowSettings()]);
  return passkeys(ctx).relyingParty(ctx.request.origin, {
    publicUrl: ctx.services.publicUrl,
    allowedOrigins: project?.preview_origins ?? [],
    rpId: settings.passkeys.rp_id,
  });
}

/** What a new challenge is for: the options to build and what the answer must then prove. */
export type ChallengeSpec =
  | { kind: 'passkey'; allow?: Array<{ id: string; transports?: string[] }>; userId?: string; conditional?: boolean }
  | { kind: 'passkey_register'; userHandle: string; userName: string; displayName: string; exclude: string[] };

/** Issues a challenge into the frame and the step view (`step.challenge`). */
export async function issueChallenge(ctx: MethodContext, rp: RelyingParty, spec: ChallengeSpec): Promise<ChallengeView> {
  const service = passkeys(ctx);
  const built =
    spec.kind === 'passkey'
      ? await service.authenticationOptions({ rpId: rp.rpId, allowCredentialIds: spec.allow })
      : await service.registrationOptions({ rp: { id: rp.rpId, name: (await ctx.services.projects.row(ctx.projectId))?.name ?? rp.rpId }, userHandle: spec.userHandle, userName: spec.userName, displayName: spec.displayName, excludeCredentialIds: spec.exclude });
  const pending: PendingChallenge = { i: ctx.services.ids.next('chal'), m: spec.kind, c: built.challenge, x: ctx.services.clock.now().getTime() + CHALLENGE_TTL_MS, rp: rp.rpId };
  if (spec.kind === 'passkey' && spec.userId !== undefined) pending.u = spec.userId;
  if (spec.kind === 'passkey_register') pending.h = spec.userHandle;
  challengeSlot(ctx).set(pending);
  const view: ChallengeView = { challenge_id: pending.i, method: spec.kind, options: built.options as unknown as Record<string, unknown> };
  if (spec.kind === 'passkey' && spec.conditional) view.mediation = 'conditional';
  ctx.view.extend({ challenge: view });
  return view;
}

/**
 * The pending challenge an answer names, checked before any verification: the same id, kind and
 * relying party, and not expired. Undefined when the answer does not fit (the caller refuses it).
 */
export function pendingFor(ctx: MethodContext, kind: CeremonyKind, answer: ChallengeResponse, rp: RelyingParty): PendingChallenge | undefined {
  const pending = challengeSlot(ctx).get();
  if (!pending || pending.i !== answer.challenge_id || pending.m !== kind || answer.method !== kind) return undefined;
  if (pending.x <= ctx.services.clock.now().getTime() || pending.rp !== rp.rpId) return undefined;
  return pending;
}

/** Consumes the challenge in the database: an answer (or a replayed cookie) is accepted once. */
export async function consume(ctx: MethodContext, pending: PendingChallenge): Promise<boolean> {
  const consumed = await passkeys(ctx).consumeChallenge(ctx.projectId, pending.c, new Date(pending.x));
  if (consumed) challengeSlot(ctx).clear();
  return consumed;
}

/**
 * A refused answer (DESIGN §4.10): 400 `flow.invalid_credentials` on the `passkey` field with a
 * fresh challenge, the one refusal that changes the flow state (the new `_zflow` holds it).
 */
export async function refuse(ctx: MethodContext, fresh: () => Promise<ChallengeView>): Promise<never> {
  const challenge = await fresh();
  throw new FlowStateChanged('flow.invalid_credentials', 'The passkey could not be verified.', { flow_id: ctx.flowId, fields: { passkey: 'error.passkey_invalid' }, challenge });
}

/** Runs a verification, turning the passkey domain's refusals into `refuse` (why stays out of the answer). */
export async function verified<T>(ctx: MethodContext, work: () => Promise<T>, fresh: () => Promise<ChallengeView>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof PasskeyError) return refuse(ctx, fresh);
    throw error;
  }
}

/** The factor a passkey proves (DESIGN §4.9 table). */
export function passkeyFactor(proof: { credentialId: string; userVerified: boolean; backupEligible: boolean; backupState: boolean; authenticatorAttachment?: string }): ProvenFactor {
  return {
    method: 'passkey',
    payload: {
      credential_id: proof.credentialId,
      user_verified: proof.userVerified,
      backup_eligible: proof.backupEligible,
      backup_state: proof.backupState,
      ...(proof.authenticatorAttachment ? { authenticator_attachment: proof.authenticatorAttachment } : {}),
    },
  };
}
