import type { Logger } from 'pino';
import type { Clock } from '../core/clock.js';
import { constantTimeEqual, sha256Hex } from '../core/crypto.js';
import { PasskeyError } from './errors.js';
import type { RelyingParty } from './relying-party.js';
import { verifyAuthenticationResponse } from './webauthn-library.js';
import { authenticationResponseOf, checkClientData, checkSignatureEncoding, libraryFailure } from './response-shape.js';
import { useOutcome, type PasskeyRow, type PasskeyStore, type UseOutcome, type UseParts, type UseReport } from './store.js';

export interface VerifiedAssertion {
  userId: string;
  /** The `credentials` row id (what GET /users/{id}/credentials lists). */
  credentialRowId: string;
  /** WebAuthn credential ID, base64url (what the passkey factor records). */
  credentialId: string;
  userVerified: boolean;
  backupEligible: boolean;
  backupState: boolean;
  authenticatorAttachment?: 'platform' | 'cross-platform';
  /** With `consumeChallenge.carried`: the consumption and sign-count record, not yet written. */
  use?: PendingPasskeyUse;
}

/**
 * A verified assertion's challenge consumption and sign-count record, not written yet: a statement
 * of another domain carries `parts` and hands its report to `check`, or `alone` writes it. Both
 * throw `challenge_used` (answered already) or `counter_regressed` (a possible clone).
 */
export interface PendingPasskeyUse {
  readonly parts: UseParts;
  check(report: UseReport): void;
  alone(): Promise<void>;
}

export interface AssertionInput {
  projectId: string;
  response: unknown;
  expectedChallenge: string;
  rp: RelyingParty;
  expectedUserId?: string;
  /**
   * Consume the challenge once the assertion verified, in the statement that records the use
   * (until `expiresAt`, when it would expire anyway); a second answer is `challenge_used`.
   * `carried`: that statement is not run here but answered as `use`, for the caller's next
   * statement to carry (a passkey sign-in's hand-off, src/flows/methods/passkey/login.ts).
   */
  consumeChallenge?: { expiresAt: Date; carried?: boolean };
  /** the credential already read (`findAlongside`) for the answer's id */
  found?: { webauthnId: string; passkey: Promise<PasskeyRow | undefined> };
}

interface AssertionDeps {
  store: PasskeyStore;
  clock: Clock;
  logger: Logger;
}

/**
 * Verifies an assertion: the credential must exist in this project (and belong to
 * `expectedUserId`, or, usernameless, answer with that user's handle); then the signature, and
 * the challenge (when asked) is consumed and the sign count and last use recorded in one statement
 * that refuses a count going back.
 */
export async function verifyAssertion(deps: AssertionDeps, input: AssertionInput): Promise<VerifiedAssertion> {
  const response = authenticationResponseOf(input.response);
  checkClientData(response.response.clientDataJSON, { type: 'webauthn.get', challenge: input.expectedChallenge, origin: input.rp.origin });
  const passkey = input.found?.webauthnId === response.id ? await input.found.passkey : await deps.store.find(input.projectId, response.id);
  if (!passkey || (input.expectedUserId !== undefined && passkey.userId !== input.expectedUserId)) {
    throw new PasskeyError('unknown_credential', 'no such passkey for this project or user');
  }
  const sentHandle = response.response.userHandle;
  if (input.expectedUserId === undefined || sentHandle !== undefined) {
    const handle = passkey.userHandle;
    if (!handle || sentHandle === undefined || !constantTimeEqual(handle, sentHandle)) {
      throw new PasskeyError('user_handle_mismatch', "the response's userHandle is not the credential owner's");
    }
  }
  checkSignatureEncoding(passkey.publicKey, response.response.signature);
  let result: Awaited<ReturnType<typeof verifyAuthenticationResponse>>;
  try {
    result = await verifyAuthenticationResponse({
      response,
      expectedChallenge: input.expectedChallenge,
      expectedOrigin: input.rp.origin,
      expectedRPID: input.rp.rpId,
      expectedType: 'webauthn.get',
      credential: { id: passkey.webauthnId, publicKey: passkey.publicKey, counter: passkey.signCount },
      requireUserVerification: false,
    });
  } catch (error) {
    const failure = libraryFailure(error);
    if (failure.reason === 'counter_regressed') logClone(deps, input.projectId, passkey.userId, passkey.credentialRowId);
    throw failure;
  }
  if (!result.verified) throw new PasskeyError('verification_failed', 'the assertion did not verify');
  const info = result.authenticationInfo;
  const now = deps.clock.now();
  const verified = {
    userId: passkey.userId,
    credentialRowId: passkey.credentialRowId,
    credentialId: passkey.webauthnId,
    userVerified: info.userVerified,
    backupEligible: info.credentialDeviceType === 'multiDevice',
    backupState: info.credentialBackedUp,
    ...(response.authenticatorAttachment ? { authenticatorAttachment: response.authenticatorAttachment } : {}),
  };
  const consume = input.consumeChallenge;
  if (!consume) {
    refuseUnlessRecorded(deps, (await deps.store.recordUse(passkey.credentialRowId, info.newCounter, now)) ? 'recorded' : 'regressed', input.projectId, passkey);
    return verified;
  }
  const use = { projectId: input.projectId, challengeHash: sha256Hex(input.expectedChallenge), challengeExpiresAt: consume.expiresAt, credentialRowId: passkey.credentialRowId, newCount: info.newCounter, at: now };
  if (!consume.carried) {
    refuseUnlessRecorded(deps, await deps.store.consumeChallengeAndRecordUse(use), input.projectId, passkey);
    return verified;
  }
  const pending: PendingPasskeyUse = {
    parts: deps.store.useParts(use),
    check: (report) => refuseUnlessRecorded(deps, useOutcome(report), input.projectId, passkey),
    alone: async () => refuseUnlessRecorded(deps, await deps.store.consumeChallengeAndRecordUse(use), input.projectId, passkey),
  };
  return { ...verified, use: pending };
}

function refuseUnlessRecorded(deps: AssertionDeps, outcome: UseOutcome, projectId: string, passkey: PasskeyRow): void {
  if (outcome === 'used') throw new PasskeyError('challenge_used', 'the challenge was already answered');
  if (outcome === 'regressed') {
    logClone(deps, projectId, passkey.userId, passkey.credentialRowId);
    throw new PasskeyError('counter_regressed', 'the sign count did not move forward');
  }
}

function logClone(deps: AssertionDeps, projectId: string, userId: string, credentialRowId: string): void {
  deps.logger.warn(
    { project_id: projectId, user_id: userId, credential_id: credentialRowId },
    'passkey sign count went backwards: possibly a cloned authenticator; assertion refused',
  );
}
