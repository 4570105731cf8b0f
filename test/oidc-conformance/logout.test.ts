import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MINUTE } from '../../src/core/clock.js';
import { basic, postForm } from '../../src/oauth/testing.js';
import { bearer, type TestApp } from '../helpers/app.js';
import { conformanceRp } from './rp-kit.js';

const REDIRECT = 'https://rp.example.com/cb';
const AFTER_LOGOUT = 'https://rp.example.com/bye';
const VERIFIER = 'd'.repeat(43);

/** OpenID Connect RP-Initiated Logout 1.0 at the end_session_endpoint (/auth/logout). */
describe('OIDC conformance: RP-initiated logout', () => {
  let t: TestApp;
  let kit: Awaited<ReturnType<typeof conformanceRp>>;
  let project: { id: string; project_secret: string };
  let rp: { client_id: string; client_secret: string };
  let other: { client_id: string; client_secret: string };

  beforeAll(async () => {
    kit = await conformanceRp({ email: 'logout@example.com', redirect: REDIRECT, verifier: VERIFIER, client: { post_logout_redirect_uris: [AFTER_LOGOUT] } });
    ({ t, project, rp } = kit);
    other = (await t.app.inject({ method: 'POST', url: `/projects/${project.id}/oauth_clients`, headers: bearer(project.project_secret), payload: { redirect_uris: ['https://other.example.com/cb'] } })).json();
  });
  afterAll(async () => t.close());

  /** A sign-in for `rp`: its tokens and the Gatehouse session cookie. */
  const signIn = () => kit.signIn();
  const alive = async (session: string) => (await t.app.inject({ method: 'GET', url: '/sessions/me', cookies: { __service_session: session } })).statusCode === 200;
  const logout = (params: Record<string, string>, cookie?: string) =>
    t.app.inject({ method: 'GET', url: `/auth/logout?${new URLSearchParams(params)}`, ...(cookie ? { cookies: { __service_session: cookie } } : {}) });

  it('discovery names the end_session_endpoint', async () => {
    const metadata = (await t.app.inject({ method: 'GET', url: '/.well-known/openid-configuration' })).json();
    expect(metadata.end_session_endpoint).toMatch(/\/auth\/logout$/);
  });

  it('oidcc-rp-initiated-logout: a valid id_token_hint ends its session at once and returns to the registered URI with state', async () => {
    const { tokens, session } = await signIn();
    const answer = await logout({ id_token_hint: tokens.id_token, post_logout_redirect_uri: AFTER_LOGOUT, state: 'bye-1' }, session);
    expect(answer.statusCode).toBe(302);
    expect(answer.headers.location).toBe(`${AFTER_LOGOUT}?state=bye-1`);
    expect(await alive(session)).toBe(false);
    // The tokens died with the session.
    const refreshed = await postForm(t, '/auth/token', { grant_type: 'refresh_token', refresh_token: tokens.refresh_token }, basic(rp.client_id, rp.client_secret));
    expect(refreshed.json().error).toBe('invalid_grant');
  });

  it('an expired id_token_hint still names its session', async () => {
    const { tokens, session } = await signIn();
    t.clock.advance(30 * MINUTE);
    const answer = await logout({ id_token_hint: tokens.id_token });
    expect(answer.statusCode).toBe(200);
    expect(answer.body).toContain('You are signed out');
    expect(await alive(session)).toBe(false);
  });

  it('oidcc-rp-initiated-logout-bad-post-logout-redirect-uri: an unregistered URI is an error, never a redirect; nothing ends', async () => {
    const { tokens, session } = await signIn();
    for (const uri of ['https://evil.example/steal', `${AFTER_LOGOUT}/x`, 'javascript:alert(1)']) {
      const answer = await logout({ id_token_hint: tokens.id_token, post_logout_redirect_uri: uri });
      expect(answer.statusCode).toBe(400);
      expect(answer.headers.location).toBeUndefined();
    }
    expect(await alive(session)).toBe(true);
  });

  it('an id_token_hint with a bad signature, or of another client than client_id, is refused', async () => {
    const { tokens, session } = await signIn();
    const [header, payload, signature] = tokens.id_token.split('.');
    const tampered = `${header}.${payload}.${signature.slice(0, -4)}AAAA`;
    expect((await logout({ id_token_hint: tampered })).statusCode).toBe(400);
    expect((await logout({ id_token_hint: 'not.a.jwt' })).statusCode).toBe(400);
    expect((await logout({ id_token_hint: tokens.id_token, client_id: other.client_id })).statusCode).toBe(400);
    expect(await alive(session)).toBe(true);
  });

  it('without a hint the user confirms first; a cross-site confirmation is refused', async () => {
    const { session } = await signIn();
    const page = await logout({ client_id: rp.client_id, post_logout_redirect_uri: AFTER_LOGOUT, state: 'x' }, session);
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.body).toContain('<form method="post" action="/auth/logout">');
    expect(await alive(session)).toBe(true);
    const form = { client_id: rp.client_id, post_logout_redirect_uri: AFTER_LOGOUT, state: 'x', confirm: 'yes' };
    const crossSite = await t.app.inject({ method: 'POST', url: '/auth/logout', cookies: { __service_session: session }, headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://evil.example' }, payload: new URLSearchParams(form).toString() });
    expect(crossSite.statusCode).toBe(403);
    expect(await alive(session)).toBe(true);
    const confirmed = await t.app.inject({ method: 'POST', url: '/auth/logout', cookies: { __service_session: session }, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: new URLSearchParams(form).toString() });
    expect(confirmed.statusCode).toBe(303);
    expect(confirmed.headers.location).toBe(`${AFTER_LOGOUT}?state=x`);
    expect(await alive(session)).toBe(false);
  });

  it('repeated or oversized parameters are refused, never 500', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/auth/logout?state=a&state=b' })).statusCode).toBe(400);
    expect((await logout({ state: 'x'.repeat(5000) })).statusCode).toBe(400);
  });

  it('post_logout_redirect_uris are validated at registration like redirect URIs', async () => {
    const refused = await t.app.inject({ method: 'POST', url: `/projects/${project.id}/oauth_clients`, headers: bearer(project.project_secret), payload: { redirect_uris: [REDIRECT], post_logout_redirect_uris: ['https://*.example.com/'] } });
    expect(refused.statusCode).toBe(400);
    expect(JSON.stringify(refused.json().details)).toContain('post_logout_redirect_uris');
  });
});
