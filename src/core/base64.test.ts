import { randomBytes, randomInt } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { decodeBase64, decodeBase64url, isBase64url } from './base64.js';

const hex = (bytes: Buffer | undefined) => bytes?.toString('hex');

/** Random short texts over `alphabet`: `decode` accepts one exactly when Buffer re-encodes it to itself. */
function expectAcceptsExactlyRoundTrips(decode: (text: string) => Buffer | undefined, encoding: 'base64' | 'base64url', alphabet: string): void {
  for (let i = 0; i < 5000; i++) {
    const text = Array.from({ length: randomInt(0, 9) }, () => alphabet[randomInt(alphabet.length)]).join('');
    const roundTrips = Buffer.from(text, encoding).toString(encoding) === text;
    expect(decode(text) !== undefined, text).toBe(roundTrips);
  }
}

describe('strict base64url', () => {
  it('decodes what Buffer encodes, of every length', () => {
    for (let length = 0; length <= 40; length++) {
      const bytes = randomBytes(length);
      expect(hex(decodeBase64url(bytes.toString('base64url')))).toBe(bytes.toString('hex'));
    }
  });

  it('decodes the empty text to zero bytes', () => {
    expect(decodeBase64url('')).toEqual(Buffer.alloc(0));
    expect(isBase64url('')).toBe(true);
  });

  it('refuses a last character with unused bits set (the lenient decoder gives the same bytes)', () => {
    // 'QQ' is 'A'; 'QR'…'QZ' decode to 'A' as well. 'QUI' is 'AB'; 'QUJ'…'QUL' too.
    expect(Buffer.from('QR', 'base64url').toString()).toBe('A');
    expect(Buffer.from('QUJ', 'base64url').toString()).toBe('AB');
    expect(hex(decodeBase64url('QQ'))).toBe('41');
    for (const text of ['QR', 'QZ', 'Qf', 'QUJ', 'QUL']) expect(decodeBase64url(text)).toBeUndefined();
  });

  it('refuses characters outside the alphabet, padding, and a dangling character', () => {
    for (const text of ['QQ==', 'QUI=', 'Q Q', 'QQ\n', 'Q+Q', 'Q/Q', 'QQ.', 'Q!Q', 'QUJD\u00e9', 'Q', 'QUJDR', '=', '====']) {
      expect(decodeBase64url(text), text).toBeUndefined();
      expect(isBase64url(text), text).toBe(false);
    }
    // what the lenient decoder makes of some of them, silently
    expect(Buffer.from('Q!Q', 'base64url').length).toBe(1);
    expect(Buffer.from('QUJDR', 'base64url').toString()).toBe('ABC');
  });

  it('accepts exactly the texts that re-encode to themselves', () => {
    expectAcceptsExactlyRoundTrips(decodeBase64url, 'base64url', 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_=+/.');
  });
});

describe('strict base64', () => {
  it('decodes what Buffer encodes, of every length', () => {
    for (let length = 0; length <= 40; length++) {
      const bytes = randomBytes(length);
      expect(hex(decodeBase64(bytes.toString('base64')))).toBe(bytes.toString('hex'));
    }
    expect(decodeBase64('')).toEqual(Buffer.alloc(0));
  });

  it('refuses missing or extra padding, unused bits, the url alphabet, whitespace', () => {
    for (const text of ['QQ', 'QQ=', 'QQ===', 'QR==', 'QUJ=', 'QUI', 'Q-_A', 'QU I=', 'QUI=\n', '=QUI', 'Q=I=', 'QQ==QQ==', '====']) {
      expect(decodeBase64(text), text).toBeUndefined();
    }
    expect(hex(decodeBase64('QQ=='))).toBe('41');
    expect(hex(decodeBase64('+/8='))).toBe('fbff');
  });

  it('accepts exactly the texts that re-encode to themselves', () => {
    expectAcceptsExactlyRoundTrips(decodeBase64, 'base64', 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=-_ ');
  });
});
