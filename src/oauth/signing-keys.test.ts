import { createLocalJWKSet, decodeProtectedHeader, jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/helpers/app.js';
import { HOUR } from '../core/clock.js';
import { KeyRing } from '../core/keys.js';
import { SigningKeys } from './signing-keys.js';
import { OAuthStore } from './store.js';

const DAY = 24 * HOUR;

describe('signing keys, JWKS and discovery', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t.close());

  const jwks = async () => {
    const response = await t.app.inject({ method: 'GET', url: '/auth/jwks' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('application/jwk-set+json');
    return response.json() as { keys: Array<Record<string, string>> };
  };

  it('serves the discovery document on the public URL, never on the Host the request names', async () => {
    // The issuer used to be the Host a request named: whoever sent it chose the issuer (issue 31).
    const response = await t.app.inject({ method: 'GET', url: '/.well-known/openid-configuration', headers: { host: 'id.example.test:8443' } });
    expect(response.statusCode).toBe(200);
    const doc = response.json();
    expect(doc.issuer).toBe('http://localhost');
    expect(doc.token_endpoint).toBe('http://localhost/auth/token');
    expect(doc.jwks_uri).toBe('http://localhost/auth/jwks');
    expect(doc.revocation_endpoint).toBe('http://localhost/auth/revoke');
    expect(doc.userinfo_endpoint).toBe('http://localhost/auth/userinfo');
    expect(response.body).not.toContain('id.example.test');
    expect(doc.code_challenge_methods_supported).toEqual(['S256']);
    expect(doc.grant_types_supported).toContain('client_credentials');
    expect(doc.id_token_signing_alg_values_supported).toEqual(['RS256']);
  });

  it('uses GATEHOUSE_PUBLIC_URL as the issuer when configured', async () => {
    const other = await createTestApp({ publicUrl: 'https://login.example.com' });
    try {
      const doc = (await other.app.inject({ method: 'GET', url: '/.well-known/openid-configuration' })).json();
      expect(doc.issuer).toBe('https://login.example.com');
      expect(doc.token_endpoint).toBe('https://login.example.com/auth/token');
    } finally {
      await other.close();
    }
  });

  it('publishes a public RS256 key that verifies what the service signs, never its private half', async () => {
    const set = await jwks();
    expect(set.keys).toHaveLength(1);
    expect(set.keys[0]).toMatchObject({ kty: 'RSA', alg: 'RS256', use: 'sig' });
    for (const field of ['d', 'p', 'q', 'dp', 'dq', 'qi']) expect(set.keys[0]).not.toHaveProperty(field);
    const jwt = await t.container.oauth.signingKeys.sign({ sub: 'usr_1', iss: 'x', exp: Math.floor(t.clock.now().getTime() / 1000) + 60 });
    const { payload } = await jwtVerify(jwt, createLocalJWKSet(set as never), { currentDate: t.clock.now() });
    expect(payload.sub).toBe('usr_1');
  });

  it('stores the private key encrypted under GATEHOUSE_SECRET', async () => {
    const rows = await t.container.db.selectFrom('oauth_signing_keys').selectAll().execute();
    expect(rows).toHaveLength(1);
    expect(rows[0].private_jwk_enc.split('.')).toHaveLength(5);
    expect(decodeProtectedHeader(rows[0].private_jwk_enc)).toMatchObject({ alg: 'dir', enc: 'A256GCM' });
    expect(rows[0].private_jwk_enc).not.toContain('"d"');

    const store = new OAuthStore(t.container.db);
    const stranger = new SigningKeys(store, new KeyRing([Buffer.from('another-secret-another-secret-another-0123')]), t.clock);
    await expect(stranger.sign({ sub: 'x' })).rejects.toThrow(/cannot be decrypted/);
    // After GATEHOUSE_SECRET rotation the old secret, listed second, still decrypts.
    const rotated = new SigningKeys(store, new KeyRing([Buffer.from('another-secret-another-secret-another-0123'), ...t.container.config.secrets]), t.clock);
    expect(decodeProtectedHeader(await rotated.sign({ sub: 'x' })).kid).toBe(rows[0].kid);
  });

  it('rotates: new signatures use the new key, the old one stays published until its tokens expired', async () => {
    const before = (await jwks()).keys.map((key) => key.kid);
    const oldJwt = await t.container.oauth.signingKeys.sign({ sub: 'old', exp: Math.floor(t.clock.now().getTime() / 1000) + 3600 });
    const kid = await t.container.oauth.signingKeys.rotate();
    expect(before).not.toContain(kid);
    const after = await jwks();
    expect(after.keys.map((key) => key.kid)).toEqual([kid, ...before]);
    const newJwt = await t.container.oauth.signingKeys.sign({ sub: 'new' });
    expect(decodeProtectedHeader(newJwt).kid).toBe(kid);
    await jwtVerify(oldJwt, createLocalJWKSet(after as never), { currentDate: t.clock.now() });

    t.clock.advance(DAY + 1000);
    expect((await jwks()).keys.map((key) => key.kid)).toEqual([kid]);
  });

  it('rotates by itself once the current key is 30 days old', async () => {
    const [current] = (await jwks()).keys;
    t.clock.advance(30 * DAY);
    const jwt = await t.container.oauth.signingKeys.sign({ sub: 'later' });
    const kid = decodeProtectedHeader(jwt).kid;
    expect(kid).not.toBe(current.kid);
    expect((await jwks()).keys.map((key) => key.kid)).toEqual([kid, current.kid]);
  });

  it('keeps exactly one current key when processes race to create it', async () => {
    const fresh = await createTestApp();
    try {
      const store = new OAuthStore(fresh.container.db);
      const racers = Array.from({ length: 3 }, () => new SigningKeys(store, fresh.container.keys, fresh.clock));
      const kids = await Promise.all(racers.map(async (keys) => decodeProtectedHeader(await keys.sign({})).kid));
      expect(new Set(kids).size).toBe(1);
      const rows = await fresh.container.db.selectFrom('oauth_signing_keys').select(['kid', 'status']).execute();
      expect(rows).toEqual([{ kid: kids[0], status: 'current' }]);
    } finally {
      await fresh.close();
    }
  });
});
