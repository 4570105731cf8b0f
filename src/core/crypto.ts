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

/** Derives a purpose-bound subkey from the root secret (done once at start-up, never per request). */
export function deriveKey(root: Buffer, purpose: string, length = 32): Buffer {
  return Buffer.from(hkdfSync('sha256', root, Buffer.alloc(0), `gatehouse:${purpose}`, length));
}
