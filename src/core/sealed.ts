import { createCipheriv, createDecipheriv } from 'node:crypto';
import { decodeBase64url } from './base64.js';
import { pooledRandomBytes } from './random.js';
import type { KeyRing } from './keys.js';

/**
 * AES-256-GCM under a purpose key derived from GATEHOUSE_SECRET, for secrets that must be read back
 * (TOTP seeds, stored responses): the newest key seals, every key of the ring opens, so rotating
 * the root secret keeps old values readable. `v1.<iv>.<ciphertext+tag>`, all base64url.
 * Opening decodes strictly (src/core/base64.ts): a sealed value has exactly one textual form, and
 * a part that is not canonical base64url is refused before any key is tried.
 */
export function seal(keys: KeyRing, purpose: string, plain: string): string {
  const iv = pooledRandomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keys.current(purpose), iv);
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final(), cipher.getAuthTag()]);
  return `v1.${iv.toString('base64url')}.${body.toString('base64url')}`;
}

/** The plain text of a sealed value, or undefined when it is not one or no key of the ring opens it. */
export function unseal(keys: KeyRing, purpose: string, sealed: string): string | undefined {
  const parts = sealed.split('.');
  if (parts.length !== 3 || parts[0] !== 'v1') return undefined;
  const iv = decodeBase64url(parts[1]);
  const body = decodeBase64url(parts[2]);
  if (iv?.length !== 12 || body === undefined || body.length < 16) return undefined;
  for (const key of keys.all(purpose)) {
    try {
      const decipher = createDecipheriv('aes-256-gcm', key, iv);
      decipher.setAuthTag(body.subarray(body.length - 16));
      return Buffer.concat([decipher.update(body.subarray(0, body.length - 16)), decipher.final()]).toString('utf8');
    } catch {
      // try the next (older) key
    }
  }
  return undefined;
}
