import { CompactEncrypt, compactDecrypt, decodeProtectedHeader } from 'jose';
import { createHash } from 'node:crypto';
import { deflateRawSync, inflateRawSync } from 'node:zlib';
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
 */
export class FlowCookieCodec {
  private readonly keysByKid = new Map<string, Buffer>();
  private readonly currentKey: Buffer;
  private readonly currentKid: string;

  constructor(keys: KeyRing, private readonly budget = FLOW_COOKIE_BUDGET) {
    const all = keys.all(KEY_PURPOSE);
    for (const key of all) if (!this.keysByKid.has(kidOf(key))) this.keysByKid.set(kidOf(key), key);
    this.currentKey = all[0];
    this.currentKid = kidOf(all[0]);
  }

  private async seal(state: FlowCookieState): Promise<string> {
    const payload = deflateRawSync(Buffer.from(JSON.stringify(state), 'utf8'));
    return new CompactEncrypt(payload)
      .setProtectedHeader({ alg: 'dir', enc: 'A256GCM', kid: this.currentKid })
      .encrypt(this.currentKey);
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
    let kid: unknown;
    try {
      kid = decodeProtectedHeader(token).kid;
    } catch {
      throw decryptFailed();
    }
    const key = typeof kid === 'string' ? this.keysByKid.get(kid) : undefined;
    if (!key) throw decryptFailed();
    try {
      const { plaintext, protectedHeader } = await compactDecrypt(token, key, {
        keyManagementAlgorithms: ['dir'],
        contentEncryptionAlgorithms: ['A256GCM'],
      });
      if (protectedHeader.zip !== undefined) throw new Error('zip header not allowed');
      const json = inflateRawSync(plaintext, { maxOutputLength: MAX_INFLATED }).toString('utf8');
      const state: unknown = JSON.parse(json);
      if (!isState(state)) throw new Error('unexpected shape');
      return state;
    } catch {
      throw decryptFailed();
    }
  }
}
