import { createHash, createPublicKey, verify, webcrypto, type JsonWebKey, type KeyObject } from 'node:crypto';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

/**
 * @simplewebauthn/server does all its crypto through WebCrypto. Per assertion that is two SHA-256
 * digests and a verify, each a hop to libuv's thread pool and back, and a JWK import whose key check
 * multiplies the point by the curve's order: 0.80-0.93 ms of CPU per verified assertion on this
 * project's bench machine, where node:crypto's synchronous calls on the same key take 0.46-0.59 ms
 * (docs/performance.md, "The passkey journey"). The imported public keys are kept (bounded, see
 * `importedKey`), so a credential that signs in again skips the JWK import and its point check.
 *
 * The library reads its Crypto once through one seam of its own (`_getWebCryptoInternals`, which its
 * own tests use to substitute one); the package does not export it, so it is reached by file.
 * The Crypto handed over answers the digests, the JWK imports and the verifies of the algorithms
 * Gatehouse offers (ES256/384/512, EdDSA, RS256/384/512) with node:crypto, and passes every other
 * call (other algorithms, attestation formats' keys, random values) to WebCrypto unchanged. Should a
 * later release move the seam, the library keeps its own WebCrypto (slower, equally correct) and the
 * test of this module fails.
 */

const HASHES: Readonly<Record<string, string>> = { 'SHA-1': 'sha1', 'SHA-256': 'sha256', 'SHA-384': 'sha384', 'SHA-512': 'sha512' };
const RSA_HASHES = new Set(['SHA-256', 'SHA-384', 'SHA-512']);
const CURVES = new Set(['P-256', 'P-384', 'P-521']);

const NODE_KEY = Symbol('node:crypto public key');

interface NamedAlgorithm {
  name: string;
  namedCurve?: string;
  hash?: string | { name: string };
}

/** What `importKey` answers for an algorithm it maps: a CryptoKey's public fields and the KeyObject. */
interface NodeVerifyKey {
  readonly type: 'public';
  readonly extractable: false;
  readonly algorithm: NamedAlgorithm;
  readonly usages: readonly string[];
  readonly [NODE_KEY]: KeyObject;
}

const subtle = webcrypto.subtle;

/** How many imported public keys `importedKey` keeps; the oldest goes first. */
const IMPORTED_KEYS_MAX = 1_000;

/** Imported public keys by the JWK's text: the key material itself, never a credential's id. */
const imported = new Map<string, KeyObject>();

/**
 * The KeyObject of a public JWK, imported once per process. The JWK the library builds carries the
 * stored COSE key's coordinates (or modulus and exponent) as base64url of their exact bytes, so its
 * JSON text is the key: another key, under the same credential id or not, has another text and
 * never shares an entry. A KeyObject never changes, so an entry cannot be stale; a stored key is
 * never rewritten (a new key is a new credential), and a deleted credential's entry only ages out
 * unused. A key `createPublicKey` refuses (a point off the curve, a malformed field) throws before
 * anything is stored, so it is refused again on every attempt.
 */
function importedKey(jwk: JsonWebKey): KeyObject {
  const text = JSON.stringify(jwk);
  let keyObject = imported.get(text);
  if (keyObject === undefined) {
    keyObject = createPublicKey({ key: jwk, format: 'jwk' });
    if (imported.size >= IMPORTED_KEYS_MAX) imported.delete(imported.keys().next().value as string);
    imported.set(text, keyObject);
  }
  return keyObject;
}

/** What the tests read of the imported keys: the bound, the count, and whether a JWK is among them. */
export const importedKeys = {
  max: IMPORTED_KEYS_MAX,
  get size(): number {
    return imported.size;
  },
  has: (jwk: object): boolean => imported.has(JSON.stringify(jwk)),
};

function nameOf(algorithm: string | { name?: unknown } | undefined): string | undefined {
  if (typeof algorithm === 'string') return algorithm;
  return typeof algorithm?.name === 'string' ? algorithm.name : undefined;
}

function hashOf(algorithm: NamedAlgorithm): string | undefined {
  const name = nameOf(algorithm.hash);
  return name === undefined ? undefined : name.toUpperCase();
}

/** The JWK's own fields must agree with the algorithm asked for, as WebCrypto requires. */
function mapsTo(keyData: Record<string, unknown>, algorithm: NamedAlgorithm): boolean {
  switch (algorithm.name) {
    case 'ECDSA':
      return keyData.kty === 'EC' && CURVES.has(String(algorithm.namedCurve)) && keyData.crv === algorithm.namedCurve;
    case 'Ed25519':
      return keyData.kty === 'OKP' && keyData.crv === 'Ed25519';
    case 'RSASSA-PKCS1-v1_5':
      // WebCrypto refuses a JWK whose `alg` names another hash; such a key is left to it.
      return keyData.kty === 'RSA' && RSA_HASHES.has(hashOf(algorithm) ?? '') && (keyData.alg === undefined || keyData.alg === `RS${hashOf(algorithm)!.slice(4)}`);
    default:
      return false;
  }
}

function isNodeKey(key: unknown): key is NodeVerifyKey {
  return typeof key === 'object' && key !== null && NODE_KEY in key;
}

function bytesOf(data: webcrypto.BufferSource): Uint8Array {
  if (ArrayBuffer.isView(data)) return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  return new Uint8Array(data);
}

async function digest(algorithm: webcrypto.AlgorithmIdentifier, data: webcrypto.BufferSource): Promise<ArrayBuffer> {
  const hash = HASHES[nameOf(algorithm)?.toUpperCase() ?? ''];
  if (hash === undefined) return subtle.digest(algorithm, data);
  const digested = createHash(hash).update(bytesOf(data)).digest();
  return digested.buffer.slice(digested.byteOffset, digested.byteOffset + digested.byteLength) as ArrayBuffer;
}

async function importKey(format: string, keyData: unknown, algorithm: webcrypto.AlgorithmIdentifier, extractable: boolean, usages: readonly string[]): Promise<unknown> {
  const named = (typeof algorithm === 'string' ? { name: algorithm } : algorithm) as NamedAlgorithm;
  const verifyOnly = usages.length === 1 && usages[0] === 'verify' && !extractable;
  if (format !== 'jwk' || !verifyOnly || typeof keyData !== 'object' || keyData === null || !mapsTo(keyData as Record<string, unknown>, named)) {
    return subtle.importKey(format as never, keyData as never, algorithm, extractable, usages as webcrypto.KeyUsage[]);
  }
  // createPublicKey refuses a point off the curve as WebCrypto does; on these prime-order curves a
  // point on the curve has the group's order, so WebCrypto's extra multiplication finds nothing more.
  const keyObject = importedKey(keyData as JsonWebKey);
  const key: NodeVerifyKey = { type: 'public', extractable: false, algorithm: named, usages: ['verify'], [NODE_KEY]: keyObject };
  return key;
}

async function verifySignature(algorithm: webcrypto.AlgorithmIdentifier, key: unknown, signature: webcrypto.BufferSource, data: webcrypto.BufferSource): Promise<boolean> {
  if (!isNodeKey(key)) return subtle.verify(algorithm, key as webcrypto.CryptoKey, signature, data);
  const named = (typeof algorithm === 'string' ? { name: algorithm } : algorithm) as NamedAlgorithm;
  if (named.name !== key.algorithm.name) throw new TypeError(`the key is for ${key.algorithm.name}, not ${named.name}`);
  const signed = bytesOf(data);
  const sig = bytesOf(signature);
  switch (named.name) {
    case 'ECDSA': {
      const hash = HASHES[hashOf(named) ?? ''];
      if (hash === undefined) throw new TypeError('ECDSA needs a known hash');
      return verify(hash, signed, { key: key[NODE_KEY], dsaEncoding: 'ieee-p1363' }, sig);
    }
    case 'Ed25519':
      return verify(null, signed, key[NODE_KEY], sig);
    default:
      return verify(HASHES[hashOf(key.algorithm)!], signed, key[NODE_KEY], sig);
  }
}

/** A Crypto that answers the library's hot calls with node:crypto and every other with WebCrypto. */
export const libraryCrypto = {
  getRandomValues: <T extends ArrayBufferView | null>(array: T): T => webcrypto.getRandomValues(array as never) as T,
  randomUUID: () => webcrypto.randomUUID(),
  subtle: new Proxy(subtle, {
    get(target, property) {
      if (property === 'digest') return digest;
      if (property === 'importKey') return importKey;
      if (property === 'verify') return verifySignature;
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  }),
};

async function handOver(): Promise<boolean> {
  try {
    const entry = createRequire(import.meta.url).resolve('@simplewebauthn/server');
    const seam = path.join(path.dirname(entry), '..', 'esm', 'helpers', 'iso', 'isoCrypto', 'getWebCrypto.js');
    const internals = (await import(pathToFileURL(seam).href)) as { _getWebCryptoInternals?: { setCachedCrypto?: (crypto: unknown) => void } };
    const setCachedCrypto = internals._getWebCryptoInternals?.setCachedCrypto;
    if (typeof setCachedCrypto !== 'function') return false;
    setCachedCrypto(libraryCrypto);
    return true;
  } catch {
    return false;
  }
}

/** Whether the library verifies through `libraryCrypto` (it does unless its seam moved). */
export const libraryUsesNodeCrypto = await handOver();

/** Gatehouse calls the library's ceremonies only through here, so the hand-over above came first. */
export { generateAuthenticationOptions, generateRegistrationOptions, verifyAuthenticationResponse, verifyRegistrationResponse } from '@simplewebauthn/server';
