import { createPrivateKey, generateKeyPairSync, X509Certificate } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { newKeyAndCertificate, selfSignedCertificate, serialFrom } from './cert.js';

describe('the SP certificate built with node:crypto', () => {
  const pem = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  const notBefore = new Date('2026-11-28T00:00:00Z');

  // The random serial's first bytes decide its DER shape; every shape must give a certificate.
  // A first byte of 0 before one under 0x80 was a malformed (non-minimal) integer: 1 in 256 keys failed.
  for (const first of [0x00, 0x01, 0x7f, 0x80, 0xff]) {
    for (const second of [0x00, 0x7f, 0x80, 0xff]) {
      it(`reads back with random bytes starting ${first.toString(16)} ${second.toString(16)}`, () => {
        const random = Buffer.alloc(16, 0x5a);
        random[0] = first;
        random[1] = second;
        const certificate = new X509Certificate(selfSignedCertificate(pem, 'sp.example', notBefore, 10, random));
        expect(certificate.serialNumber.toLowerCase()).toBe(serialFrom(random).toString('hex'));
        expect(certificate.subject).toBe('CN=sp.example');
        expect(certificate.validFrom).toBe('Nov 28 00:00:00 2026 GMT');
        expect(certificate.checkPrivateKey(createPrivateKey(pem))).toBe(true);
      });
    }
  }

  it('makes serials positive, minimal and 16 bytes long', () => {
    expect(serialFrom(Buffer.from('00'.repeat(16), 'hex'))[0]).toBe(0x01);
    expect(serialFrom(Buffer.from('ff'.repeat(16), 'hex'))[0]).toBe(0x7f);
    expect(serialFrom(Buffer.from('80'.repeat(16), 'hex'))[0]).toBe(0x01);
    expect(serialFrom(Buffer.alloc(16, 0x80))).toHaveLength(16);
  });

  it('a new key and its certificate go together', () => {
    const made = newKeyAndCertificate('sp.example', notBefore);
    expect(new X509Certificate(made.certificate).checkPrivateKey(createPrivateKey(made.privateKey))).toBe(true);
  });
});

