import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, errorBody, type TestApp } from './helpers/app.js';

/**
 * CORS for the browser plane (issue 12 item 4): a frontend on one of a project's preview origins
 * runs flows and reads /sessions/me from another origin, with credentials; nobody else, never `*`.
 */
describe('CORS on the browser plane', () => {
  let t: TestApp;
  let shop: { id: string; project_secret: string };
  let other: { id: string; project_secret: string };
  const SHOP = 'https://shop.example';
  const STRANGER = 'https://evil.example';

  beforeAll(async () => {
    t = await createTestApp({ trustedProxies: ['127.0.0.1'] });
    shop = await t.createProject('Shop');
    other = await t.createProject('Other');
    const patched = await t.app.inject({ method: 'PATCH', url: `/projects/${shop.id}`, headers: bearer(shop.project_secret), payload: { preview_origins: [SHOP] } });
    expect(patched.statusCode, patched.body).toBe(200);
  });
  afterAll(async () => t.close());

  const preflight = (url: string, origin: string, method = 'POST') =>
    t.app.inject({ method: 'OPTIONS', url, headers: { origin, 'access-control-request-method': method, 'access-control-request-headers': 'content-type' } });

  it('answers a preflight from a listed origin with that origin and credentials, never *', async () => {
    for (const url of ['/flow', '/flow/flow_x/submit', '/flow/flow_x', '/flow/flow_x/event', '/sessions/me']) {
      const answer = await preflight(url, SHOP, url === '/sessions/me' ? 'GET' : 'POST');
      expect(answer.statusCode, url).toBe(204);
      expect(answer.headers['access-control-allow-origin']).toBe(SHOP);
      expect(answer.headers['access-control-allow-credentials']).toBe('true');
      expect(String(answer.headers['access-control-allow-headers'])).toContain('content-type');
      expect(answer.headers.vary).toContain('Origin');
    }
    expect((await preflight('/sessions/me', SHOP, 'DELETE')).headers['access-control-allow-methods']).toBe('GET, DELETE');
  });

  it('refuses a preflight from an origin no project lists, and leaves other routes alone', async () => {
    const refused = await preflight('/flow', STRANGER);
    expect(refused.statusCode).toBe(403);
    expect(errorBody(refused).code).toBe('auth.csrf_invalid');
    expect(refused.headers['access-control-allow-origin']).toBeUndefined();
    // Management routes are not part of the browser plane: no CORS at all.
    const management = await preflight(`/projects/${shop.id}`, SHOP, 'PATCH');
    expect(management.headers['access-control-allow-origin']).toBeUndefined();
    expect(management.statusCode).toBeGreaterThanOrEqual(400);
  });

  it('makes answers readable only for the project the request acts for', async () => {
    const own = await t.app.inject({ method: 'POST', url: '/flow', headers: { origin: SHOP }, payload: { project_id: shop.id, purpose: 'login' } });
    expect(own.statusCode).toBe(200);
    expect(own.headers['access-control-allow-origin']).toBe(SHOP);
    expect(own.headers['access-control-allow-credentials']).toBe('true');
    // The same origin starting a flow of a project that does not list it cannot read the answer.
    const foreign = await t.app.inject({ method: 'POST', url: '/flow', headers: { origin: SHOP }, payload: { project_id: other.id, purpose: 'login' } });
    expect(foreign.headers['access-control-allow-origin']).toBeUndefined();
    const stranger = await t.app.inject({ method: 'POST', url: '/flow', headers: { origin: STRANGER }, payload: { project_id: shop.id, purpose: 'login' } });
    expect(stranger.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('runs a whole flow cross-site from the listed frontend over https: SameSite=None; Secure cookies, CSRF passes', async () => {
    const crossSite = { origin: SHOP, 'sec-fetch-site': 'cross-site', 'x-forwarded-proto': 'https' };
    const started = await t.app.inject({ method: 'POST', url: '/flow', headers: crossSite, payload: { project_id: shop.id, purpose: 'register' } });
    expect(started.statusCode, started.body).toBe(200);
    const cookie = started.cookies.find((c) => c.name === '_zflow')!;
    expect(cookie.sameSite).toBe('None');
    expect(cookie.secure).toBe(true);
    const submitted = await t.app.inject({
      method: 'POST',
      url: `/flow/${started.json().id}/submit`,
      headers: { ...crossSite, cookie: `_zflow=${cookie.value}` },
      payload: { action: 'create', fields: { email: 'cross@example.com', 'name.given': 'C', 'name.family': 'S', password: 'correct horse battery staple 42' } },
    });
    expect(submitted.statusCode, submitted.body).toBe(200);
    expect(submitted.headers['access-control-allow-origin']).toBe(SHOP);
    expect(submitted.json().handoff_token).toMatch(/^gh_ho_/);

    // The same submit from a cross-site page the project did not list is refused.
    const again = await t.app.inject({ method: 'POST', url: '/flow', headers: { ...crossSite, origin: STRANGER }, payload: { project_id: shop.id, purpose: 'register' } });
    const stolen = await t.app.inject({
      method: 'POST',
      url: `/flow/${again.json().id}/submit`,
      headers: { ...crossSite, origin: STRANGER, cookie: `_zflow=${again.cookies.find((c) => c.name === '_zflow')!.value}` },
      payload: { action: 'create', fields: { email: 'x@example.com' } },
    });
    expect(stolen.statusCode).toBe(403);
    expect(errorBody(stolen).code).toBe('auth.csrf_invalid');
  });

  it('same-origin and plain-http requests keep SameSite=Lax', async () => {
    const started = await t.app.inject({ method: 'POST', url: '/flow', headers: { origin: SHOP, 'sec-fetch-site': 'cross-site' }, payload: { project_id: shop.id, purpose: 'login' } });
    expect(started.cookies.find((c) => c.name === '_zflow')!.sameSite).toBe('Lax');
    const plain = await t.app.inject({ method: 'POST', url: '/flow', payload: { project_id: shop.id, purpose: 'login' } });
    expect(plain.cookies.find((c) => c.name === '_zflow')!.sameSite).toBe('Lax');
    expect(plain.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('/sessions/me is readable by the listed frontend, and only by it', async () => {
    const issued = await t.app.inject({ method: 'POST', url: '/sessions', headers: bearer(shop.project_secret), payload: { project_id: shop.id } });
    const token = issued.json().session_token;
    const me = await t.app.inject({ method: 'GET', url: '/sessions/me', headers: { origin: SHOP, authorization: `Bearer ${token}` } });
    expect(me.statusCode).toBe(200);
    expect(me.headers['access-control-allow-origin']).toBe(SHOP);
    const stranger = await t.app.inject({ method: 'GET', url: '/sessions/me', headers: { origin: STRANGER, authorization: `Bearer ${token}` } });
    expect(stranger.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('a project id that cannot be an id (a NUL byte, PostgreSQL refuses it) answers 4xx from any origin, never 500', async () => {
    // Found by test/property.test.ts on PostgreSQL: the CORS hook looked the raw id up after the
    // handler had answered, and the refused value broke the answer.
    for (const projectId of [`${shop.id}\u0000`, 'proj_\u0000', `${'x'.repeat(5000)}`]) {
      for (const origin of [SHOP, STRANGER]) {
        const answer = await t.app.inject({ method: 'POST', url: '/flow', headers: { origin }, payload: { project_id: projectId, purpose: 'login' } });
        expect(answer.statusCode, answer.body).toBeGreaterThanOrEqual(400);
        expect(answer.statusCode, answer.body).toBeLessThan(500);
        expect(errorBody(answer).code).toMatch(/^[a-z_.]+$/);
        expect(answer.headers['access-control-allow-origin']).toBeUndefined();
      }
    }
  });

  it('declares CORS exactly on the browser plane: the flow runtime and /sessions/me', () => {
    const declared = t.app.routeCatalog.filter((route) => route.cors && route.method !== 'HEAD').map((route) => `${route.method} ${route.url}`).sort();
    expect(declared).toEqual(['DELETE /sessions/me', 'GET /flow/:id', 'GET /sessions/me', 'POST /flow', 'POST /flow/:id/event', 'POST /flow/:id/submit'].sort());
  });
});
