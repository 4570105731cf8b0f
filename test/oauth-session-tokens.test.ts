import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers/app.js';
import { createLocalJWKSet, jwtVerify } from 'jose';
import { HOUR, MINUTE } from '../src/core/clock.js';
import { basic, exchangeSession, oauthErrorBody, postForm, serviceKey, SESSION_TOKEN_TYPE, TOKEN_EXCHANGE, userSession, type UserSession } from '../src/oauth/testing.js';

describe('session-derived tokens: RFC 8693 exchange, refresh rotation, session deletion', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t.close());

  const userinfo = (token: string) => t.app.inject({ method: 'GET', url: '/auth/userinfo', headers: { authorization: `Bearer ${token}` } });
  const refresh = (s: UserSession, refreshToken: string, extra: Record<string, string> = {}) =>
    postForm(t, '/auth/token', { grant_type: 'refresh_token', refresh_token: refreshToken, ...extra }, basic(s.key.client_id, s.key.client_secret));

  it('exchanges a session token for access, refresh and ID tokens carrying the session id', async () => {
    const s = await userSession(t);
    const response = await exchangeSession(t, s);
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json();
    expect(body).toMatchObject({
      token_type: 'Bearer',
      expires_in: 300,
      scope: 'openid profile email',
      issued_token_type: 'urn:ietf:params:oauth:token-type:access_token',
      access_token: expect.stringMatching(/^gh_at_/),
      refresh_token: expect.stringMatching(/^gh_rt_/),
    });
    const jwks = (await t.app.inject({ method: 'GET', url: '/auth/jwks' })).json();
    const { payload } = await jwtVerify(body.id_token, createLocalJWKSet(jwks), { issuer: 'http://localhost', audience: s.key.client_id, currentDate: t.clock.now() });
    expect(payload).toMatchObject({ sub: s.userId, sid: s.sessionId, email: expect.stringContaining('@example.com'), name: 'Ada Lovelace' });

    const info = await userinfo(body.access_token);
    expect(info.statusCode, info.body).toBe(200);
    expect(info.json()).toMatchObject({ sub: s.userId, given_name: 'Ada', family_name: 'Lovelace', email: payload.email });
    const introspected = await postForm(t, '/auth/introspect', { token: body.access_token }, basic(s.key.client_id, s.key.client_secret));
    expect(introspected.json()).toMatchObject({ active: true, sub: s.userId, sid: s.sessionId, client_id: s.key.client_id, project_id: s.project.id });
  });

  it('accepts client-credentials tokens on POST /sessions, GET /sessions and POST /sessions/exchange, with scope checks', async () => {
    const s = await userSession(t);
    const key = await serviceKey(t, s.project, ['session.write', 'sessions.read']);
    const token = (await postForm(t, '/auth/token', { grant_type: 'client_credentials' }, basic(key.client_id, key.client_secret))).json().access_token;
    const auth = { authorization: `Bearer ${token}` };
    const shell = await t.app.inject({ method: 'POST', url: '/sessions', headers: auth, payload: { project_id: s.project.id } });
    expect(shell.statusCode, shell.body).toBe(201);
    const list = await t.app.inject({ method: 'GET', url: `/sessions?project_id=${s.project.id}`, headers: auth });
    expect(list.statusCode, list.body).toBe(200);
    const { handoffFor } = await import('../src/sessions/test-fixtures.js');
    const handoff = await handoffFor(t, s.project.id, s.userId);
    const exchanged = await t.app.inject({ method: 'POST', url: `/sessions/exchange?project_id=${s.project.id}`, headers: auth, payload: { handoff_token: handoff.token } });
    expect(exchanged.statusCode, exchanged.body).toBe(200);
    const narrowed = (await postForm(t, '/auth/token', { grant_type: 'client_credentials', scope: 'sessions.read' }, basic(key.client_id, key.client_secret))).json().access_token;
    const refused = await t.app.inject({ method: 'POST', url: '/sessions', headers: { authorization: `Bearer ${narrowed}` }, payload: { project_id: s.project.id } });
    expect(refused.statusCode).toBe(403);
    const other = await t.createProject();
    const foreign = await t.app.inject({ method: 'GET', url: `/sessions?project_id=${other.id}`, headers: auth });
    expect(foreign.statusCode).toBe(404);
  });

  it('narrows scopes and releases only the claims they cover', async () => {
    const s = await userSession(t);
    const body = (await exchangeSession(t, s, { scope: 'openid' })).json();
    expect(body.scope).toBe('openid');
    expect((await userinfo(body.access_token)).json()).toEqual({ sub: s.userId });
    const refused = await exchangeSession(t, s, { scope: 'openid user.write' });
    expect(refused.statusCode).toBe(400);
    expect(oauthErrorBody(refused)).toMatchObject({ error: 'invalid_scope', code: 'oauth.invalid_scope' });
  });

  it('refuses bad subject tokens with invalid_grant and bad parameters with invalid_request', async () => {
    const s = await userSession(t);
    const other = await userSession(t);
    const auth = basic(s.key.client_id, s.key.client_secret);
    const cases: Array<[Record<string, string>, string]> = [
      [{ subject_token: 'gh_st_unknown', subject_token_type: SESSION_TOKEN_TYPE }, 'invalid_grant'],
      [{ subject_token: other.sessionToken, subject_token_type: SESSION_TOKEN_TYPE }, 'invalid_grant'],
      [{ subject_token: s.sessionToken }, 'invalid_request'],
      [{ subject_token: s.sessionToken, subject_token_type: 'urn:ietf:params:oauth:token-type:jwt' }, 'invalid_request'],
      [{ subject_token_type: SESSION_TOKEN_TYPE }, 'invalid_request'],
      [{ subject_token: s.sessionToken, subject_token_type: SESSION_TOKEN_TYPE, requested_token_type: 'urn:x' }, 'invalid_request'],
      [{ subject_token: s.sessionToken, subject_token_type: SESSION_TOKEN_TYPE, actor_token: 'x' }, 'invalid_request'],
    ];
    for (const [form, error] of cases) {
      const response = await postForm(t, '/auth/token', { grant_type: TOKEN_EXCHANGE, ...form }, auth);
      expect(response.statusCode, JSON.stringify(form)).toBe(400);
      expect(oauthErrorBody(response).error).toBe(error);
    }
    // An anonymous shell has no user: nothing to issue.
    const shell = await t.app.inject({ method: 'POST', url: '/sessions', headers: { authorization: `Bearer ${s.project.project_secret}` }, payload: { project_id: s.project.id } });
    const anonymous = await postForm(t, '/auth/token', { grant_type: TOKEN_EXCHANGE, subject_token: shell.json().session_token, subject_token_type: SESSION_TOKEN_TYPE }, auth);
    expect(oauthErrorBody(anonymous).error).toBe('invalid_grant');
    // A service key without session.write may not mint user tokens.
    const weak = await serviceKey(t, s.project, ['team.read']);
    const denied = await postForm(t, '/auth/token', { grant_type: TOKEN_EXCHANGE, subject_token: s.sessionToken, subject_token_type: SESSION_TOKEN_TYPE }, basic(weak.client_id, weak.client_secret));
    expect(oauthErrorBody(denied).error).toBe('unauthorized_client');
  });

  it('rotates refresh tokens on every use; reusing an old one revokes the whole family', async () => {
    const s = await userSession(t);
    const first = (await exchangeSession(t, s)).json();
    const second = await refresh(s, first.refresh_token);
    expect(second.statusCode, second.body).toBe(200);
    const rotated = second.json();
    expect(rotated.refresh_token).not.toBe(first.refresh_token);
    expect(rotated.id_token).toBeTypeOf('string');
    expect((await userinfo(rotated.access_token)).statusCode).toBe(200);
    const third = (await refresh(s, rotated.refresh_token)).json();

    const reuse = await refresh(s, first.refresh_token);
    expect(reuse.statusCode).toBe(400);
    expect(oauthErrorBody(reuse)).toMatchObject({ error: 'invalid_grant', code: 'oauth.invalid_grant' });
    // Everything of the family is dead now, including the newest pair.
    for (const token of [first.access_token, rotated.access_token, third.access_token]) expect((await userinfo(token)).statusCode).toBe(401);
    expect(oauthErrorBody(await refresh(s, third.refresh_token)).error).toBe('invalid_grant');
    // Another exchange of the same session starts a new, unaffected family.
    expect((await userinfo((await exchangeSession(t, s)).json().access_token)).statusCode).toBe(200);
  });

  it('refuses a refresh token of another client or project, and narrows scopes on refresh', async () => {
    const s = await userSession(t);
    const first = (await exchangeSession(t, s)).json();
    const other = await serviceKey(t, s.project, ['session.write']);
    const stolen = await postForm(t, '/auth/token', { grant_type: 'refresh_token', refresh_token: first.refresh_token }, basic(other.client_id, other.client_secret));
    expect(oauthErrorBody(stolen).error).toBe('invalid_grant');
    const narrowed = await refresh(s, first.refresh_token, { scope: 'openid' });
    expect(narrowed.json().scope).toBe('openid');
    const wider = await refresh(s, narrowed.json().refresh_token, { scope: 'openid offline_access' });
    expect(oauthErrorBody(wider).error).toBe('invalid_scope');
    // The rejected widening did not consume the token.
    expect((await refresh(s, narrowed.json().refresh_token)).json().scope).toBe('openid profile email');
    expect(oauthErrorBody(await refresh(s, 'gh_rt_nope')).error).toBe('invalid_grant');
    expect(oauthErrorBody(await refresh(s, '')).error).toBe('invalid_request');
  });

  it('kills every derived token at once when the session is deleted by an operator', async () => {
    const s = await userSession(t);
    const tokens = (await exchangeSession(t, s)).json();
    const deleted = await t.app.inject({ method: 'DELETE', url: `/sessions/${s.sessionId}`, headers: { authorization: `Bearer ${s.project.project_secret}` } });
    expect(deleted.statusCode).toBe(204);
    const info = await userinfo(tokens.access_token);
    expect(info.statusCode).toBe(401);
    expect(info.headers['www-authenticate']).toContain('error="invalid_token"');
    const introspected = await postForm(t, '/auth/introspect', { token: tokens.access_token }, basic(s.key.client_id, s.key.client_secret));
    expect(introspected.json()).toEqual({ active: false });
    expect(oauthErrorBody(await refresh(s, tokens.refresh_token)).error).toBe('invalid_grant');
    const rows = await t.container.db.selectFrom('oauth_tokens').select(['revoked_at']).where('session_id', '=', s.sessionId).execute();
    expect(rows.length).toBe(2);
    expect(rows.every((row) => row.revoked_at !== null)).toBe(true);
  });

  it('kills derived tokens on end-user logout (DELETE /sessions/me)', async () => {
    const s = await userSession(t);
    const tokens = (await exchangeSession(t, s)).json();
    const logout = await t.app.inject({
      method: 'DELETE',
      url: '/sessions/me',
      headers: { cookie: `__service_session=${s.sessionToken}`, origin: 'http://localhost:80', 'sec-fetch-site': 'same-origin' },
    });
    expect(logout.statusCode, logout.body).toBe(204);
    expect((await userinfo(tokens.access_token)).statusCode).toBe(401);
  });

  it('refuses an access token the moment its session expires, before the token itself would', async () => {
    const s = await userSession(t);
    t.clock.advance(24 * HOUR - 2 * MINUTE);
    const tokens = (await exchangeSession(t, s)).json();
    expect((await userinfo(tokens.access_token)).statusCode).toBe(200);
    t.clock.advance(3 * MINUTE);
    expect((await userinfo(tokens.access_token)).statusCode).toBe(401);
    const introspected = await postForm(t, '/auth/introspect', { token: tokens.access_token }, basic(s.key.client_id, s.key.client_secret));
    expect(introspected.json()).toEqual({ active: false });
  });

  it('stops derived tokens when the session expires, even without deletion', async () => {
    const s = await userSession(t);
    const tokens = (await exchangeSession(t, s)).json();
    t.clock.advance(4 * MINUTE);
    expect((await userinfo(tokens.access_token)).statusCode).toBe(200);
    t.clock.advance(2 * MINUTE);
    expect((await userinfo(tokens.access_token)).statusCode).toBe(401);
    // The refresh token still works while the session lives...
    const renewed = await refresh(s, tokens.refresh_token);
    expect(renewed.statusCode).toBe(200);
    // ...and not after it expired (default full session TTL is 24 h).
    t.clock.advance(25 * HOUR);
    expect(oauthErrorBody(await refresh(s, renewed.json().refresh_token)).error).toBe('invalid_grant');
  });
});
