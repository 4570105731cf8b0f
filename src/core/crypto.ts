import { createHash, createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import { pooledRandomBytes } from './random.js';

/** An opaque secret with a kind prefix (e.g. `gh_ps_`), 256 bits of randomness. */
export function randomSecret(prefix: string): string {
  return `${prefix}${pooledRandomBytes(32).toString('base64url')}`;
}

export function sha256Hex(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('hex');
}

export function hmacBase64Url(key: Buffer, value: string): string {
  return createHmac('sha256', key).update(value, 'utf8').digest('base64url');
}

/** Compares two strings without leaking where they differ. */
export function constantTimeEqual(a: string, b: string): boolean {
  const left = createHash('sha256').update(a).digest();
  const right = createHash('sha256').update(b).digest();
  return timingSafeEqual(left, right) && a.length === b.length;
}

/**
 * Compares two digests (hex SHA-256, HMACs): values whose length is public, so unlike
 * `constantTimeEqual` nothing is hashed again. A session check compared its token's digest with
 * the row's by hashing both once more: two of its three SHA-256 per request.
 */
export function digestsEqual(a: string, b: string): boolean {
  const left = Buffer.from(a, 'utf8');
  const right = Buffer.from(b, 'utf8');
  return left.length === right.length && timingSafeEqual(left, right);
}

/** Derives a purpose-bound subkey from the root secret (done once at start-up, never per request). */
export function deriveKey(root: Buffer, purpose: string, length = 32): Buffer {
  return Buffer.from(hkdfSync('sha256', root, Buffer.alloc(0), `gatehouse:${purpose}`, length));
}
