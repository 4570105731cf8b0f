import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectWithUser, sessionCookie, type Fixture } from '../src/sessions/test-fixtures.js';
import { bearer, createTestApp, type TestApp } from './helpers/app.js';

/**
 * The routes whose answers may be cached: they carry neither a secret nor personal data. Adding a
 * route here is a decision (src/http/response-headers.ts); every other route answers no-store.
 */
const CACHEABLE = ['GET /', 'GET /.well-known/openid-configuration', 'GET /auth/form_post.js', 'GET /auth/jwks', 'GET /openapi.json'];

const expectNoStore = (response: { headers: Record<string, unknown> }, name: string) => {
  expect(response.headers['cache-control'], name).toBe('no-store');
  expect(response.headers['x-content-type-options'], name).toBe('nosniff');
};

describe('Cache-Control: no-store and nosniff on answers with secrets or personal data', () => {
  let t: TestApp;
  let fixture: Fixture;

  beforeAll(async () => {
    t = await createTestApp();
    fixture = await projectWithUser(t);
  });
  afterAll(async () => t.close());

  it('declares exactly the reviewed routes cacheable; every other route, by catalog, answers no-store', async () => {
    const routes = t.app.routeCatalog.filter((route) => route.method !== 'HEAD');
    expect(routes.filter((route) => route.cacheable).map((route) => `${route.method} ${route.url}`).sort()).toEqual(CACHEABLE);
    for (const route of routes.filter((r) => !r.cacheable)) {
      // A request without credentials reaches each route; whatever it answers, the headers are there.
      const url = route.url.replace(/:(\w+)(\([^)]*\))?|\*/g, 'x_0000');
      const response = await t.app.inject({ method: route.method as 'GET', url, ...(route.method === 'GET' || route.method === 'DELETE' ? {} : { payload: {} }) });
      expectNoStore(response, `${route.method} ${route.url} (${response.statusCode})`);
    }
  });

  it('a project secret, a session token, a user and the current session are never cacheable', async () => {
    const project = await t.app.inject({ method: 'POST', url: '/projects', headers: bearer(t.adminToken), payload: { name: 'Secret holder' } });
    expect(project.statusCode).toBe(201);
    expectNoStore(project, 'POST /projects');

    const session = await t.app.inject({ method: 'POST', url: '/sessions', headers: bearer(fixture.project.project_secret), payload: { project_id: fixture.project.id } });
    expect(session.statusCode).toBe(201);
    expectNoStore(session, 'POST /sessions');

    const me = await t.app.inject({ method: 'GET', url: '/sessions/me', headers: sessionCookie(session.json().session_token) });
    expect(me.statusCode).toBe(200);
    expectNoStore(me, 'GET /sessions/me');

    const user = await t.app.inject({ method: 'GET', url: `/users/${fixture.userId}`, headers: bearer(fixture.project.project_secret) });
    expect(user.statusCode).toBe(200);
    expectNoStore(user, 'GET /users/{id}');

    const flow = await t.app.inject({ method: 'POST', url: '/flow', payload: { project_id: fixture.project.id, purpose: 'login' } });
    expect(flow.statusCode).toBe(200);
    expectNoStore(flow, 'POST /flow');
  });

  it('unrouted answers are no-store too; cacheable routes keep their own Cache-Control', async () => {
    expectNoStore(await t.app.inject({ method: 'GET', url: '/no/such/route' }), '404');
    const jwks = await t.app.inject({ method: 'GET', url: '/auth/jwks' });
    expect(jwks.headers['cache-control']).toBe('public, max-age=300');
    expect(jwks.headers['x-content-type-options']).toBe('nosniff');
  });
});
