import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, type TestApp } from './helpers/app.js';
import { MINUTE, SECOND } from '../src/core/clock.js';
import { registerThroughFlow } from '../src/flows/flow-test-kit.js';
import { basic, challengeOf, loginHandoff, oauthErrorBody, postForm } from '../src/oauth/testing.js';

const REDIRECT = 'https://app.example.com/callback';
const VERIFIER = 'v'.repeat(20) + '-._~0123456789abcdefghijklmnop';

describe('authorization endpoint and code grant: edge cases (inject)', () => {
  let t: TestApp;
  let project: { id: string; project_secret: string };
  let rp: { client_id: string; client_secret: string };
  let pub: { client_id: string };
  const email = 'edge@example.com';

  beforeAll(async () => {
    t = await createTestApp();
    project = await t.createProject();
    await registerThroughFlow(t, project.id, email);
    const register = async (body: Record<string, unknown>) =>
      (await t.app.inject({ method: 'POST', url: `/projects/${project.id}/oauth_clients`, headers: bearer(project.project_secret), payload: body })).json();
    rp = await register({ redirect_uris: [REDIRECT] });
    pub = await register({ redirect_uris: ['com.example.app:/cb'], token_endpoint_auth_method: 'none' });
  });
  afterAll(async () => t.close());

  const authorize = async (params: Record<string, string>, cookie?: string) => {
    const query = new URLSearchParams({
      response_type: 'code', client_id: rp.client_id, redirect_uri: REDIRECT, scope: 'openid email', state: 'xyz',
      code_challenge: await challengeOf(VERIFIER), code_challenge_method: 'S256', ...params,
    });
    return t.app.inject({ method: 'GET', url: `/auth/authorize?${query}`, headers: cookie ? { cookie } : {} });
  };
  const location = (response: LightMyRequestResponse) => new URL(response.headers.location as string);
  const bindingOf = (response: LightMyRequestResponse) => `__gh_authz=${response.cookies.find((c) => c.name === '__gh_authz')!.value}`;
  const resume = (form: Record<string, string>, cookie?: string) =>
    postForm(t, '/auth/authorize/resume', form, cookie ? { cookie } : {});
  /** authorize -> flow -> resume: the callback URL and the session cookie set on the way. */
  const codeFor = async (params: Record<string, string> = {}) => {
    const started = await authorize(params);
    const id = location(started).searchParams.get('authorization_id')!;
    const resumed = await resume({ authorization_id: id, handoff_token: await loginHandoff(t, project.id, email) }, bindingOf(started));
    expect(resumed.statusCode, resumed.body).toBe(303);
    return { callback: location(resumed), session: resumed.cookies.find((c) => c.name === '__service_session')!.value };
  };
  const redeem = (code: string, extra: Record<string, string> = {}, auth = basic(rp.client_id, rp.client_secret)) =>
    postForm(t, '/auth/token', { grant_type: 'authorization_code', code, redirect_uri: REDIRECT, code_verifier: VERIFIER, ...extra }, auth);

  it('binds the pending request to the browser that started it', async () => {
    const a = await authorize({});
    const b = await authorize({});
    const id = location(a).searchParams.get('authorization_id')!;
    const handoff = await loginHandoff(t, project.id, email);
    for (const cookie of [undefined, bindingOf(b)]) {
      const response = await resume({ authorization_id: id, handoff_token: handoff }, cookie);
      expect(response.statusCode).toBe(400);
      expect(oauthErrorBody(response)).toMatchObject({ error: 'invalid_request', code: 'oauth.invalid_request' });
    }
    expect((await resume({ authorization_id: 'authz_nope', handoff_token: handoff }, bindingOf(a))).statusCode).toBe(400);
    // The refused attempts consumed nothing: the right browser still completes.
    const ok = await resume({ authorization_id: id, handoff_token: handoff }, bindingOf(a));
    expect(location(ok).searchParams.get('code')).toMatch(/^gh_ac_/);
    expect(ok.headers['referrer-policy']).toBe('no-referrer');
    // Completed requests cannot be resumed again.
    expect((await resume({ authorization_id: id, handoff_token: handoff }, bindingOf(a))).statusCode).toBe(400);
  });

  it('redirects access_denied for a bad handoff token and refuses expired requests', async () => {
    const started = await authorize({});
    const id = location(started).searchParams.get('authorization_id')!;
    const denied = await resume({ authorization_id: id, handoff_token: 'gh_ho_forged' }, bindingOf(started));
    expect(denied.statusCode).toBe(303);
    expect(Object.fromEntries(location(denied).searchParams)).toMatchObject({ error: 'access_denied', state: 'xyz' });

    const later = await authorize({});
    t.clock.advance(10 * MINUTE);
    const expired = await resume({ authorization_id: location(later).searchParams.get('authorization_id')!, handoff_token: 'x' }, bindingOf(later));
    expect(oauthErrorBody(expired).error).toBe('invalid_request');
  });

  it('shows errors for a bad client and redirects the others with state', async () => {
    const bad: Array<Record<string, string>> = [{ client_id: 'oc_unknown0000000000000000' }, { client_id: '' }, { redirect_uri: 'https://app.example.com/other' }];
    for (const params of bad) {
      const response = await authorize(params);
      expect(response.statusCode).toBe(400);
      expect(response.headers.location).toBeUndefined();
    }
    const repeated = await t.app.inject({ method: 'GET', url: `/auth/authorize?client_id=${rp.client_id}&client_id=${rp.client_id}` });
    expect(oauthErrorBody(repeated).error).toBe('invalid_request');
    const cases: Array<[Record<string, string>, string]> = [
      [{ response_type: 'token' }, 'unsupported_response_type'],
      [{ scope: 'openid user.read' }, 'invalid_scope'],
      [{ code_challenge: 'short' }, 'invalid_request'],
      [{ prompt: 'bogus' }, 'invalid_request'],
      // issue #16: prompt=none stands alone (OIDC Core §3.1.2.1); request objects are refused, not ignored (§6).
      [{ prompt: 'none login' }, 'invalid_request'],
      [{ prompt: 'consent none' }, 'invalid_request'],
      [{ request: 'eyJhbGciOiJub25lIn0.e30.' }, 'request_not_supported'],
      [{ request_uri: 'https://rp.example.com/request.jwt' }, 'request_uri_not_supported'],
    ];
    for (const [params, error] of cases) {
      const response = await authorize(params);
      expect(response.statusCode).toBe(302);
      expect(Object.fromEntries(location(response).searchParams)).toMatchObject({ error, state: 'xyz', iss: 'http://localhost' });
    }
    expect((await t.app.inject({ method: 'HEAD', url: `/auth/authorize?client_id=${rp.client_id}` })).statusCode).toBe(405);
  });

  it('sends prompt=create to the registration page, past a live session (OpenID Connect Prompt Create)', async () => {
    const handoff = await loginHandoff(t, project.id, email);
    const exchanged = await t.app.inject({ method: 'POST', url: `/sessions/exchange?project_id=${project.id}`, headers: bearer(project.project_secret), payload: { handoff_token: handoff } });
    const response = await authorize({ prompt: 'create' }, `__service_session=${exchanged.json().session_token}`);
    expect(location(response).pathname).toBe('/ui/register');
    expect(location(response).searchParams.get('purpose')).toBe('register');
    expect(location(response).searchParams.get('authorization_id')).toMatch(/^authz_/);
    const discovery = await t.app.inject({ method: 'GET', url: '/.well-known/openid-configuration' });
    expect(discovery.json().prompt_values_supported).toContain('create');
  });

  it('ignores a session cookie of another project (the flow runs)', async () => {
    const other = await t.createProject();
    await registerThroughFlow(t, other.id, email);
    const handoff = await loginHandoff(t, other.id, email);
    const exchanged = await t.app.inject({ method: 'POST', url: `/sessions/exchange?project_id=${other.id}`, headers: bearer(other.project_secret), payload: { handoff_token: handoff } });
    const response = await authorize({}, `__service_session=${exchanged.json().session_token}`);
    expect(location(response).searchParams.get('authorization_id')).toMatch(/^authz_/);
  });

  it('redeems a code once, for the same client, redirect URI and verifier, within 60 seconds', async () => {
    const { callback } = await codeFor();
    const code = callback.searchParams.get('code')!;
    const other = await t.app.inject({ method: 'POST', url: `/projects/${project.id}/oauth_clients`, headers: bearer(project.project_secret), payload: { redirect_uris: [REDIRECT] } });
    const otherClient = other.json();
    expect(oauthErrorBody(await redeem(code, {}, basic(otherClient.client_id, otherClient.client_secret))).error).toBe('invalid_grant');
    expect(oauthErrorBody(await redeem(code, { redirect_uri: `${REDIRECT}/` })).error).toBe('invalid_grant');
    expect(oauthErrorBody(await redeem(code, { code_verifier: 'w'.repeat(43) })).error).toBe('invalid_grant');
    expect(oauthErrorBody(await redeem(code, { code_verifier: 'short' })).error).toBe('invalid_grant');
    expect(oauthErrorBody(await redeem(code, { code: '' })).error).toBe('invalid_request');
    const ok = await redeem(code);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toMatchObject({ token_type: 'Bearer', scope: 'openid email', id_token: expect.any(String) });

    const late = (await codeFor()).callback.searchParams.get('code')!;
    t.clock.advance(60 * SECOND);
    expect(oauthErrorBody(await redeem(late)).error).toBe('invalid_grant');
  });

  it('revokes the tokens of a deleted client at once', async () => {
    const client = (await t.app.inject({ method: 'POST', url: `/projects/${project.id}/oauth_clients`, headers: bearer(project.project_secret), payload: { redirect_uris: [REDIRECT] } })).json();
    const started = await authorize({ client_id: client.client_id });
    const resumed = await resume(
      { authorization_id: location(started).searchParams.get('authorization_id')!, handoff_token: await loginHandoff(t, project.id, email) },
      bindingOf(started),
    );
    const tokens = (await redeem(location(resumed).searchParams.get('code')!, {}, basic(client.client_id, client.client_secret))).json();
    const userinfo = () => t.app.inject({ method: 'GET', url: '/auth/userinfo', headers: bearer(tokens.access_token) });
    expect((await userinfo()).statusCode).toBe(200);
    await t.app.inject({ method: 'DELETE', url: `/projects/${project.id}/oauth_clients/${client.client_id}`, headers: bearer(project.project_secret) });
    expect((await userinfo()).statusCode).toBe(401);
  });

  it('lets exactly one of concurrent redemptions of a code succeed', async () => {
    const code = (await codeFor()).callback.searchParams.get('code')!;
    const results = await Promise.all(Array.from({ length: 5 }, () => redeem(code)));
    expect(results.filter((r) => r.statusCode === 200)).toHaveLength(1);
    expect(results.filter((r) => r.statusCode === 400).every((r) => oauthErrorBody(r).error === 'invalid_grant')).toBe(true);
  });

  it('treats concurrent uses of one refresh token as reuse: one answer, then the family is revoked', async () => {
    const tokens = (await redeem((await codeFor()).callback.searchParams.get('code')!)).json();
    const auth = basic(rp.client_id, rp.client_secret);
    const results = await Promise.all(
      Array.from({ length: 4 }, () => postForm(t, '/auth/token', { grant_type: 'refresh_token', refresh_token: tokens.refresh_token }, auth)),
    );
    const winners = results.filter((r) => r.statusCode === 200);
    expect(winners).toHaveLength(1);
    const rotated = winners[0].json();
    const info = await t.app.inject({ method: 'GET', url: '/auth/userinfo', headers: bearer(rotated.access_token) });
    expect(info.statusCode).toBe(401);
  });

  it('serves a public client with PKCE alone, and signs in again through the session cookie', async () => {
    const query = new URLSearchParams({
      response_type: 'code', client_id: pub.client_id, redirect_uri: 'com.example.app:/cb', scope: 'openid profile',
      code_challenge: await challengeOf(VERIFIER), code_challenge_method: 'S256',
    });
    const { session } = await codeFor();
    const sso = await t.app.inject({ method: 'GET', url: `/auth/authorize?${query}`, headers: { cookie: `__service_session=${session}` } });
    const callback = location(sso);
    expect(callback.protocol).toBe('com.example.app:');
    const code = callback.searchParams.get('code')!;
    const tokens = await postForm(t, '/auth/token', { grant_type: 'authorization_code', client_id: pub.client_id, code, redirect_uri: 'com.example.app:/cb', code_verifier: VERIFIER });
    expect(tokens.statusCode, tokens.body).toBe(200);
    const info = await t.app.inject({ method: 'GET', url: '/auth/userinfo', headers: bearer(tokens.json().access_token) });
    expect(info.json()).toMatchObject({ given_name: 'Ann' });
    expect(info.json()).not.toHaveProperty('email');
    // Deleting another client leaves these tokens alone; logging out of Gatehouse ends them.
    const doomed = (await t.app.inject({ method: 'POST', url: `/projects/${project.id}/oauth_clients`, headers: bearer(project.project_secret), payload: { redirect_uris: [REDIRECT] } })).json();
    await t.app.inject({ method: 'DELETE', url: `/projects/${project.id}/oauth_clients/${doomed.client_id}`, headers: bearer(project.project_secret) });
    expect((await t.app.inject({ method: 'GET', url: '/auth/userinfo', headers: bearer(tokens.json().access_token) })).statusCode).toBe(200);
    await t.app.inject({ method: 'DELETE', url: '/sessions/me', headers: { cookie: `__service_session=${session}` } });
    expect((await t.app.inject({ method: 'GET', url: '/auth/userinfo', headers: bearer(tokens.json().access_token) })).statusCode).toBe(401);
  });
});
