import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, errorBody, type TestApp } from './helpers/app.js';
import { MINUTE } from '../src/core/clock.js';
import { basic, clientToken, exchangeSession, FORM, oauthErrorBody, postForm, serviceKey, userSession, type UserSession } from '../src/oauth/testing.js';

describe('revocation (RFC 7009), introspection (RFC 7662), userinfo (RFC 6750 errors)', () => {
  let t: TestApp;
  let s: UserSession;
  beforeAll(async () => {
    t = await createTestApp();
    s = await userSession(t);
  });
  afterAll(async () => t.close());

  const userinfo = (headers: Record<string, string>, method: 'GET' | 'POST' = 'GET') => t.app.inject({ method, url: '/auth/userinfo', headers });
  const auth = () => basic(s.key.client_id, s.key.client_secret);
  const revoke = (form: Record<string, string>, headers: Record<string, string> = auth()) => postForm(t, '/auth/revoke', form, headers);
  const introspect = (token: string, headers: Record<string, string> = auth()) => postForm(t, '/auth/introspect', { token }, headers);

  it('a service-key token with user.read reads users but gets 403 on user.write; another project gets 404', async () => {
    const key = await serviceKey(t, s.project, ['user.read', 'user.write']);
    const token = await clientToken(t, key.client_id, key.client_secret, 'user.read');
    expect((await t.app.inject({ method: 'GET', url: `/users/${s.userId}`, headers: bearer(token) })).statusCode).toBe(200);
    const write = await t.app.inject({ method: 'PUT', url: `/users/${s.userId}/password`, headers: bearer(token), payload: { password: 'correct horse battery staple 42' } });
    expect(write.statusCode).toBe(403);
    expect(errorBody(write).code).toBe('auth.forbidden');
    const other = await t.createProject();
    const otherKey = await serviceKey(t, other, ['user.read']);
    const foreign = await clientToken(t, otherKey.client_id, otherKey.client_secret);
    const read = await t.app.inject({ method: 'GET', url: `/users/${s.userId}`, headers: bearer(foreign) });
    expect(read.statusCode).toBe(404);
    expect(errorBody(read).code).toBe('user.not_found');
  });

  it('revokes an access token: 200 with an empty body, refused on the very next request', async () => {
    const tokens = (await exchangeSession(t, s)).json();
    const response = await revoke({ token: tokens.access_token, token_type_hint: 'access_token' });
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe('');
    const info = await userinfo(bearer(tokens.access_token));
    expect(info.statusCode).toBe(401);
    expect(info.headers['www-authenticate']).toMatch(/^Bearer .*error="invalid_token"/);
    expect(oauthErrorBody(info)).toMatchObject({ error: 'invalid_token', code: 'oauth.invalid_token' });
    // The refresh token of that grant is untouched by revoking one access token.
    expect((await postForm(t, '/auth/token', { grant_type: 'refresh_token', refresh_token: tokens.refresh_token }, auth())).statusCode).toBe(200);
  });

  it('revoking a refresh token revokes its access tokens too', async () => {
    const tokens = (await exchangeSession(t, s)).json();
    expect((await revoke({ token: tokens.refresh_token })).statusCode).toBe(200);
    expect((await userinfo(bearer(tokens.access_token))).statusCode).toBe(401);
    expect((await introspect(tokens.refresh_token)).json()).toEqual({ active: false });
  });

  it('answers 200 for unknown, already revoked and garbage tokens', async () => {
    const tokens = (await exchangeSession(t, s)).json();
    for (const token of ['gh_at_unknown', 'not-a-token', 'x'.repeat(2000), tokens.access_token, tokens.access_token]) {
      expect((await revoke({ token, token_type_hint: 'something_else' })).statusCode).toBe(200);
    }
  });

  it("leaves another project's and another client's tokens alone", async () => {
    const other = await userSession(t);
    const theirs = (await exchangeSession(t, other)).json();
    expect((await revoke({ token: theirs.access_token })).statusCode).toBe(200);
    expect((await userinfo(bearer(theirs.access_token))).statusCode).toBe(200);
    expect((await introspect(theirs.access_token)).json()).toEqual({ active: false });

    const sibling = await serviceKey(t, s.project, ['team.read']);
    const mine = (await exchangeSession(t, s)).json();
    expect((await revoke({ token: mine.access_token }, basic(sibling.client_id, sibling.client_secret))).statusCode).toBe(200);
    expect((await userinfo(bearer(mine.access_token))).statusCode).toBe(200);
    // The project's root client may revoke any token of its project.
    expect((await revoke({ token: mine.access_token }, basic(s.project.id, s.project.project_secret))).statusCode).toBe(200);
    expect((await userinfo(bearer(mine.access_token))).statusCode).toBe(401);
  });

  it('accepts a bearer credential (interface: "Bearer header"): project secret, or the user\'s own access token for logout', async () => {
    const a = (await exchangeSession(t, s)).json();
    expect((await revoke({ token: a.access_token }, bearer(s.project.project_secret))).statusCode).toBe(200);
    expect((await userinfo(bearer(a.access_token))).statusCode).toBe(401);
    const b = (await exchangeSession(t, s)).json();
    expect((await revoke({ token: b.refresh_token }, bearer(b.access_token))).statusCode).toBe(200);
    expect((await userinfo(bearer(b.access_token))).statusCode).toBe(401);
    const bad = await revoke({ token: 'x' }, bearer('gh_at_forged'));
    expect(bad.statusCode).toBe(401);
    expect(bad.headers['www-authenticate']).toContain('error="invalid_token"');
    expect(oauthErrorBody(bad).error).toBe('invalid_token');
  });

  it("an end user's access token revokes only that user's own tokens; the client and the project keep their rights", async () => {
    // Two users of the same project and the same client.
    const other = await userSession(t, s.project);
    const mine = (await exchangeSession(t, s)).json();
    const theirs = (await exchangeSession(t, { ...other, key: s.key })).json();
    for (const token of [theirs.refresh_token, theirs.access_token]) {
      // RFC 7009: the answer is 200 either way, so it is no oracle; nothing is revoked.
      expect((await revoke({ token }, bearer(mine.access_token))).statusCode).toBe(200);
    }
    expect((await introspect(theirs.refresh_token)).json().active).toBe(true);
    expect((await userinfo(bearer(theirs.access_token))).statusCode).toBe(200);
    // Concurrent attempts change nothing either.
    await Promise.all(Array.from({ length: 10 }, () => revoke({ token: theirs.refresh_token }, bearer(mine.access_token))));
    expect((await introspect(theirs.refresh_token)).json().active).toBe(true);
    // The client (confidential, authenticated) and the project secret still revoke any user's tokens.
    expect((await revoke({ token: theirs.access_token })).statusCode).toBe(200);
    expect((await userinfo(bearer(theirs.access_token))).statusCode).toBe(401);
    expect((await revoke({ token: theirs.refresh_token }, bearer(s.project.project_secret))).statusCode).toBe(200);
    expect((await introspect(theirs.refresh_token)).json().active).toBe(false);
    // And the user's own tokens still go with the user's own token.
    expect((await revoke({ token: mine.refresh_token }, bearer(mine.access_token))).statusCode).toBe(200);
    expect((await introspect(mine.refresh_token)).json().active).toBe(false);
  });

  it('revokes client-credentials tokens for management endpoints from the next request', async () => {
    const key = await serviceKey(t, s.project, ['team.read', 'project.write']);
    const token = await clientToken(t, key.client_id, key.client_secret);
    expect((await t.app.inject({ method: 'GET', url: `/projects/${s.project.id}`, headers: bearer(token) })).statusCode).toBe(200);
    expect((await introspect(token, basic(key.client_id, key.client_secret))).json()).toMatchObject({ active: true, scope: 'team.read project.write', token_type: 'Bearer' });
    expect((await revoke({ token }, basic(key.client_id, key.client_secret))).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: `/projects/${s.project.id}`, headers: bearer(token) })).statusCode).toBe(401);
  });

  it('revocation error matrix: missing token, no or bad client, malformed body', async () => {
    const missing = await revoke({});
    expect(missing.statusCode).toBe(400);
    expect(oauthErrorBody(missing).error).toBe('invalid_request');
    const anonymous = await revoke({ token: 'x' }, {});
    expect(anonymous.statusCode).toBe(401);
    expect(oauthErrorBody(anonymous).error).toBe('invalid_client');
    const wrong = await revoke({ token: 'x' }, basic(s.key.client_id, 'gh_sk_wrong'));
    expect(wrong.statusCode).toBe(401);
    expect(wrong.headers['www-authenticate']).toMatch(/^Basic/);
    const json = await t.app.inject({ method: 'POST', url: '/auth/revoke', headers: auth(), payload: { token: 'x' } });
    expect(oauthErrorBody(json).error).toBe('invalid_request');
    const repeated = await t.app.inject({ method: 'POST', url: '/auth/revoke', headers: { ...FORM, ...auth() }, payload: 'token=a&token=b' });
    expect(oauthErrorBody(repeated).error).toBe('invalid_request');
  });

  it('introspection: active fields for live tokens, {active:false} for expired ones, client authentication required', async () => {
    const tokens = (await exchangeSession(t, s)).json();
    const live = (await introspect(tokens.access_token)).json();
    expect(live).toMatchObject({ active: true, scope: 'openid profile email', sub: s.userId, sid: s.sessionId, token_type: 'Bearer' });
    expect(live.exp - live.iat).toBe(300);
    expect((await introspect(tokens.refresh_token)).json()).toMatchObject({ active: true, token_type: 'refresh_token' });
    t.clock.advance(5 * MINUTE);
    expect((await introspect(tokens.access_token)).json()).toEqual({ active: false });
    const anonymous = await introspect(tokens.refresh_token, {});
    expect(anonymous.statusCode).toBe(401);
    expect(oauthErrorBody(anonymous).error).toBe('invalid_client');
    expect(oauthErrorBody(await postForm(t, '/auth/introspect', {}, auth())).error).toBe('invalid_request');
  });

  it('userinfo error matrix (RFC 6750 §3)', async () => {
    const none = await userinfo({});
    expect(none.statusCode).toBe(401);
    expect(none.headers['www-authenticate']).toBe('Bearer realm="gatehouse"');
    expect(oauthErrorBody(none).error).toBe('invalid_token');
    for (const headers of [bearer('gh_at_unknown'), bearer('garbage'), { authorization: 'Basic YTpi' }, bearer(s.sessionToken)]) {
      const response = await userinfo(headers);
      expect(response.statusCode).toBe(401);
      expect(response.headers['www-authenticate']).toContain('error="invalid_token"');
    }
    const clientOnly = await clientToken(t, s.key.client_id, s.key.client_secret);
    const noOpenid = (await exchangeSession(t, s, { scope: 'profile email' })).json();
    for (const token of [clientOnly, noOpenid.access_token]) {
      const response = await userinfo(bearer(token));
      expect(response.statusCode).toBe(403);
      expect(response.headers['www-authenticate']).toContain('error="insufficient_scope"');
      expect(oauthErrorBody(response)).toMatchObject({ error: 'insufficient_scope', code: 'oauth.insufficient_scope' });
    }
    const ok = (await exchangeSession(t, s)).json();
    const post = await userinfo(bearer(ok.access_token), 'POST');
    expect(post.statusCode).toBe(200);
    expect(post.json().sub).toBe(s.userId);
    expect(post.headers['cache-control']).toBe('no-store');
  });
});
