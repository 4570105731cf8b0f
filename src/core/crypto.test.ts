import { describe, expect, it } from 'vitest';
import { constantTimeEqual, deriveKey, digestsEqual, hmacBase64Url, randomSecret, sha256Hex } from './crypto.js';

describe('crypto', () => {
  it('makes prefixed secrets of 256 random bits', () => {
    const secret = randomSecret('gh_ps_');
    expect(secret).toMatch(/^gh_ps_[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(secret.slice(6), 'base64url')).toHaveLength(32);
    expect(new Set(Array.from({ length: 1000 }, () => randomSecret('x_'))).size).toBe(1000);
  });

  it('hashes with SHA-256 and signs with HMAC-SHA-256 (known vectors)', () => {
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(sha256Hex('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    // RFC 4231 test case 2.
    expect(Buffer.from(hmacBase64Url(Buffer.from('Jefe'), 'what do ya want for nothing?'), 'base64url').toString('hex')).toBe(
      '5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843',
    );
  });

  it('compares strings exactly', () => {
    expect(constantTimeEqual('secret', 'secret')).toBe(true);
    expect(constantTimeEqual('', '')).toBe(true);
    for (const [a, b] of [
      ['secret', 'secreT'],
      ['secret', 'secret '],
      ['secret', 'secre'],
      ['', 'x'],
      ['ä', 'a'],
    ]) {
      expect(constantTimeEqual(a, b), `${a} vs ${b}`).toBe(false);
    }
  });

  it('compares digests exactly, whatever their lengths', () => {
    const digest = sha256Hex('token');
    expect(digestsEqual(digest, sha256Hex('token'))).toBe(true);
    expect(digestsEqual(digest, sha256Hex('token2'))).toBe(false);
    expect(digestsEqual(digest, digest.slice(0, -1))).toBe(false);
    expect(digestsEqual(digest, `${digest}0`)).toBe(false);
    expect(digestsEqual(digest, `${digest.slice(0, -1)}ä`)).toBe(false);
    expect(digestsEqual('', '')).toBe(true);
  });

  it('derives stable, purpose-separated subkeys', () => {
    const root = Buffer.from('root-secret-root-secret-root-secret!');
    const a = deriveKey(root, 'pagination');
    expect(a).toHaveLength(32);
    expect(deriveKey(root, 'pagination').equals(a)).toBe(true);
    expect(deriveKey(root, 'flow-cookie').equals(a)).toBe(false);
    expect(deriveKey(Buffer.from('another-root-another-root-another'), 'pagination').equals(a)).toBe(false);
    expect(deriveKey(root, 'pagination', 64)).toHaveLength(64);
  });
});
