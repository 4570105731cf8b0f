import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createListeningTestApp, createTestApp, errorBody, type TestApp } from '../../test/helpers/app.js';
import { MINUTE } from '../core/clock.js';
import { sessionCookie } from './test-fixtures.js';

function cookieOf(response: { headers: Record<string, unknown> }, name = '__service_session'): string | undefined {
  const raw = response.headers['set-cookie'];
  const all = Array.isArray(raw) ? raw : raw ? [String(raw)] : [];
  return all.find((c: string) => c.startsWith(`${name}=`));
}

describe('anonymous sessions and /sessions/me', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t.close());

  async function createShell(secret: string, projectId: string, extra: Record<string, unknown> = {}, headers: Record<string, string> = {}) {
    return t.app.inject({ method: 'POST', url: '/sessions', headers: { ...bearer(secret), ...headers }, payload: { project_id: projectId, ...extra } });
  }

  it('creates a building shell for 10 minutes with a cookie and a hashed token', async () => {
    const project = await t.createProject();
    const response = await createShell(project.project_secret, project.id, { fingerprint: 'fp-123', metadata: { app: 'shop' } });
    expect(response.statusCode).toBe(201);
    const body = response.json();
    expect(body.session_token).toMatch(/^gh_st_[\w-]{43}$/);
    const now = t.clock.now();
    expect(body.session).toEqual({
      session_id: expect.stringMatching(/^sess_/),
      project_id: project.id,
      state: 'building',
      factors: [],
      assurance_levels: [],
      metadata: { app: 'shop' },
      user_agent: { fingerprint: 'fp-123', ip: '127.0.0.1' },
      created_at: now.toISOString(),
      expires_at: new Date(now.getTime() + 10 * MINUTE).toISOString(),
    });
    const cookie = cookieOf(response)!;
    expect(cookie).toContain(`__service_session=${body.session_token}`);
    expect(cookie).toContain('Max-Age=600');
    expect(cookie).toContain('HttpOnly');
    expect(cookie).toContain('SameSite=Lax');
    expect(cookie).toContain('Path=/');
    // inject talks plain http to localhost: the loopback development exception.
    expect(cookie).not.toContain('Secure');
    const row = await t.container.db.selectFrom('sessions').selectAll().where('id', '=', body.session.session_id).executeTakeFirstOrThrow();
    expect(row.token_hash).toHaveLength(64);
    expect(JSON.stringify(row)).not.toContain(body.session_token);
  });

  it('marks the cookie Secure for any host but plain-http loopback', async () => {
    const project = await t.createProject();
    const remote = await createShell(project.project_secret, project.id, {}, { host: 'auth.example.com' });
    expect(remote.statusCode).toBe(201);
    expect(cookieOf(remote)).toMatch(/; Secure/);
    const loopback = await createShell(project.project_secret, project.id, {}, { host: '127.0.0.1:8080' });
    expect(cookieOf(loopback)).not.toMatch(/; Secure/);
  });

  it('takes the client IP from forwarding headers only behind a trusted proxy', async () => {
    const project = await t.createProject();
    const untrusted = await createShell(project.project_secret, project.id, {}, { 'x-forwarded-for': '203.0.113.9' });
    expect(untrusted.json().session.user_agent.ip).toBe('127.0.0.1');
    const proxied = await createTestApp({ trustedProxies: ['127.0.0.1'] });
    try {
      const p = await proxied.createProject();
      const response = await proxied.app.inject({
        method: 'POST',
        url: '/sessions',
        headers: { ...bearer(p.project_secret), 'x-forwarded-for': '203.0.113.9' },
        payload: { project_id: p.id },
      });
      expect(response.json().session.user_agent.ip).toBe('203.0.113.9');
    } finally {
      await proxied.close();
    }
  });

  it('answers 400, 401, 403 and 404 on POST /sessions', async () => {
    const project = await t.createProject();
    const other = await t.createProject();
    for (const payload of [{}, { project_id: 7 }, { project_id: project.id, extra: 1 }, { project_id: project.id, fingerprint: 'x'.repeat(600) }]) {
      const response = await t.app.inject({ method: 'POST', url: '/sessions', headers: bearer(project.project_secret), payload });
      expect(response.statusCode).toBe(400);
      expect(errorBody(response).code).toBe('req.invalid');
    }
    expect((await createShell('gh_ps_wrong', project.id)).statusCode).toBe(401);
    const preview = await createShell(project.preview_secret, project.id);
    expect(preview.statusCode).toBe(403);
    expect(errorBody(preview)).toMatchObject({ code: 'auth.forbidden', details: { required_scope: 'session.write' } });
    const cross = await createShell(other.project_secret, project.id);
    expect(cross.statusCode).toBe(404);
    expect(errorBody(cross).code).toBe('proj.not_found');
  });

  it('GET /sessions/me returns the session behind the cookie (or a bearer session token) and 401 otherwise', async () => {
    const project = await t.createProject();
    const created = (await createShell(project.project_secret, project.id)).json();
    const me = await t.app.inject({ method: 'GET', url: '/sessions/me', headers: sessionCookie(created.session_token) });
    expect(me.statusCode).toBe(200);
    expect(me.json()).toEqual(created.session);
    // DESIGN §4.17: backends that hold the token may send it as a bearer instead of the cookie.
    expect((await t.app.inject({ method: 'GET', url: '/sessions/me', headers: bearer(created.session_token) })).json()).toEqual(created.session);
    for (const headers of [{}, sessionCookie('gh_st_unknown'), sessionCookie('garbage'), { cookie: '__service_session=' }, bearer('gh_st_unknown'), bearer(project.project_secret)]) {
      const response = await t.app.inject({ method: 'GET', url: '/sessions/me', headers });
      expect(response.statusCode).toBe(401);
      expect(errorBody(response)).toMatchObject({ code: 'auth.unauthorized', message: 'Missing or invalid session token' });
    }
  });

  it('expires the shell after 10 minutes (moved clock)', async () => {
    const project = await t.createProject();
    const created = (await createShell(project.project_secret, project.id)).json();
    t.clock.advance(10 * MINUTE - 1);
    expect((await t.app.inject({ method: 'GET', url: '/sessions/me', headers: sessionCookie(created.session_token) })).statusCode).toBe(200);
    t.clock.advance(1);
    expect((await t.app.inject({ method: 'GET', url: '/sessions/me', headers: sessionCookie(created.session_token) })).statusCode).toBe(401);
    const read = await t.app.inject({ method: 'GET', url: `/sessions/${created.session.session_id}`, headers: bearer(project.project_secret) });
    expect(read.json()).toMatchObject({ state: 'expired', assurance_levels: [] });
  });

  it('DELETE /sessions/me logs out idempotently, clears the cookie and refuses cross-site requests', async () => {
    const project = await t.createProject();
    const created = (await createShell(project.project_secret, project.id)).json();
    const crossSite = [
      { 'sec-fetch-site': 'cross-site' },
      { origin: 'https://evil.example' },
      { origin: 'null' },
      { 'sec-fetch-site': 'same-site', origin: 'https://sub.example.com' },
    ];
    for (const headers of crossSite) {
      const response = await t.app.inject({ method: 'DELETE', url: '/sessions/me', headers: { ...sessionCookie(created.session_token), ...headers } });
      expect(response.statusCode).toBe(403);
      expect(errorBody(response).code).toBe('auth.csrf_invalid');
    }
    expect((await t.app.inject({ method: 'GET', url: '/sessions/me', headers: sessionCookie(created.session_token) })).statusCode).toBe(200);

    const sameOrigin = { ...sessionCookie(created.session_token), 'sec-fetch-site': 'same-origin', origin: 'http://localhost:80' };
    const first = await t.app.inject({ method: 'DELETE', url: '/sessions/me', headers: sameOrigin });
    expect(first.statusCode).toBe(204);
    expect(first.body).toBe('');
    const cleared = cookieOf(first)!;
    expect(cleared).toMatch(/^__service_session=;/);
    expect(cleared).toContain('Max-Age=0');
    expect(cleared).toContain('HttpOnly');
    expect((await t.app.inject({ method: 'GET', url: '/sessions/me', headers: sessionCookie(created.session_token) })).statusCode).toBe(401);
    const read = await t.app.inject({ method: 'GET', url: `/sessions/${created.session.session_id}`, headers: bearer(project.project_secret) });
    expect(read.statusCode).toBe(404);
    // Repeating the logout with the same (now dead) cookie is still 204; without a cookie it is 401.
    const again = await t.app.inject({ method: 'DELETE', url: '/sessions/me', headers: { ...sessionCookie(created.session_token), origin: 'http://localhost' } });
    expect(again.statusCode).toBe(204);
    const none = await t.app.inject({ method: 'DELETE', url: '/sessions/me' });
    expect(none.statusCode).toBe(401);
    expect(errorBody(none).message).toBe('Missing or invalid session token');
  });

  it('accepts logout from the project\'s preview origins and from the configured public URL', async () => {
    const created = await t.app.inject({
      method: 'POST',
      url: '/projects',
      headers: bearer(t.adminToken),
      payload: { name: 'With frontend', preview_origins: ['https://app.example.com'] },
    });
    const project = created.json();
    const logout = async (headers: Record<string, string>) => {
      const shell = (await createShell(project.project_secret, project.id)).json();
      return t.app.inject({ method: 'DELETE', url: '/sessions/me', headers: { ...sessionCookie(shell.session_token), ...headers } });
    };
    expect((await logout({ 'sec-fetch-site': 'same-site', origin: 'https://app.example.com' })).statusCode).toBe(204);
    expect((await logout({ origin: 'https://app.example.com' })).statusCode).toBe(204);
    expect((await logout({ 'sec-fetch-site': 'same-site', origin: 'https://other.example.com' })).statusCode).toBe(403);
    // A frontend the project listed may sit on another site (issue 12 item 4: CORS for preview origins);
    // any other cross-site origin is refused.
    expect((await logout({ 'sec-fetch-site': 'cross-site', origin: 'https://app.example.com' })).statusCode).toBe(204);
    expect((await logout({ 'sec-fetch-site': 'cross-site', origin: 'https://other.example.com' })).statusCode).toBe(403);
    expect((await logout({ 'sec-fetch-site': 'cross-site' })).statusCode).toBe(403);

    const behindProxy = await createTestApp({ publicUrl: 'https://auth.example.com' });
    try {
      const p = await behindProxy.createProject();
      const shellOf = async () =>
        (await behindProxy.app.inject({ method: 'POST', url: '/sessions', headers: bearer(p.project_secret), payload: { project_id: p.id } })).json().session_token;
      const own = await behindProxy.app.inject({ method: 'DELETE', url: '/sessions/me', headers: { ...sessionCookie(await shellOf()), origin: 'https://auth.example.com' } });
      expect(own.statusCode).toBe(204);
      const internal = await behindProxy.app.inject({ method: 'DELETE', url: '/sessions/me', headers: { ...sessionCookie(await shellOf()), origin: 'http://localhost' } });
      expect(internal.statusCode).toBe(403);
    } finally {
      await behindProxy.close();
    }
  });

  it('never answers 5xx to arbitrary bodies on the session endpoints', async () => {
    const project = await t.createProject();
    const values = fc.oneof(fc.string(), fc.integer(), fc.boolean(), fc.constant(null), fc.object(), fc.array(fc.string()), fc.date({ noInvalidDate: true }).map((d) => d.toISOString()));
    const keys = fc.constantFrom('project_id', 'fingerprint', 'metadata', 'handoff_token', 'ttl', 'user_id', 'state', 'created_after', 'created_before', 'sort', 'limit', 'page_token', 'lifecycle_owner_team_id', 'x');
    const urls = ['/sessions', `/sessions/exchange?project_id=${project.id}`, `/sessions/query?project_id=${project.id}`];
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...urls), fc.dictionary(keys, values), async (url, payload) => {
        const response = await t.app.inject({ method: 'POST', url, headers: bearer(project.project_secret), payload });
        expect(response.statusCode, `${url} ${JSON.stringify(payload)} -> ${response.body}`).toBeLessThan(500);
      }),
      { numRuns: 150 },
    );
  });

  it('works over real HTTP: the cookie set by POST /sessions authenticates /sessions/me and logout clears it', async () => {
    // Listening on its own port, named by its public URL: the logout's Origin is that URL's.
    const served = await createListeningTestApp();
    const project = await served.createProject();
    const address = served.base;
    try {
      const created = await fetch(`${address}/sessions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${project.project_secret}`, 'content-type': 'application/json' },
        body: JSON.stringify({ project_id: project.id }),
      });
      expect(created.status).toBe(201);
      const setCookie = created.headers.get('set-cookie')!;
      expect(setCookie).toMatch(/^__service_session=gh_st_[\w-]+; Max-Age=600; Path=\/; HttpOnly; SameSite=Lax$/);
      const cookie = setCookie.split(';')[0];
      const me = await fetch(`${address}/sessions/me`, { headers: { cookie } });
      expect(me.status).toBe(200);
      expect(((await me.json()) as { state: string }).state).toBe('building');
      const logout = await fetch(`${address}/sessions/me`, { method: 'DELETE', headers: { cookie, origin: address } });
      expect(logout.status).toBe(204);
      expect(logout.headers.get('set-cookie')).toMatch(/^__service_session=; Max-Age=0; Path=\/; HttpOnly; SameSite=Lax$/);
      expect((await fetch(`${address}/sessions/me`, { headers: { cookie } })).status).toBe(401);
    } finally {
      await served.close();
    }
  });
});
