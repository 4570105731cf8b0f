import type { NonSharedBuffer } from 'node:buffer';
import { randomBytes } from 'node:crypto';
import type { PublicKeyCredentialCreationOptionsJSON, PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/server';
import type { Kysely, RawBuilder } from 'kysely';
import type { Logger } from 'pino';
import type { Clock } from '../core/clock.js';
import { hmacBase64Url, sha256Hex } from '../core/crypto.js';
import { pooledRandomBytes } from '../core/random.js';
import { NO_USER_ID, type IdGenerator } from '../core/ids.js';
import type { KeyRing } from '../core/keys.js';
import type { Database } from '../db/schema.js';
import { self, type Actor } from '../events/types.js';
import { normaliseIdentifier } from '../users/identifiers.js';
import type { UserService } from '../users/service.js';
import { generateAuthenticationOptions, generateRegistrationOptions, verifyRegistrationResponse } from './webauthn-library.js';
import { verifyAssertion, type AssertionInput, type VerifiedAssertion } from './assertion.js';
import { PasskeyError } from './errors.js';
import { relyingParty, type RelyingParty, type RelyingPartyOptions } from './relying-party.js';
import { checkClientData, libraryFailure, registrationResponseOf } from './response-shape.js';
import type { PasskeyRow, PasskeyStore } from './store.js';

/** ES256, EdDSA, RS256 (DESIGN §4.10), in the order the browser should prefer them. */
export const PASSKEY_ALGORITHMS = [-7, -8, -257];
/** How long the browser may take over a ceremony; the flow keeps its challenge 5 minutes too. */
const CEREMONY_TIMEOUT_MS = 5 * 60 * 1000;
/** The library's default challenge size (WebAuthn asks for at least 16 random bytes). */
const CHALLENGE_BYTES = 32;
/** Transports a fake credential claims: the most common shape of a real (platform/synced) passkey. */
const FAKE_TRANSPORTS = ['hybrid', 'internal'];

/** A label as given, without NUL (PostgreSQL text refuses it) and at most 200 characters; blank is none. */
function nameOf(name: string | undefined): string | null {
  const clean = name?.replace(/\u0000/g, '').trim().slice(0, 200);
  return clean ? clean : null;
}

/** A passkey whose attestation verified, ready for `saveCredential`. */
export interface VerifiedPasskey {
  /** WebAuthn credential ID, base64url. */
  credentialId: string;
  /** COSE_Key bytes. */
  publicKey: Uint8Array;
  counter: number;
  transports: string[];
  aaguid: string;
  backupEligible: boolean;
  backupState: boolean;
  deviceType: 'singleDevice' | 'multiDevice';
  userVerified: boolean;
  authenticatorAttachment?: 'platform' | 'cross-platform';
}

export interface PasskeyServiceDeps {
  store: PasskeyStore;
  keys: KeyRing;
  clock: Clock;
  ids: IdGenerator;
  logger: Logger;
  users: UserService;
}

/**
 * A ceremony's 32-byte challenge from the pooled CSPRNG (src/core/random.ts): the library's own
 * default draws through WebCrypto's getRandomValues, one CSPRNG call per challenge, and every
 * rendered login step with an allowed Origin carries one.
 */
function newChallenge(): NonSharedBuffer {
  return pooledRandomBytes(CHALLENGE_BYTES);
}

/**
 * Passkeys on @simplewebauthn/server (DESIGN §4.10): ceremony options, verification of what the
 * browser answers, storage of credentials and single-use challenges. Every way hostile input
 * fails is a PasskeyError; the flow turns it into 400 with a fresh challenge.
 */
export class PasskeyService {
  private readonly store: PasskeyStore;

  constructor(private readonly deps: PasskeyServiceDeps) {
    this.store = deps.store;
  }

  relyingParty(origin: string | undefined, options: RelyingPartyOptions): RelyingParty {
    return relyingParty(origin, options);
  }

  /** A new WebAuthn user handle: 32 random bytes, base64url (never derived from the user id). */
  newUserHandle(): string {
    return randomBytes(32).toString('base64url');
  }

  userHandleOf(projectId: string, userId: string): Promise<string | undefined> {
    return this.store.handleOf(projectId, userId);
  }

  async registrationOptions(input: {
    rp: { id: string; name: string };
    userHandle: string;
    userName: string;
    displayName: string;
    excludeCredentialIds: string[];
  }): Promise<{ challenge: string; options: PublicKeyCredentialCreationOptionsJSON }> {
    const options = await generateRegistrationOptions({
      challenge: newChallenge(),
      rpName: input.rp.name,
      rpID: input.rp.id,
      userName: input.userName,
      userID: new Uint8Array(Buffer.from(input.userHandle, 'base64url')),
      userDisplayName: input.displayName,
      attestationType: 'none',
      excludeCredentials: input.excludeCredentialIds.map((id) => ({ id })),
      authenticatorSelection: { residentKey: 'required', requireResidentKey: true, userVerification: 'preferred' },
      supportedAlgorithmIDs: PASSKEY_ALGORITHMS,
      timeout: CEREMONY_TIMEOUT_MS,
    });
    return { challenge: options.challenge, options };
  }

  async authenticationOptions(input: {
    rpId: string;
    allowCredentialIds?: Array<{ id: string; transports?: string[] }>;
  }): Promise<{ challenge: string; options: PublicKeyCredentialRequestOptionsJSON }> {
    const options = await generateAuthenticationOptions({
      challenge: newChallenge(),
      rpID: input.rpId,
      allowCredentials: input.allowCredentialIds ?? [],
      userVerification: 'preferred',
      timeout: CEREMONY_TIMEOUT_MS,
    });
    return { challenge: options.challenge, options };
  }

  /** The user's passkeys as `allowCredentials` / `excludeCredentials` want them. */
  credentialsFor(projectId: string, userId: string): Promise<Array<{ id: string; transports?: string[] }>> {
    return this.store.listForUser(projectId, userId);
  }

  /**
   * `allowCredentials` after an identifier step (DESIGN §4.10): the user's passkeys; for an
   * identifier that names nobody, or a user without passkeys, the same stable fake ids, so the
   * options never tell the two apart. The list is read for nobody too (an id no user has): known
   * and unknown identifiers cost the same statement. No identifier (a user reached by another
   * factor) keeps the real list, empty or not: nothing is left to hide from that visitor.
   */
  async loginCredentials(projectId: string, userId: string | undefined, identifier: string): Promise<Array<{ id: string; transports?: string[] }>> {
    const real = await this.store.listForUser(projectId, userId ?? NO_USER_ID);
    return real.length > 0 || identifier === '' ? real : this.fakeCredentialIds(projectId, identifier);
  }

  /**
   * Stable fake credential ids for an identifier without passkeys: an HMAC of project and
   * normalised identifier under a server key, so the same probe always sees the same list (one
   * id, the size a typical user has) and no one can tell it from a real one.
   */
  fakeCredentialIds(projectId: string, identifier: string): Array<{ id: string; transports: string[] }> {
    const normalised = normaliseIdentifier(identifier) ?? identifier;
    const id = hmacBase64Url(this.deps.keys.current('passkeys.fake-credential-ids'), `${projectId}\u0000${normalised}`);
    return [{ id, transports: FAKE_TRANSPORTS }];
  }

  /** Marks a challenge used; true exactly once per challenge, however many race (one statement). */
  consumeChallenge(projectId: string, challenge: string, expiresAt: Date): Promise<boolean> {
    return this.store.consumeChallenge(projectId, sha256Hex(challenge), expiresAt);
  }

  /** Drops used-challenge records whose challenge has expired anyway (for a sweeper). */
  deleteExpiredChallenges(before: Date = this.deps.clock.now()): Promise<number> {
    return this.store.deleteExpiredChallenges(before);
  }

  async verifyRegistration(input: { response: unknown; expectedChallenge: string; rp: RelyingParty }): Promise<VerifiedPasskey> {
    const response = registrationResponseOf(input.response);
    checkClientData(response.response.clientDataJSON, { type: 'webauthn.create', challenge: input.expectedChallenge, origin: input.rp.origin });
    let result: Awaited<ReturnType<typeof verifyRegistrationResponse>>;
    try {
      result = await verifyRegistrationResponse({
        response,
        expectedChallenge: input.expectedChallenge,
        expectedOrigin: input.rp.origin,
        expectedRPID: input.rp.rpId,
        expectedType: 'webauthn.create',
        requireUserPresence: true,
        requireUserVerification: false,
        supportedAlgorithmIDs: PASSKEY_ALGORITHMS,
      });
    } catch (error) {
      throw libraryFailure(error);
    }
    if (!result.verified) throw new PasskeyError('verification_failed', 'the attestation did not verify');
    const info = result.registrationInfo;
    if (info.credential.id !== response.id) throw new PasskeyError('malformed', 'id differs from the attested credential id');
    return {
      credentialId: info.credential.id,
      publicKey: new Uint8Array(info.credential.publicKey),
      counter: info.credential.counter,
      transports: (response.response.transports ?? []).slice(),
      aaguid: info.aaguid,
      backupEligible: info.credentialDeviceType === 'multiDevice',
      backupState: info.credentialBackedUp,
      deviceType: info.credentialDeviceType,
      userVerified: info.userVerified,
      ...(response.authenticatorAttachment ? { authenticatorAttachment: response.authenticatorAttachment } : {}),
    };
  }

  /**
   * Writes a verified passkey on the caller's transaction: the `credentials` row (method
   * `passkey`), the `passkeys` row and the user's handle if new, plus an audit event. A
   * credential id already registered in the project is `credential_exists` (the caller's
   * transaction then rolls back whatever it wrote).
   */
  async saveCredential(
    trx: Kysely<Database>,
    input: { projectId: string; userId: string; userHandle: string; passkey: VerifiedPasskey; name?: string; actor?: Actor },
  ): Promise<{ id: string }> {
    const store = this.store.with(trx);
    const now = this.deps.clock.now();
    const id = this.deps.ids.next('cred');
    const { passkey } = input;
    const handle = await store.claimHandle(input.projectId, input.userId, input.userHandle, now);
    if (handle !== input.userHandle) throw new PasskeyError('user_handle_mismatch', 'the user already has another WebAuthn user handle');
    await store.insertCredential({ id, projectId: input.projectId, userId: input.userId, name: nameOf(input.name), at: now });
    const inserted = await store.insertPasskey({
      credential_row_id: id,
      project_id: input.projectId,
      user_id: input.userId,
      webauthn_id: passkey.credentialId,
      public_key: passkey.publicKey,
      sign_count: passkey.counter,
      transports: passkey.transports,
      aaguid: passkey.aaguid,
      backup_eligible: passkey.backupEligible,
      backup_state: passkey.backupState,
      device_type: passkey.deviceType,
    });
    if (!inserted) throw new PasskeyError('credential_exists', 'this passkey is already registered in the project');
    await this.deps.users.audit(trx, { id: input.userId, projectId: input.projectId }, { attribute: 'passkey', action: 'added', actor: input.actor ?? self(input.userId), credentialId: id });
    return { id };
  }

  /** The passkey an answer names, read together with another domain's one-row statement (see the store). */
  findAlongside<T extends object>(projectId: string, webauthnId: string, alongside: RawBuilder<T>): Promise<{ passkey: PasskeyRow | undefined; alongside: T }> {
    return this.store.findAlongside(projectId, webauthnId, alongside);
  }

  /**
   * Verifies an assertion (src/passkeys/assertion.ts): the credential, the signature, then the
   * challenge's consumption and the sign count, at once or carried by the caller's statement.
   */
  verifyAuthentication(input: AssertionInput): Promise<VerifiedAssertion> {
    return verifyAssertion(this.deps, input);
  }
}
