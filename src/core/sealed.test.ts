import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { nonCanonicalTwin } from './base64-test-kit.js';
import { KeyRing } from './keys.js';
import { seal, unseal } from './sealed.js';

describe('sealed values', () => {
  const oldRoot = randomBytes(32);
  const newRoot = randomBytes(32);

  it('opens what it sealed, under the purpose it was sealed for only', () => {
    const keys = new KeyRing([newRoot]);
    const sealed = seal(keys, 'totp-secrets', 'JBSWY3DPEHPK3PXP');
    expect(sealed).toMatch(/^v1\.[\w-]+\.[\w-]+$/);
    expect(sealed).not.toContain('JBSWY3DPEHPK3PXP');
    expect(unseal(keys, 'totp-secrets', sealed)).toBe('JBSWY3DPEHPK3PXP');
    expect(unseal(keys, 'other-purpose', sealed)).toBeUndefined();
    expect(seal(keys, 'totp-secrets', 'JBSWY3DPEHPK3PXP')).not.toBe(sealed);
  });

  it('refuses tampered or malformed values, and keeps old values readable after rotation', () => {
    const before = new KeyRing([oldRoot]);
    const sealed = seal(before, 'p', 'secret');
    const [version, iv, body] = sealed.split('.');
    const flipped = Buffer.from(body, 'base64url');
    flipped[0] ^= 1;
    for (const bad of [`${version}.${iv}.${flipped.toString('base64url')}`, 'v2.a.b', 'v1..', '', 'v1.AAAA.AAAA']) expect(unseal(before, 'p', bad)).toBeUndefined();
    const rotated = new KeyRing([newRoot, oldRoot]);
    expect(unseal(rotated, 'p', sealed)).toBe('secret');
    expect(unseal(new KeyRing([newRoot]), 'p', sealed)).toBeUndefined();
  });

  it('opens one textual form only: non-canonical base64url, padding, stray characters or a fourth part are refused', () => {
    const keys = new KeyRing([newRoot]);
    const sealed = seal(keys, 'p', 'secret'); // 6 + 16 bytes: the body's last character has 4 unused bits
    const [version, iv, body] = sealed.split('.');
    // the lenient decoder reads the twin as the very same bytes, so the tag would still verify
    for (const bad of [
      `${version}.${iv}.${nonCanonicalTwin(body)}`,
      `${version}.${iv}.${body}==`,
      `${version}.${iv}=.${body}`,
      `${version}.${iv}.${body.slice(0, 5)}!${body.slice(5)}`,
      `${version}.${iv}.${body.slice(0, 5)} ${body.slice(5)}`,
      `${version}.${iv}.${body}.`,
      `${version}.${iv}.${body}.more`,
    ]) {
      expect(Buffer.from(bad.split('.')[2], 'base64url').length).toBeGreaterThanOrEqual(16);
      expect(unseal(keys, 'p', bad), bad).toBeUndefined();
    }
    expect(unseal(keys, 'p', sealed)).toBe('secret');
  });
});
