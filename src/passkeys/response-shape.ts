import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import { isoCBOR } from '@simplewebauthn/server/helpers';
import { decodeBase64url, isBase64url } from '../core/base64.js';
import { PasskeyError } from './errors.js';

/**
 * Shape checks of what a browser sent, before any library parses it: the library throws plain
 * Errors (or worse) on odd input, and hostile input must end as a PasskeyError every time.
 */

/** clientDataJSON above this is refused before decoding (real ones are a few hundred bytes). */
export const MAX_CLIENT_DATA_BYTES = 16 * 1024;
/** attestationObject / authenticatorData / signature ceilings (an RSA-4096 attestation fits). */
const MAX_BINARY_BYTES = 64 * 1024;
/** WebAuthn caps credential ids at 1023 bytes. */
const MAX_CREDENTIAL_ID_BYTES = 1023;
const MAX_USER_HANDLE_BYTES = 64;

/** usb, nfc, ble, smart-card, hybrid, internal and future names of the same shape; they are stored in jsonb (no NUL). */
const TRANSPORT = /^[a-z0-9-]{1,32}$/;

export interface ClientData {
  type: string;
  challenge: string;
  origin: string;
}

function malformed(what: string): PasskeyError {
  return new PasskeyError('malformed', `malformed response: ${what}`);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * A canonical base64url string (unpadded, as `PublicKeyCredential.toJSON()` writes it; see
 * src/core/base64.ts) whose decoded size is at most `maxBytes` (checked on the text length first).
 * Canonical, so every decoder reads the same bytes: the clientDataJSON checked here is the one the
 * library hashes and verifies, and a credential id has one textual form.
 */
function base64url(value: unknown, what: string, maxBytes: number, minBytes = 1): string {
  if (typeof value !== 'string' || !isBase64url(value)) throw malformed(`${what} is not base64url`);
  const bytes = Math.floor((value.length * 3) / 4);
  if (bytes > maxBytes) throw new PasskeyError('too_large', `${what} is larger than ${maxBytes} bytes`);
  if (bytes < minBytes) throw malformed(`${what} is empty`);
  return value;
}

type Attachment = 'platform' | 'cross-platform';

/**
 * The fields both ceremonies share, checked, rebuilt from scratch so that nothing the browser
 * added travels on; `response` is returned for the ceremony's own fields.
 */
function credentialBase(value: unknown): {
  base: { id: string; rawId: string; type: 'public-key'; clientExtensionResults: Record<string, never>; authenticatorAttachment?: Attachment };
  response: Record<string, unknown> & { clientDataJSON: string };
} {
  if (!isObject(value)) throw malformed('not an object');
  const id = base64url(value.id, 'id', MAX_CREDENTIAL_ID_BYTES);
  if (value.rawId !== undefined && value.rawId !== id) throw malformed('rawId differs from id');
  if (value.type !== 'public-key') throw malformed('type is not public-key');
  if (!isObject(value.response)) throw malformed('response is not an object');
  if (value.clientExtensionResults !== undefined && !isObject(value.clientExtensionResults)) throw malformed('clientExtensionResults');
  const attachment = value.authenticatorAttachment ?? undefined;
  if (attachment !== undefined && attachment !== 'platform' && attachment !== 'cross-platform') throw malformed('authenticatorAttachment');
  const clientDataJSON = base64url(value.response.clientDataJSON, 'clientDataJSON', MAX_CLIENT_DATA_BYTES);
  return {
    base: { id, rawId: id, type: 'public-key', clientExtensionResults: {}, ...(attachment ? { authenticatorAttachment: attachment } : {}) },
    response: { ...value.response, clientDataJSON },
  };
}

function transportsOf(value: unknown): string[] | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || value.length > 10 || !value.every((t) => typeof t === 'string' && TRANSPORT.test(t))) {
    throw malformed('transports');
  }
  return value as string[];
}

/** The browser's `toJSON()` of a `create()` result, checked field by field. */
export function registrationResponseOf(value: unknown): RegistrationResponseJSON {
  const { base, response } = credentialBase(value);
  const attestationObject = base64url(response.attestationObject, 'attestationObject', MAX_BINARY_BYTES);
  const transports = transportsOf(response.transports) as RegistrationResponseJSON['response']['transports'];
  return { ...base, response: { clientDataJSON: response.clientDataJSON, attestationObject, transports } };
}

/** The browser's `toJSON()` of a `get()` result, checked field by field. */
export function authenticationResponseOf(value: unknown): AuthenticationResponseJSON {
  const { base, response } = credentialBase(value);
  const authenticatorData = base64url(response.authenticatorData, 'authenticatorData', MAX_BINARY_BYTES, 37);
  const signature = base64url(response.signature, 'signature', MAX_BINARY_BYTES);
  const userHandle = response.userHandle === null || response.userHandle === undefined ? undefined : base64url(response.userHandle, 'userHandle', MAX_USER_HANDLE_BYTES);
  return { ...base, response: { clientDataJSON: response.clientDataJSON, authenticatorData, signature, ...(userHandle === undefined ? {} : { userHandle }) } };
}

/**
 * Decodes clientDataJSON and checks the ceremony type, challenge and origin ourselves, so each
 * failure has its own reason (the library would say the same in a free-text message).
 */
export function checkClientData(encoded: string, expected: { type: 'webauthn.create' | 'webauthn.get'; challenge: string; origin: string }): ClientData {
  const bytes = decodeBase64url(encoded);
  if (!bytes) throw malformed('clientDataJSON is not base64url');
  let parsed: unknown;
  try {
    parsed = JSON.parse(bytes.toString('utf8'));
  } catch {
    throw malformed('clientDataJSON is not JSON');
  }
  if (!isObject(parsed) || typeof parsed.type !== 'string' || typeof parsed.challenge !== 'string' || typeof parsed.origin !== 'string') {
    throw malformed('clientDataJSON lacks type, challenge or origin');
  }
  if (parsed.type !== expected.type) throw new PasskeyError('wrong_type', `ceremony type ${parsed.type.slice(0, 32)}, expected ${expected.type}`);
  if (parsed.challenge !== expected.challenge) throw new PasskeyError('challenge_mismatch', 'the response answers another challenge');
  if (parsed.origin !== expected.origin) throw new PasskeyError('wrong_origin', 'the response was made for another origin');
  if (parsed.crossOrigin === true) throw new PasskeyError('wrong_origin', 'cross-origin iframe ceremonies are not accepted');
  return { type: parsed.type, challenge: parsed.challenge, origin: parsed.origin };
}

/** Maps what @simplewebauthn/server threw to a reason; anything unrecognised is `verification_failed`. */
export function libraryFailure(error: unknown): PasskeyError {
  if (error instanceof PasskeyError) return error;
  const message = error instanceof Error ? error.message : String(error);
  if (/RP ID/i.test(message)) return new PasskeyError('rp_id_mismatch', message);
  if (/not present/i.test(message)) return new PasskeyError('user_not_present', message);
  if (/counter/i.test(message)) return new PasskeyError('counter_regressed', message);
  if (/algorithm|alg\b/i.test(message)) return new PasskeyError('unsupported_algorithm', message);
  return new PasskeyError('verification_failed', message.slice(0, 200));
}

const COSE_KTY = 1;
const COSE_KTY_EC2 = 2;

/**
 * An EC2 (ES256) signature must be exactly one DER SEQUENCE: the library's ASN.1 parser ignores
 * bytes after it, which would let altered assertion bytes verify. Other key types are checked by
 * their verifier's fixed length.
 */
export function checkSignatureEncoding(publicKey: Uint8Array, signature: string): void {
  let kty: unknown;
  try {
    kty = isoCBOR.decodeFirst<Map<number, unknown>>(new Uint8Array(publicKey)).get(COSE_KTY);
  } catch {
    throw new PasskeyError('verification_failed', 'the stored public key does not decode');
  }
  if (kty !== COSE_KTY_EC2) return;
  const bytes = decodeBase64url(signature);
  if (!bytes) throw new PasskeyError('malformed', 'the signature is not base64url');
  const length = bytes[1] < 0x80 ? bytes[1] + 2 : bytes[1] === 0x81 ? bytes[2] + 3 : -1;
  if (bytes[0] !== 0x30 || length !== bytes.length) throw new PasskeyError('malformed', 'the signature is not one DER sequence');
}
