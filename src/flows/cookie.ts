import { createCipheriv, createDecipheriv, createHash, createSecretKey, type KeyObject } from 'node:crypto';
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { decodeBase64url } from '../core/base64.js';
import { pooledRandomBytes } from '../core/random.js';
import { AppError, MESSAGES } from '../core/errors.js';
import type { KeyRing } from '../core/keys.js';
import type { FlowCookieState, FlowEntry } from './state.js';

export const FLOW_COOKIE = '_zflow';
/** Browsers cap a cookie's name plus value at 4,096 bytes; we stay clearly below. */
export const FLOW_COOKIE_BUDGET = 4050;
/** An expired flow is kept this long so that it answers 410 `flow.expired` rather than 404. */
const EXPIRED_GRACE_MS = 60 * 60 * 1000;
/** Inflated payloads larger than this are refused (a deflate bomb would otherwise cost memory). */
const MAX_INFLATED = 64 * 1024;
const KEY_PURPOSE = 'flow-cookie';

function kidOf(key: Buffer): string {
  return createHash('sha256').update('kid:').update(key).digest('base64url').slice(0, 12);
}

const IV_BYTES = 12;
const TAG_BYTES = 16;

function decryptFailed(): AppError {
  return new AppError('enc_key.decrypt_failed', MESSAGES.decryptFailed);
}

function isState(value: unknown): value is FlowCookieState {
  if (typeof value !== 'object' || value === null) return false;
  const state = value as Partial<FlowCookieState>;
  if (state.v !== 1 || typeof state.flows !== 'object' || state.flows === null || Array.isArray(state.flows)) return false;
  return Object.values(state.flows).every(
    (entry: Partial<FlowEntry>) =>
      typeof entry === 'object' && entry !== null && typeof entry.p === 'string' && typeof entry.ss === 'string' &&
      typeof entry.ct === 'number' && typeof entry.ex === 'number' && Array.isArray(entry.f) && entry.f.length > 0 &&
      entry.f.every((frame) => typeof frame === 'object' && frame !== null && typeof frame.id === 'string' &&
        typeof frame.d === 'string' && typeof frame.s === 'string' && typeof frame.c === 'object' && frame.c !== null && Array.isArray(frame.h)),
  );
}

/**
 * `_zflow`: JWE compact (`dir` + `A256GCM`, `kid` header) of the deflated JSON state.
 * The newest key of the ring encrypts; every key of the ring decrypts (rotation).
 *
 * Sealed and opened with node:crypto directly (RFC 7516 §5.1 for `dir`: empty encrypted key,
 * 96-bit IV, the encoded protected header as AAD, 128-bit tag) rather than through jose, whose
 * Web Crypto path imports the key and queues a thread-pool job on every call: every flow
 * request opens and seals the cookie, and the thread pool is where argon2 runs. Tokens are the
 * same bytes either way (the tests decode each with the other).
 */
export class FlowCookieCodec {
  private readonly keysByKid = new Map<string, KeyObject>();
  private readonly currentKey: KeyObject;
  private readonly header: string;

  constructor(keys: KeyRing, private readonly budget = FLOW_COOKIE_BUDGET) {
    const all = keys.all(KEY_PURPOSE);
    for (const key of all) if (!this.keysByKid.has(kidOf(key))) this.keysByKid.set(kidOf(key), createSecretKey(key));
    this.currentKey = this.keysByKid.get(kidOf(all[0]))!;
    this.header = Buffer.from(JSON.stringify({ alg: 'dir', enc: 'A256GCM', kid: kidOf(all[0]) })).toString('base64url');
  }

  private async seal(state: FlowCookieState): Promise<string> {
    const payload = deflateRawSync(Buffer.from(JSON.stringify(state), 'utf8'));
    const iv = pooledRandomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.currentKey, iv, { authTagLength: TAG_BYTES });
    cipher.setAAD(Buffer.from(this.header, 'ascii'));
    const ciphertext = Buffer.concat([cipher.update(payload), cipher.final()]);
    return `${this.header}..${iv.toString('base64url')}.${ciphertext.toString('base64url')}.${cipher.getAuthTag().toString('base64url')}`;
  }

  /**
   * Authenticates and decrypts a compact token; throws on anything else. Every part must be
   * canonical base64url (src/core/base64.ts), so a cookie has one textual form: a variant the
   * lenient decoder would read as the same bytes is refused like any other garbage.
   */
  private open(token: string): Buffer {
    const parts = token.split('.');
    if (parts.length !== 5) throw new Error('not a compact JWE');
    const [header, encryptedKey, iv, ciphertext, tag] = parts;
    const headerBytes = decodeBase64url(header);
    const ivBytes = decodeBase64url(iv);
    const ciphertextBytes = decodeBase64url(ciphertext);
    const tagBytes = decodeBase64url(tag);
    if (encryptedKey !== '' || !headerBytes?.length || !ivBytes || !ciphertextBytes?.length || !tagBytes) throw new Error('malformed');
    const fields: unknown = JSON.parse(headerBytes.toString('utf8'));
    if (typeof fields !== 'object' || fields === null || Array.isArray(fields)) throw new Error('malformed header');
    const { alg, enc, kid, zip, crit } = fields as Record<string, unknown>;
    if (alg !== 'dir' || enc !== 'A256GCM' || zip !== undefined || crit !== undefined) throw new Error('unexpected header');
    const key = typeof kid === 'string' ? this.keysByKid.get(kid) : undefined;
    if (!key) throw new Error('unknown key');
    if (ivBytes.length !== IV_BYTES || tagBytes.length !== TAG_BYTES) throw new Error('bad iv or tag');
    const decipher = createDecipheriv('aes-256-gcm', key, ivBytes, { authTagLength: TAG_BYTES });
    decipher.setAAD(Buffer.from(header, 'ascii'));
    decipher.setAuthTag(tagBytes);
    return Buffer.concat([decipher.update(ciphertextBytes), decipher.final()]);
  }

  /**
   * Encrypts the state, first dropping flows expired long ago, then the oldest flows until the
   * cookie (name and value) fits the budget. The flow named `keep` is never dropped.
   */
  async encode(state: FlowCookieState, now: Date, keep?: string): Promise<string> {
    const flows = Object.entries(state.flows)
      .filter(([key, entry]) => key === keep || entry.ex + EXPIRED_GRACE_MS > now.getTime())
      .sort(([, a], [, b]) => a.ct - b.ct);
    for (;;) {
      const token = await this.seal({ v: 1, flows: Object.fromEntries(flows) });
      if (FLOW_COOKIE.length + 1 + token.length < this.budget) return token;
      const victim = flows.findIndex(([key]) => key !== keep);
      if (victim < 0) throw new AppError('req.too_large', 'The flow state does not fit its cookie.', { limit_bytes: this.budget });
      flows.splice(victim, 1);
    }
  }

  /** Decrypts a cookie; anything that is not our sealed state answers 400 `enc_key.decrypt_failed`. */
  async decode(token: string): Promise<FlowCookieState> {
    if (token.length === 0 || token.length > 8192) throw decryptFailed();
    try {
      const json = inflateRawSync(this.open(token), { maxOutputLength: MAX_INFLATED }).toString('utf8');
      const state: unknown = JSON.parse(json);
      if (!isState(state)) throw new Error('unexpected shape');
      return state;
    } catch {
      throw decryptFailed();
    }
  }
}
