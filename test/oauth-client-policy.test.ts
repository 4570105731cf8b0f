import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, type TestApp } from './helpers/app.js';
import { clientRedirectMatches } from '../src/core/redirect-uris.js';
import { registerThroughFlow } from '../src/flows/flow-test-kit.js';
import { basic, challengeOf, exchangeSession, loginHandoff, oauthErrorBody, postForm, userSession } from '../src/oauth/testing.js';

const VERIFIER = 'v'.repeat(20) + '-._~0123456789abcdefghijklmnop';

describe('OIDC client policy (issue #16 §4): loopback ports, who may introspect', () => {
  let t: TestApp;
  let project: { id: string; project_secret: string; preview_secret: string };
  let confidential: { client_id: string; client_secret: string };
  let pub: { client_id: string };
  const email = 'policy@example.com';

  beforeAll(async () => {
    t = await createTestApp();
    project = await t.createProject();
    await registerThroughFlow(t, project.id, email);
    const register = async (body: Record<string, unknown>) =>
      (await t.app.inject({ method: 'POST', url: `/projects/${project.id}/oauth_clients`, headers: bearer(project.project_secret), payload: body })).json();
    confidential = await register({ redirect_uris: ['https://app.example.com/cb'] });
    pub = await register({ redirect_uris: ['http://127.0.0.1/cb', 'http://[::1]:8080/cb?x=1', 'http://localhost:3000/cb'], token_endpoint_auth_method: 'none' });
  });
  afterAll(async () => t.close());

  const authorize = async (redirectUri: string) => {
    const query = new URLSearchParams({
      response_type: 'code', client_id: pub.client_id, redirect_uri: redirectUri, scope: 'openid', state: 's',
      code_challenge: await challengeOf(VERIFIER), code_challenge_method: 'S256',
    });
    return t.app.inject({ method: 'GET', url: `/auth/authorize?${query}` });
  };
  const location = (response: LightMyRequestResponse) => new URL(response.headers.location as string);

  it('RFC 8252 §7.3: a loopback IP redirect URI admits any port, and the code is redeemed with that exact URI', async () => {
    const redirectUri = 'http://127.0.0.1:53117/cb';
    const started = await authorize(redirectUri);
    expect(started.statusCode, started.body).toBe(302);
    expect(location(started).searchParams.get('error')).toBeNull();
    const id = location(started).searchParams.get('authorization_id')!;
    const binding = `__gh_authz=${started.cookies.find((c) => c.name === '__gh_authz')!.value}`;
    const resumed = await postForm(t, '/auth/authorize/resume', { authorization_id: id, handoff_token: await loginHandoff(t, project.id, email) }, { cookie: binding });
    expect(resumed.statusCode, resumed.body).toBe(303);
    const callback = location(resumed);
    expect(`${callback.origin}${callback.pathname}`).toBe(redirectUri);
    const code = callback.searchParams.get('code')!;
    const redeem = (uri: string) => postForm(t, '/auth/token', { grant_type: 'authorization_code', code, redirect_uri: uri, code_verifier: VERIFIER, client_id: pub.client_id });
    // Another port at the token endpoint is another redirect URI (RFC 6749 §4.1.3).
    expect(oauthErrorBody(await redeem('http://127.0.0.1:53118/cb')).error).toBe('invalid_grant');
  });

  it('other ports are accepted on [::1] too; host, path and query stay exact; localhost keeps its port', async () => {
    for (const ok of ['http://[::1]:1/cb?x=1', 'http://[::1]/cb?x=1', 'http://127.0.0.1:65535/cb']) {
      const response = await authorize(ok);
      expect(response.statusCode, ok).toBe(302);
      expect(location(response).searchParams.get('authorization_id'), ok).toBeTruthy();
    }
    for (const bad of [
      'http://127.0.0.1:53117/cb/', 'http://127.0.0.1:53117/other', 'http://127.0.0.2:53117/cb', 'http://[::1]:9/cb?x=2',
      'http://[::1]:9/cb', 'https://127.0.0.1:53117/cb', 'http://localhost:3001/cb', 'http://127.0.0.1:0/cb', 'http://127.0.0.1:65536/cb',
      'http://127.0.0.1:0080/cb', 'http://127.0.0.1:53117/cb#f', 'http://127.0.0.1:53117@evil.example/cb',
    ]) {
      const response = await authorize(bad);
      expect(response.statusCode, bad).toBe(400);
      expect(oauthErrorBody(response).details).toMatchObject({ parameter: 'redirect_uri' });
    }
    expect(clientRedirectMatches('https://app.example.com:8443/cb', 'https://app.example.com:9443/cb')).toBe(false);
  });

  it('introspection: refused to public clients (anyone can send their id), allowed to confidential clients and service keys', async () => {
    const s = await userSession(t, project);
    const tokens = (await exchangeSession(t, s)).json();
    const asPublic = await postForm(t, '/auth/introspect', { token: tokens.access_token, client_id: pub.client_id });
    expect(asPublic.statusCode).toBe(401);
    expect(oauthErrorBody(asPublic).error).toBe('invalid_client');
    expect(asPublic.body).not.toContain('active');
    const asConfidential = await postForm(t, '/auth/introspect', { token: tokens.access_token }, basic(confidential.client_id, confidential.client_secret));
    expect(asConfidential.json()).toMatchObject({ active: true, sub: s.userId });
    const asKey = await postForm(t, '/auth/introspect', { token: tokens.access_token }, basic(s.key.client_id, s.key.client_secret));
    expect(asKey.json()).toMatchObject({ active: true });
  });
});
