import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import { isoCBOR } from '@simplewebauthn/server/helpers';
import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from '@simplewebauthn/server';

/**
 * A software WebAuthn authenticator for tests, on Node's crypto only: it produces real `none`
 * attestations (CBOR attestationObject, authData with the attested credential data and a COSE
 * key) and real assertions (a signature over authData || sha256(clientDataJSON)), in the JSON
 * shapes a browser's `PublicKeyCredential.toJSON()` returns. It reads the challenge, RP ID and
 * user id from the options as a browser would; the knobs below make it misbehave on purpose.
 */

export type Algorithm = 'ES256' | 'EdDSA';

export interface AuthenticatorOptions {
  /** The UV flag it reports (default true). */
  userVerified?: boolean;
  /** The UP flag it reports (default true). */
  userPresent?: boolean;
  algorithm?: Algorithm;
  attachment?: 'platform' | 'cross-platform';
  transports?: string[];
  /** Backup eligibility / state flags (a synced passkey has both). */
  backupEligible?: boolean;
  backupState?: boolean;
  /** 16 bytes; zeros (as `none` attestation usually reports) unless given. */
  aaguid?: Uint8Array;
  /** Report a sign count of 0 on every assertion, as synced passkeys do: only the challenge then stops a replay. */
  zeroCount?: boolean;
}

/** What a single ceremony may override, e.g. a phishing origin or the wrong ceremony type. */
export interface CeremonyOverrides {
  origin: string;
  /** The RP ID whose hash goes into authData (default: the options' rp id). */
  rpId?: string;
  type?: string;
  /** Replaces the challenge the options carry. */
  challenge?: string;
  userVerified?: boolean;
  userPresent?: boolean;
  /** Which stored credential to assert with (default: the first the options allow). */
  credentialId?: string;
  /** Replaces the userHandle of an assertion (null leaves it out). */
  userHandle?: string | null;
}

interface StoredCredential {
  id: string;
  privateKey: KeyObject;
  cose: Uint8Array;
  algorithm: Algorithm;
  rpId: string;
  userHandle: string;
  signCount: number;
}

const FLAG_UP = 0x01;
const FLAG_UV = 0x04;
const FLAG_BE = 0x08;
const FLAG_BS = 0x10;
const FLAG_AT = 0x40;

const b64url = (bytes: Uint8Array | string) => Buffer.from(bytes).toString('base64url');
const sha256 = (bytes: Uint8Array | string) => createHash('sha256').update(bytes).digest();

export class SoftwareAuthenticator {
  /** Resident credentials by base64url id: each keeps its RP ID and user handle. */
  readonly credentials = new Map<string, StoredCredential>();

  constructor(private readonly options: AuthenticatorOptions = {}) {}

  /** `navigator.credentials.create` with the server's creation options. */
  async create(optionsJSON: PublicKeyCredentialCreationOptionsJSON, overrides: CeremonyOverrides): Promise<RegistrationResponseJSON> {
    const algorithm = this.options.algorithm ?? 'ES256';
    // As a browser does: no algorithm in common, or a credential the RP excludes, ends the ceremony.
    if (!optionsJSON.pubKeyCredParams.some((p) => p.alg === (algorithm === 'ES256' ? -7 : -8))) throw new Error('NotSupportedError: no common algorithm');
    if ((optionsJSON.excludeCredentials ?? []).some((c) => this.credentials.has(c.id))) throw new Error('InvalidStateError: already registered');
    const { privateKey, cose } = newKeyPair(algorithm);
    const id = b64url(randomBytes(16));
    const rpId = optionsJSON.rp.id ?? new URL(overrides.origin).hostname;
    const credential: StoredCredential = { id, privateKey, cose, algorithm, rpId, userHandle: optionsJSON.user.id, signCount: 0 };
    const clientDataJSON = this.clientData(overrides.type ?? 'webauthn.create', overrides.challenge ?? optionsJSON.challenge, overrides.origin);
    const credentialIdBytes = Buffer.from(id, 'base64url');
    const attested = Buffer.concat([
      Buffer.from(this.options.aaguid ?? new Uint8Array(16)),
      Buffer.from([credentialIdBytes.length >> 8, credentialIdBytes.length & 0xff]),
      credentialIdBytes,
      Buffer.from(cose),
    ]);
    const authData = Buffer.concat([this.authDataHead(overrides.rpId ?? rpId, overrides, FLAG_AT, 0), attested]);
    const attestationObject = isoCBOR.encode(new Map<string, unknown>([['fmt', 'none'], ['attStmt', new Map()], ['authData', new Uint8Array(authData)]]) as never);
    this.credentials.set(id, credential);
    return {
      id,
      rawId: id,
      type: 'public-key',
      response: {
        clientDataJSON: b64url(clientDataJSON),
        attestationObject: b64url(attestationObject),
        transports: (this.options.transports ?? ['hybrid', 'internal']) as RegistrationResponseJSON['response']['transports'],
        publicKeyAlgorithm: algorithm === 'ES256' ? -7 : -8,
        authenticatorData: b64url(authData),
      },
      clientExtensionResults: {},
      authenticatorAttachment: this.options.attachment ?? 'platform',
    };
  }

  /** `navigator.credentials.get` with the server's request options (empty allow list = discoverable). */
  async get(optionsJSON: PublicKeyCredentialRequestOptionsJSON, overrides: CeremonyOverrides): Promise<AuthenticationResponseJSON> {
    const rpId = optionsJSON.rpId ?? new URL(overrides.origin).hostname;
    const credential = this.pick(optionsJSON, rpId, overrides.credentialId);
    if (!this.options.zeroCount) credential.signCount += 1;
    const clientDataJSON = this.clientData(overrides.type ?? 'webauthn.get', overrides.challenge ?? optionsJSON.challenge, overrides.origin);
    const authData = this.authDataHead(overrides.rpId ?? rpId, overrides, 0, credential.signCount);
    const signed = Buffer.concat([authData, sha256(clientDataJSON)]);
    const signature = credential.algorithm === 'ES256' ? sign('sha256', signed, credential.privateKey) : sign(null, signed, credential.privateKey);
    const userHandle = overrides.userHandle === undefined ? credential.userHandle : overrides.userHandle;
    return {
      id: credential.id,
      rawId: credential.id,
      type: 'public-key',
      response: {
        clientDataJSON: b64url(clientDataJSON),
        authenticatorData: b64url(authData),
        signature: b64url(signature),
        ...(userHandle === null ? {} : { userHandle }),
      },
      clientExtensionResults: {},
      authenticatorAttachment: this.options.attachment ?? 'platform',
    };
  }

  /** Sets a credential's counter; the next assertion reports `count + 1` (so a lower value goes backwards). */
  setSignCount(credentialId: string, count: number): void {
    const credential = this.credentials.get(credentialId);
    if (!credential) throw new Error(`no credential ${credentialId}`);
    credential.signCount = count - 1;
  }

  private pick(optionsJSON: PublicKeyCredentialRequestOptionsJSON, rpId: string, wanted?: string): StoredCredential {
    if (wanted) {
      const credential = this.credentials.get(wanted);
      if (!credential) throw new Error(`no credential ${wanted}`);
      return credential;
    }
    const allowed = (optionsJSON.allowCredentials ?? []).map((c) => c.id);
    for (const credential of this.credentials.values()) {
      if (allowed.length > 0 ? allowed.includes(credential.id) : credential.rpId === rpId) return credential;
    }
    throw new Error('NotAllowedError: no matching credential');
  }

  private clientData(type: string, challenge: string, origin: string): Buffer {
    return Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }), 'utf8');
  }

  private authDataHead(rpId: string, overrides: CeremonyOverrides, extraFlags: number, signCount: number): Buffer {
    let flags = extraFlags;
    if (overrides.userPresent ?? this.options.userPresent ?? true) flags |= FLAG_UP;
    if (overrides.userVerified ?? this.options.userVerified ?? true) flags |= FLAG_UV;
    if (this.options.backupEligible) flags |= FLAG_BE;
    if (this.options.backupState) flags |= FLAG_BS;
    const counter = Buffer.alloc(4);
    counter.writeUInt32BE(signCount >>> 0);
    return Buffer.concat([sha256(rpId), Buffer.from([flags]), counter]);
  }
}

/** A fresh key pair and its public key as a COSE_Key (EC2 P-256 for ES256, OKP Ed25519 for EdDSA). */
function newKeyPair(algorithm: Algorithm): { privateKey: KeyObject; cose: Uint8Array } {
  if (algorithm === 'ES256') {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const jwk = publicKey.export({ format: 'jwk' });
    const cose = new Map<number, unknown>([
      [1, 2],
      [3, -7],
      [-1, 1],
      [-2, new Uint8Array(Buffer.from(jwk.x!, 'base64url'))],
      [-3, new Uint8Array(Buffer.from(jwk.y!, 'base64url'))],
    ]);
    return { privateKey, cose: isoCBOR.encode(cose as never) };
  }
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const jwk = publicKey.export({ format: 'jwk' });
  const cose = new Map<number, unknown>([
    [1, 1],
    [3, -8],
    [-1, 6],
    [-2, new Uint8Array(Buffer.from(jwk.x!, 'base64url'))],
  ]);
  return { privateKey, cose: isoCBOR.encode(cose as never) };
}
