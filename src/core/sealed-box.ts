import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { KeyRing } from './keys.js';

/**
 * Values encrypted at rest under a subkey of GATEHOUSE_SECRET (AES-256-GCM, a fresh 96-bit IV per
 * value): `v1.<iv>.<ciphertext+tag>`, base64url. Opening tries every configured root, newest
 * first, so a value sealed before a secret rotation still opens while the old secret is listed.
 */
export class SealedBox {
  constructor(
    private readonly keys: KeyRing,
    private readonly purpose: string,
  ) {}

  seal(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.keys.current(this.purpose), iv);
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final(), cipher.getAuthTag()]);
    return `v1.${iv.toString('base64url')}.${body.toString('base64url')}`;
  }

  /** The plain text, or undefined when no configured key opens it (tampered, or sealed under a retired secret). */
  open(sealed: string): string | undefined {
    const [version, ivText, bodyText] = sealed.split('.');
    if (version !== 'v1' || !ivText || !bodyText) return undefined;
    const iv = Buffer.from(ivText, 'base64url');
    const body = Buffer.from(bodyText, 'base64url');
    if (iv.length !== 12 || body.length < 16) return undefined;
    for (const key of this.keys.all(this.purpose)) {
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
}
