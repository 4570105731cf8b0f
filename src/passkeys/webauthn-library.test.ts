import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { generateKeyPairSync, randomBytes, sign, webcrypto, type KeyObject } from 'node:crypto';
import { verifyRegistrationResponse } from '@simplewebauthn/server';
import { describe, expect, it } from 'vitest';
import { ROOT, sourceFiles } from '../../test/helpers/import-graph.js';
import { SoftwareAuthenticator } from '../../test/helpers/webauthn-authenticator.js';
import { importedKeys, libraryCrypto, libraryUsesNodeCrypto, verifyAuthenticationResponse } from './webauthn-library.js';

const subtle = webcrypto.subtle;

interface Seam {
  getWebCrypto(): Promise<unknown>;
  _getWebCryptoInternals: { setCachedCrypto(crypto: unknown): void };
}

async function librarySeam(): Promise<Seam> {
  const entry = createRequire(import.meta.url).resolve('@simplewebauthn/server');
  return (await import(pathToFileURL(path.join(path.dirname(entry), '..', 'esm', 'helpers', 'iso', 'isoCrypto', 'getWebCrypto.js')).href)) as Seam;
}

const origin = 'https://login.example.test';
const rpId = 'login.example.test';

async function registeredAuthenticator(algorithm: 'ES256' | 'EdDSA') {
  const authenticator = new SoftwareAuthenticator({ algorithm });
  const options = { challenge: 'cmVnaXN0ZXI', rp: { id: rpId, name: 'x' }, user: { id: 'dXNlcg', name: 'u', displayName: 'u' }, pubKeyCredParams: [{ type: 'public-key', alg: algorithm === 'ES256' ? -7 : -8 }] };
  const registration = await verifyRegistrationResponse({
    response: await authenticator.create(options as never, { origin }),
    expectedChallenge: 'cmVnaXN0ZXI',
    expectedOrigin: origin,
    expectedRPID: rpId,
    requireUserVerification: false,
  });
  return { authenticator, credential: registration.registrationInfo!.credential };
}

type Registered = Awaited<ReturnType<typeof registeredAuthenticator>>;

async function assert(algorithm: 'ES256' | 'EdDSA' | Registered, tamper?: (signature: Buffer) => void) {
  const { authenticator, credential } = typeof algorithm === 'string' ? await registeredAuthenticator(algorithm) : algorithm;
  const response = await authenticator.get({ challenge: 'c2lnbmlu', rpId, allowCredentials: [] } as never, { origin });
  if (tamper) {
    const signature = Buffer.from(response.response.signature, 'base64url');
    tamper(signature);
    response.response.signature = signature.toString('base64url');
  }
  return verifyAuthenticationResponse({ response, expectedChallenge: 'c2lnbmlu', expectedOrigin: origin, expectedRPID: rpId, credential, requireUserVerification: false });
}

describe('the WebAuthn library on node:crypto', () => {
  it('hands the library node:crypto through its live seam', async () => {
    expect(libraryUsesNodeCrypto).toBe(true);
    const seam = await librarySeam();
    expect(await seam.getWebCrypto()).toBe(libraryCrypto);

    // The seam reached by file is the one the package's entry point reads: calls land here.
    const calls: string[] = [];
    const counting = {
      ...libraryCrypto,
      subtle: new Proxy(libraryCrypto.subtle, {
        get(target, property) {
          const value: unknown = Reflect.get(target, property);
          return typeof value === 'function' ? (...args: unknown[]) => (calls.push(String(property)), value(...args)) : value;
        },
      }),
    };
    const registered = await registeredAuthenticator('ES256');
    seam._getWebCryptoInternals.setCachedCrypto(counting);
    try {
      expect((await assert(registered)).verified).toBe(true);
    } finally {
      seam._getWebCryptoInternals.setCachedCrypto(libraryCrypto);
    }
    expect(calls.sort()).toEqual(['digest', 'digest', 'importKey', 'verify']);
  });

  it('is the only production module that calls the library (types and helpers aside)', () => {
    const callers = sourceFiles().filter((file) => {
      const text = readFileSync(path.join(ROOT, file), 'utf8');
      return /^import\s+(?!type\b)[^;]*from\s+'@simplewebauthn\/server'/m.test(text) || /^export\s+(?!type\b)[^;]*from\s+'@simplewebauthn\/server'/m.test(text);
    });
    expect(callers).toEqual(['src/passkeys/webauthn-library.ts']);
  });

  it('verifies ES256 and EdDSA assertions and refuses altered signatures', async () => {
    expect((await assert('ES256')).verified).toBe(true);
    expect((await assert('EdDSA')).verified).toBe(true);
    // a flipped bit inside r (after the DER header) must not verify
    expect((await assert('ES256', (signature) => void (signature[10] ^= 1))).verified).toBe(false);
    expect((await assert('EdDSA', (signature) => void (signature[5] ^= 1))).verified).toBe(false);
  });
});

type Outcome = boolean | 'refused';

async function outcome(run: () => Promise<boolean>): Promise<Outcome> {
  try {
    return await run();
  } catch {
    return 'refused';
  }
}

/** The same import and verify through WebCrypto and through `libraryCrypto` must agree. */
async function bothWays(jwk: webcrypto.JsonWebKey, importAlgorithm: object, verifyAlgorithm: object, signature: Uint8Array, data: Uint8Array): Promise<[Outcome, Outcome]> {
  const run = (crypto: { importKey: typeof subtle.importKey; verify: typeof subtle.verify }) =>
    outcome(async () => crypto.verify(verifyAlgorithm as never, await crypto.importKey('jwk', jwk, importAlgorithm as never, false, ['verify']), signature, data));
  return [await run(subtle), await run(libraryCrypto.subtle as typeof subtle)];
}

interface Case {
  name: string;
  keys: () => { privateKey: KeyObject; publicKey: KeyObject };
  importAlgorithm: object;
  verifyAlgorithm: object;
  sign: (data: Uint8Array, key: KeyObject) => Uint8Array;
}

const cases: Case[] = [
  ...(
    [
      ['P-256', 'SHA-256', 'sha256'],
      ['P-384', 'SHA-384', 'sha384'],
      ['P-521', 'SHA-512', 'sha512'],
      ['P-256', 'SHA-512', 'sha512'],
    ] as const
  ).map(([curve, hash, nodeHash]) => ({
    name: `ECDSA ${curve} ${hash}`,
    keys: () => generateKeyPairSync('ec', { namedCurve: curve }),
    importAlgorithm: { name: 'ECDSA', namedCurve: curve },
    verifyAlgorithm: { name: 'ECDSA', hash: { name: hash } },
    sign: (data: Uint8Array, key: KeyObject) => sign(nodeHash, data, { key, dsaEncoding: 'ieee-p1363' }),
  })),
  { name: 'Ed25519', keys: () => generateKeyPairSync('ed25519'), importAlgorithm: { name: 'Ed25519' }, verifyAlgorithm: { name: 'Ed25519' }, sign: (data, key) => sign(null, data, key) },
  ...(['SHA-256', 'SHA-384', 'SHA-512'] as const).map((hash) => ({
    name: `RSASSA-PKCS1-v1_5 ${hash}`,
    keys: () => generateKeyPairSync('rsa', { modulusLength: 2048 }),
    importAlgorithm: { name: 'RSASSA-PKCS1-v1_5', hash: { name: hash } },
    verifyAlgorithm: { name: 'RSASSA-PKCS1-v1_5' },
    sign: (data: Uint8Array, key: KeyObject) => sign(hash.replace('-', '').toLowerCase(), data, key),
  })),
];

describe('libraryCrypto agrees with WebCrypto', () => {
  it.each(cases)('$name: a good signature, altered data, an altered or short signature', async (c) => {
    const { privateKey, publicKey } = c.keys();
    const jwk = publicKey.export({ format: 'jwk' }) as webcrypto.JsonWebKey;
    const data = randomBytes(100);
    const signature = c.sign(data, privateKey);
    const altered = Buffer.from(data);
    altered[0] ^= 1;
    const badSignature = Buffer.from(signature);
    badSignature[badSignature.length - 1] ^= 1;
    expect(await bothWays(jwk, c.importAlgorithm, c.verifyAlgorithm, signature, data)).toEqual([true, true]);
    // The JWK as the library builds it: `ext` always, `alg` for RSA (and a wrong `alg` refused by both).
    const libraryShaped = { ...jwk, ext: false, ...(jwk.kty === 'RSA' ? { alg: `RS${c.name.slice(-3)}` } : {}) };
    expect(await bothWays(libraryShaped, c.importAlgorithm, c.verifyAlgorithm, signature, data)).toEqual([true, true]);
    if (jwk.kty === 'RSA') expect(await bothWays({ ...jwk, alg: c.name.endsWith('256') ? 'RS512' : 'RS256' }, c.importAlgorithm, c.verifyAlgorithm, signature, data)).toEqual(['refused', 'refused']);
    for (const [sig, signed] of [
      [signature, altered],
      [badSignature, data],
      [signature.subarray(0, signature.length - 1), data],
      [new Uint8Array(0), data],
    ] as const) {
      const [web, node] = await bothWays(jwk, c.importAlgorithm, c.verifyAlgorithm, sig, signed);
      expect(web === true).toBe(false);
      expect(node === true).toBe(false);
    }
  });

  it('refuses what WebCrypto refuses: a point off the curve, a key of another curve or kind', async () => {
    const offCurve = { kty: 'EC', crv: 'P-256', x: Buffer.alloc(32, 1).toString('base64url'), y: Buffer.alloc(32, 2).toString('base64url') };
    const p384 = generateKeyPairSync('ec', { namedCurve: 'P-384' }).publicKey.export({ format: 'jwk' }) as webcrypto.JsonWebKey;
    const ed = generateKeyPairSync('ed25519').publicKey.export({ format: 'jwk' }) as webcrypto.JsonWebKey;
    const ecdsa256 = { name: 'ECDSA', namedCurve: 'P-256' };
    for (const [jwk, algorithm] of [
      [offCurve, ecdsa256],
      [p384, ecdsa256],
      [ed, ecdsa256],
      [p384, { name: 'Ed25519' }],
    ] as const) {
      await expect(libraryCrypto.subtle.importKey('jwk', jwk, algorithm, false, ['verify'])).rejects.toThrow();
      await expect(subtle.importKey('jwk', jwk, algorithm, false, ['verify'])).rejects.toThrow();
    }
  });

  it('digests as WebCrypto does, views with an offset included', async () => {
    const backing = randomBytes(300);
    const view = new Uint8Array(backing.buffer, backing.byteOffset + 7, 200);
    for (const hash of ['SHA-1', 'SHA-256', 'SHA-384', 'SHA-512', { name: 'SHA-256' }]) {
      const ours = new Uint8Array(await libraryCrypto.subtle.digest(hash, view));
      expect(Buffer.from(ours).toString('hex')).toBe(Buffer.from(await subtle.digest(hash, view)).toString('hex'));
    }
  });

  it('leaves every other algorithm to WebCrypto', async () => {
    const jwk = generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey.export({ format: 'jwk' }) as webcrypto.JsonWebKey;
    const pss = await libraryCrypto.subtle.importKey('jwk', jwk, { name: 'RSA-PSS', hash: { name: 'SHA-256' } }, false, ['verify']);
    expect(Object.getPrototypeOf(pss).constructor.name).toBe('CryptoKey');
    const values = libraryCrypto.getRandomValues(new Uint8Array(16));
    expect(values.some((byte) => byte !== 0)).toBe(true);
  });
});

/** The KeyObject behind a key `libraryCrypto` imported. */
function keyObjectOf(key: unknown): KeyObject {
  const [symbol] = Object.getOwnPropertySymbols(key);
  return (key as Record<symbol, KeyObject>)[symbol!]!;
}

describe('the imported public keys', () => {
  const ecdsa256 = { name: 'ECDSA', namedCurve: 'P-256' };
  const p256 = () => ({ ...(generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey.export({ format: 'jwk' }) as webcrypto.JsonWebKey), ext: false });

  it('are imported once per key material: a second import of an equal JWK (another object) is the same KeyObject', async () => {
    const jwk = p256();
    const first = await libraryCrypto.subtle.importKey('jwk', jwk, ecdsa256, false, ['verify']);
    expect(importedKeys.has(jwk)).toBe(true);
    const second = await libraryCrypto.subtle.importKey('jwk', { ...jwk }, ecdsa256, false, ['verify']);
    expect(keyObjectOf(second)).toBe(keyObjectOf(first));
    // another key is another entry, even with every other field equal
    const other = await libraryCrypto.subtle.importKey('jwk', p256(), ecdsa256, false, ['verify']);
    expect(keyObjectOf(other)).not.toBe(keyObjectOf(first));
  });

  it('verify a credential again with the same results, and never confuse two keys under one credential id', async () => {
    for (const algorithm of ['ES256', 'EdDSA'] as const) {
      const a = await registeredAuthenticator(algorithm);
      const b = await registeredAuthenticator(algorithm);
      // twice each: the second verification answers from the imported key
      for (let round = 0; round < 2; round++) {
        expect((await assert(a)).verified).toBe(true);
        expect((await assert(a, (signature) => void (signature[signature.length - 3] ^= 1))).verified).toBe(false);
        expect((await assert(b)).verified).toBe(true);
      }
      // A's credential id with B's key: the key decides, not the id. A's assertions are refused
      // under it, B's verify under it, and A's still verify under A's own key afterwards.
      const swapped = { authenticator: a.authenticator, credential: { ...a.credential, publicKey: b.credential.publicKey } };
      expect((await assert(swapped)).verified).toBe(false);
      const bUnderA = { authenticator: b.authenticator, credential: { ...b.credential, id: a.credential.id } };
      expect((await assert(bUnderA)).verified).toBe(true);
      expect((await assert(a)).verified).toBe(true);
    }
  });

  it('never keep a refused key: a point off the curve is refused on every attempt', async () => {
    const offCurve = { kty: 'EC', crv: 'P-256', x: Buffer.alloc(32, 3).toString('base64url'), y: Buffer.alloc(32, 4).toString('base64url'), ext: false };
    const before = importedKeys.size;
    for (let attempt = 0; attempt < 2; attempt++) {
      await expect(libraryCrypto.subtle.importKey('jwk', offCurve, ecdsa256, false, ['verify'])).rejects.toThrow();
    }
    expect(importedKeys.has(offCurve)).toBe(false);
    expect(importedKeys.size).toBe(before);
    // a good key's x with another y is off the curve too, however the good key was imported before
    const good = p256();
    await libraryCrypto.subtle.importKey('jwk', good, ecdsa256, false, ['verify']);
    const mixed = { ...good, y: offCurve.y };
    await expect(libraryCrypto.subtle.importKey('jwk', mixed, ecdsa256, false, ['verify'])).rejects.toThrow();
    expect(importedKeys.has(mixed)).toBe(false);
  });

  it('keep at most their bound, the oldest going first', async () => {
    const ed25519 = { name: 'Ed25519' };
    const jwks = Array.from({ length: importedKeys.max + 1 }, () => generateKeyPairSync('ed25519').publicKey.export({ format: 'jwk' }) as webcrypto.JsonWebKey);
    for (const jwk of jwks) await libraryCrypto.subtle.importKey('jwk', jwk, ed25519, false, ['verify']);
    expect(importedKeys.size).toBe(importedKeys.max);
    expect(importedKeys.has(jwks[0]!)).toBe(false);
    expect(importedKeys.has(jwks[1]!)).toBe(true);
    expect(importedKeys.has(jwks.at(-1)!)).toBe(true);
  });
});
