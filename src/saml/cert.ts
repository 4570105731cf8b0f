import { createPrivateKey, createPublicKey, generateKeyPairSync, randomBytes, sign, X509Certificate } from 'node:crypto';

/*
 * A self-signed X.509 certificate (RSA, SHA-256) built with node:crypto alone: the SP's
 * encryption certificate in its metadata (an IdP encrypts assertions to it). Only the few DER
 * shapes a certificate needs are written here.
 */

function length(n: number): Buffer {
  if (n < 0x80) return Buffer.from([n]);
  const bytes: number[] = [];
  for (let rest = n; rest > 0; rest >>= 8) bytes.unshift(rest & 0xff);
  return Buffer.from([0x80 | bytes.length, ...bytes]);
}

const tlv = (tag: number, ...content: Buffer[]): Buffer => {
  const body = Buffer.concat(content);
  return Buffer.concat([Buffer.from([tag]), length(body.length), body]);
};
const seq = (...items: Buffer[]) => tlv(0x30, ...items);
const set = (...items: Buffer[]) => tlv(0x31, ...items);

function oid(dotted: string): Buffer {
  const parts = dotted.split('.').map(Number);
  const bytes = [parts[0] * 40 + parts[1]];
  for (const part of parts.slice(2)) {
    const chunk = [part & 0x7f];
    for (let rest = part >> 7; rest > 0; rest >>= 7) chunk.unshift((rest & 0x7f) | 0x80);
    bytes.push(...chunk);
  }
  return tlv(0x06, Buffer.from(bytes));
}

function time(date: Date): Buffer {
  const iso = date.toISOString().replace(/[-:T]/g, '').slice(0, 14) + 'Z';
  // UTCTime until 2049, GeneralizedTime after (RFC 5280 §4.1.2.5)
  return date.getUTCFullYear() < 2050 ? tlv(0x17, Buffer.from(iso.slice(2))) : tlv(0x18, Buffer.from(iso));
}

const SHA256_WITH_RSA = seq(oid('1.2.840.113549.1.1.11'), Buffer.from([0x05, 0x00]));
const name = (commonName: string) => seq(set(seq(oid('2.5.4.3'), tlv(0x0c, Buffer.from(commonName, 'utf8')))));

/**
 * A positive serial number's DER content from random bytes: the top bit cleared (a set one would
 * read as negative), and a first byte never 0 (DER integers are minimal: a leading zero byte
 * before a byte under 0x80 is malformed, and OpenSSL refused about one certificate in 256).
 */
export function serialFrom(random: Buffer): Buffer {
  const serial = Buffer.from(random);
  serial[0] = serial[0]! & 0x7f || 0x01;
  return serial;
}

/** A self-signed certificate for `privateKeyPem` (RSA), valid from `notBefore` for `days`, as PEM. */
export function selfSignedCertificate(privateKeyPem: string, commonName: string, notBefore: Date, days: number, random = randomBytes(16)): string {
  const key = createPrivateKey(privateKeyPem);
  const spki = createPublicKey(key).export({ type: 'spki', format: 'der' });
  const serial = serialFrom(random);
  const tbs = seq(
    tlv(0xa0, tlv(0x02, Buffer.from([2]))),
    tlv(0x02, serial),
    SHA256_WITH_RSA,
    name(commonName),
    seq(time(notBefore), time(new Date(notBefore.getTime() + days * 86_400_000))),
    name(commonName),
    spki,
  );
  const signature = sign('sha256', tbs, key);
  const der = seq(tbs, SHA256_WITH_RSA, tlv(0x03, Buffer.from([0]), signature));
  return new X509Certificate(der).toString();
}

/** A new RSA key (PKCS#8 PEM) with its self-signed certificate. */
export function newKeyAndCertificate(commonName: string, now: Date, days = 3650): { privateKey: string; certificate: string } {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  return { privateKey: pem, certificate: selfSignedCertificate(pem, commonName, now, days) };
}

/** The base64 body of a PEM certificate (what metadata's `ds:X509Certificate` holds). */
export const certificateBody = (pem: string): string => pem.replace(/-----(BEGIN|END) CERTIFICATE-----/g, '').replace(/\s+/g, '');

/** A metadata `ds:X509Certificate` body as PEM, when it is a certificate node:crypto reads; else undefined. */
export function certificatePem(body: string): string | undefined {
  const clean = body.replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/=]{100,20000}$/.test(clean)) return undefined;
  try {
    return new X509Certificate(Buffer.from(clean, 'base64')).toString();
  } catch {
    return undefined;
  }
}
