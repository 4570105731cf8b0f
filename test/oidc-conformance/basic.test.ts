import { createLocalJWKSet, jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MINUTE, SECOND } from '../../src/core/clock.js';
import { oauthErrorBody } from '../../src/oauth/testing.js';
import { bearer, type TestApp } from '../helpers/app.js';
import { conformanceRp, location } from './rp-kit.js';

const REDIRECT = 'https://rp.example.com/cb';
const VERIFIER = 'a'.repeat(43);

/**
 * The OpenID Foundation's Basic and Config certification checks that apply to a code + PKCE
 * provider, one test each, named after the test module (https://openid.net/certification/).
 */
describe('OIDC conformance: basic and config profile', () => {
  let t: TestApp;
  let rp: Awaited<ReturnType<typeof conformanceRp>>;
  let project: { id: string; project_secret: string };
  const email = 'basic@example.com';

  beforeAll(async () => {
    rp = await conformanceRp({ email, redirect: REDIRECT, verifier: VERIFIER });
    ({ t, project } = rp);
  });
  afterAll(async () => t.close());

  const query = async (extra: Record<string, string> = {}) => new URLSearchParams({ ...(await rp.params(extra)), state: extra.state ?? 'st', nonce: extra.nonce ?? 'nc' });
  /** Where the browser lands at the client: at once (an error), or after a sign-in. */
  const callback = async (extra: Record<string, string> = {}) => {
    const started = await rp.authorize({ state: 'st', nonce: 'nc', ...extra });
    if (location(started).origin === new URL(REDIRECT).origin) return location(started);
    return location(await rp.resume(started));
  };
  const token = (form: Record<string, string>) => rp.token(form);
  const redeem = (code: string, extra: Record<string, string> = {}) => rp.redeem(code, extra);

  it('oidcc-discovery-endpoint-verification: required metadata, issuer without a trailing slash', async () => {
    const metadata = (await t.app.inject({ method: 'GET', url: '/.well-known/openid-configuration' })).json();
    for (const field of ['issuer', 'authorization_endpoint', 'token_endpoint', 'jwks_uri', 'userinfo_endpoint', 'response_types_supported', 'subject_types_supported', 'id_token_signing_alg_values_supported']) {
      expect(metadata[field], field).toBeDefined();
    }
    expect(metadata.issuer.endsWith('/')).toBe(false);
    expect(metadata.response_types_supported).toEqual(['code']);
    expect(metadata.scopes_supported).toContain('openid');
  });

  it('oidcc-server: state and iss come back, nonce is in the ID token, the ID token verifies against the JWKS', async () => {
    const back = await callback();
    expect(back.searchParams.get('state')).toBe('st');
    const issuer = back.searchParams.get('iss')!;
    const tokens = (await redeem(back.searchParams.get('code')!)).json();
    const jwks = createLocalJWKSet((await t.app.inject({ method: 'GET', url: '/auth/jwks' })).json());
    const { payload, protectedHeader } = await jwtVerify(tokens.id_token, jwks, { issuer, audience: rp.rp.client_id, currentDate: t.clock.now() });
    expect(protectedHeader.alg).toBe('RS256');
    expect(payload).toMatchObject({ nonce: 'nc', azp: rp.rp.client_id });
    expect(payload.exp! > payload.iat!).toBe(true);
  });

  it('oidcc-idtoken-signature: a tampered ID token does not verify', async () => {
    const tokens = (await redeem((await callback()).searchParams.get('code')!)).json();
    const [h, p, s] = tokens.id_token.split('.');
    const jwks = createLocalJWKSet((await t.app.inject({ method: 'GET', url: '/auth/jwks' })).json());
    const forged = `${h}.${Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(p, 'base64url').toString()), sub: 'someone-else' })).toString('base64url')}.${s}`;
    await expect(jwtVerify(forged, jwks, { currentDate: t.clock.now() })).rejects.toThrow();
  });

  it('oidcc-ensure-registered-redirect-uri: an unregistered redirect_uri is shown as an error, never redirected to', async () => {
    const answer = await t.app.inject({ method: 'GET', url: `/auth/authorize?${await query({ redirect_uri: 'https://evil.example/cb' })}` });
    expect(answer.statusCode).toBe(400);
    expect(answer.headers.location).toBeUndefined();
    expect(oauthErrorBody(answer).error).toBe('invalid_request');
  });

  it('oidcc-ensure-redirect-uri-in-authorization-request: the token request must repeat the same redirect_uri', async () => {
    const code = (await callback()).searchParams.get('code')!;
    expect(oauthErrorBody(await redeem(code, { redirect_uri: 'https://rp.example.com/other' })).error).toBe('invalid_grant');
  });

  it('oidcc-codereuse: a second use of a code fails and revokes what the first bought', async () => {
    const code = (await callback()).searchParams.get('code')!;
    const first = (await redeem(code)).json();
    expect(oauthErrorBody(await redeem(code)).error).toBe('invalid_grant');
    const userinfo = await t.app.inject({ method: 'GET', url: '/auth/userinfo', headers: bearer(first.access_token) });
    expect(userinfo.statusCode).toBe(401);
  });

  it('oidcc-codereuse-30seconds and expired codes: a code lives 60 s', async () => {
    const code = (await callback()).searchParams.get('code')!;
    t.clock.advance(61 * SECOND);
    expect(oauthErrorBody(await redeem(code)).error).toBe('invalid_grant');
  });

  it('PKCE: a code_verifier of the wrong length or alphabet, or another one, fails', async () => {
    for (const verifier of ['short', 'x'.repeat(129), `${'a'.repeat(42)}!`, 'b'.repeat(43)]) {
      const code = (await callback()).searchParams.get('code')!;
      const answer = await redeem(code, { code_verifier: verifier });
      expect(answer.statusCode, verifier).toBe(400);
      expect(['invalid_grant', 'invalid_request']).toContain(oauthErrorBody(answer).error);
    }
  });

  it('oidcc-userinfo-get and oidcc-userinfo-post-header: the token in the header, GET or POST', async () => {
    const tokens = (await redeem((await callback({ scope: 'openid email' })).searchParams.get('code')!)).json();
    for (const method of ['GET', 'POST'] as const) {
      const info = await t.app.inject({ method, url: '/auth/userinfo', headers: bearer(tokens.access_token) });
      expect(info.statusCode, method).toBe(200);
      expect(info.json()).toMatchObject({ email, email_verified: expect.any(Boolean) });
    }
  });

  it('oidcc-scope-email and scope openid only: userinfo releases only what the scopes allow', async () => {
    const only = (await redeem((await callback({ scope: 'openid' })).searchParams.get('code')!)).json();
    const info = (await t.app.inject({ method: 'GET', url: '/auth/userinfo', headers: bearer(only.access_token) })).json();
    expect(Object.keys(info)).toEqual(['sub']);
  });

  it('oidcc-ensure-other-scope-order-succeeds and oidcc-ensure-request-with-unknown-parameter-succeeds', async () => {
    expect((await callback({ scope: 'email openid' })).searchParams.get('code')).toMatch(/^gh_ac_/);
    expect((await callback({ unknown_extension: 'x' })).searchParams.get('code')).toMatch(/^gh_ac_/);
  });

  it('oidcc-prompt-login: prompt=login always runs a sign-in, even with a live session', async () => {
    const resumed = await rp.resume(await rp.authorize());
    const session = `__service_session=${resumed.cookies.find((c) => c.name === '__service_session')!.value}`;
    const again = await t.app.inject({ method: 'GET', url: `/auth/authorize?${await query({ prompt: 'login' })}`, headers: { cookie: session } });
    expect(location(again).pathname).toBe('/ui/login');
  });

  it('oidcc-prompt-none-not-logged-in: login_required, redirected with state', async () => {
    const answer = await t.app.inject({ method: 'GET', url: `/auth/authorize?${await query({ prompt: 'none' })}` });
    expect(Object.fromEntries(location(answer).searchParams)).toMatchObject({ error: 'login_required', state: 'st' });
  });

  it('oversized state or nonce and repeated parameters are invalid_request, never 500', async () => {
    for (const extra of [{ state: 's'.repeat(3000) }, { nonce: 'n'.repeat(3000) }] as Array<Record<string, string>>) {
      const answer = await t.app.inject({ method: 'GET', url: `/auth/authorize?${await query(extra)}` });
      expect(answer.statusCode).toBeLessThan(500);
      expect(answer.statusCode === 400 ? oauthErrorBody(answer).error : location(answer).searchParams.get('error')).toBe('invalid_request');
    }
    const repeated = await t.app.inject({ method: 'GET', url: `/auth/authorize?${await query()}&scope=openid` });
    expect(repeated.statusCode).toBe(400);
    expect(oauthErrorBody(repeated).error).toBe('invalid_request');
  });

  it('oidcc-refresh-token-rotation: a revoked session makes its refresh token fail', async () => {
    const tokens = (await redeem((await callback()).searchParams.get('code')!)).json();
    const sid = JSON.parse(Buffer.from(tokens.id_token.split('.')[1], 'base64url').toString()).sid;
    await t.app.inject({ method: 'DELETE', url: `/sessions/${sid}`, headers: bearer(project.project_secret) });
    t.clock.advance(MINUTE);
    expect(oauthErrorBody(await token({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token })).error).toBe('invalid_grant');
  });
});
