import { randomBytes } from 'node:crypto';
import { compactDecrypt, CompactEncrypt, exportJWK, generateKeyPair, importJWK, SignJWT, type JWK, type JWTPayload } from 'jose';
import { addMs, HOUR, type Clock } from '../core/clock.js';
import type { KeyRing } from '../core/keys.js';
import type { OAuthStore, SigningKeyRow } from './store.js';

export const SIGNING_ALG = 'RS256';
const KEY_PURPOSE = 'oauth.signing-keys';
/** How long the in-memory copy of the current key is trusted before the database is read again. */
const CACHE_MS = 60_000;
const DAY_MS = 24 * HOUR;

export interface SigningKeyOptions {
  /** A current key older than this is replaced on the next signature. */
  rotationMs: number;
  /** The longest lifetime of anything signed: a retired key stays published this long. */
  maxTokenTtlMs: number;
}

export const DEFAULT_SIGNING_KEY_OPTIONS: SigningKeyOptions = { rotationMs: 30 * DAY_MS, maxTokenTtlMs: DAY_MS };

type PrivateKey = Awaited<ReturnType<typeof importJWK>>;

interface LoadedKey {
  kid: string;
  createdAt: Date;
  privateKey: PrivateKey;
}

/**
 * RS256 signing keys shared by every process through the database. Private halves are stored as
 * JWE (`dir` + A256GCM) under a key derived from GATEHOUSE_SECRET, so a database dump alone
 * cannot sign. Rotation retires the current key and keeps it in the JWKS until the tokens it
 * signed have expired.
 */
export class SigningKeys {
  private cached?: { key: LoadedKey; loadedAt: number };

  constructor(
    private readonly store: OAuthStore,
    private readonly keys: KeyRing,
    private readonly clock: Clock,
    private readonly options: SigningKeyOptions = DEFAULT_SIGNING_KEY_OPTIONS,
  ) {}

  /** The public JWK Set: the current key and the retired ones still inside their window. */
  async jwks(): Promise<{ keys: JWK[] }> {
    await this.current();
    const rows = await this.store.publishedKeys(this.clock.now());
    return { keys: rows.map((row) => ({ ...(row.public_jwk as JWK), kid: row.kid, alg: row.alg, use: 'sig' })) };
  }

  async sign(payload: JWTPayload, type = 'JWT'): Promise<string> {
    const key = await this.current();
    return new SignJWT(payload).setProtectedHeader({ alg: SIGNING_ALG, kid: key.kid, typ: type }).sign(key.privateKey);
  }

  /** Retires the current key now and makes a new one current. */
  async rotate(): Promise<string> {
    const now = this.clock.now();
    const current = await this.store.currentKey();
    const fresh = await this.generate(now);
    const done = await this.store.transaction(async (store) => {
      if (current && !(await store.retireKey(current.kid, now, addMs(now, this.options.maxTokenTtlMs)))) return false;
      return store.insertCurrentKey(fresh);
    });
    this.cached = undefined;
    if (!done) return (await this.current()).kid;
    return fresh.kid;
  }

  private async current(): Promise<LoadedKey> {
    const now = this.clock.now();
    if (this.cached && now.getTime() - this.cached.loadedAt < CACHE_MS && !this.isStale(this.cached.key.createdAt, now)) {
      return this.cached.key;
    }
    let row = await this.store.currentKey();
    if (!row) {
      const fresh = await this.generate(now);
      await this.store.insertCurrentKey(fresh);
      row = await this.store.currentKey();
    } else if (this.isStale(row.created_at, now)) {
      await this.rotate();
      row = await this.store.currentKey();
    }
    if (!row) throw new Error('no current signing key after generation');
    const key = { kid: row.kid, createdAt: row.created_at, privateKey: await this.decrypt(row) };
    this.cached = { key, loadedAt: now.getTime() };
    return key;
  }

  private isStale(createdAt: Date, now: Date): boolean {
    return now.getTime() - createdAt.getTime() >= this.options.rotationMs;
  }

  private async generate(now: Date): Promise<SigningKeyRow> {
    const { publicKey, privateKey } = await generateKeyPair(SIGNING_ALG, { extractable: true, modulusLength: 2048 });
    const kid = randomBytes(16).toString('base64url');
    const privateJwk = await exportJWK(privateKey);
    const encrypted = await new CompactEncrypt(new TextEncoder().encode(JSON.stringify(privateJwk)))
      .setProtectedHeader({ alg: 'dir', enc: 'A256GCM', kid })
      .encrypt(this.keys.current(KEY_PURPOSE));
    const { kty, n, e } = await exportJWK(publicKey);
    return {
      kid,
      alg: SIGNING_ALG,
      public_jwk: { kty, n, e },
      private_jwk_enc: encrypted,
      status: 'current',
      created_at: now,
      retired_at: null,
      publish_until: null,
    };
  }

  /** Tries every root secret of the ring, newest first, so GATEHOUSE_SECRET can rotate too. */
  private async decrypt(row: SigningKeyRow): Promise<PrivateKey> {
    for (const secret of this.keys.all(KEY_PURPOSE)) {
      try {
        const { plaintext } = await compactDecrypt(row.private_jwk_enc, secret);
        return (await importJWK(JSON.parse(new TextDecoder().decode(plaintext)) as JWK, SIGNING_ALG));
      } catch {
        // next root secret
      }
    }
    throw new Error(`signing key ${row.kid} cannot be decrypted with any configured GATEHOUSE_SECRET`);
  }
}
