import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, errorBody, type TestApp } from '../../test/helpers/app.js';

describe('projects', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t.close());

  it('creates a project with secrets shown once and reads it back without them', async () => {
    const created = await t.app.inject({ method: 'POST', url: '/projects', headers: bearer(t.adminToken), payload: { name: 'Shop' } });
    expect(created.statusCode).toBe(201);
    const project = created.json();
    expect(project.id).toMatch(/^proj_/);
    expect(project.project_secret).toMatch(/^gh_ps_/);
    expect(project.preview_secret).toMatch(/^gh_pv_/);
    expect(project.preview_origins).toEqual([]);

    const read = await t.app.inject({ method: 'GET', url: `/projects/${project.id}`, headers: bearer(project.project_secret) });
    expect(read.statusCode).toBe(200);
    expect(read.json()).toEqual({
      id: project.id,
      name: 'Shop',
      preview_origins: [],
      created_at: project.created_at,
      updated_at: project.updated_at,
    });
    expect(read.body).not.toContain('secret');
  });

  it('stores secrets only as hashes', async () => {
    const project = await t.createProject();
    const row = await t.container.db.selectFrom('projects').selectAll().where('id', '=', project.id).executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain(project.project_secret);
    expect(row.secret_hash).toHaveLength(64);
  });

  it('answers 401 without or with a bad bearer, with WWW-Authenticate', async () => {
    for (const headers of [{}, bearer('gh_ps_nope'), { authorization: 'Basic abc' }]) {
      const response = await t.app.inject({ method: 'POST', url: '/projects', headers, payload: { name: 'x' } });
      expect(response.statusCode).toBe(401);
      expect(response.headers['www-authenticate']).toMatch(/^Bearer/);
      expect(errorBody(response)).toMatchObject({ code: 'auth.unauthorized', message: 'The request lacks valid authentication credentials.' });
    }
  });

  it('refuses project creation with a project secret (403)', async () => {
    const project = await t.createProject();
    const response = await t.app.inject({ method: 'POST', url: '/projects', headers: bearer(project.project_secret), payload: { name: 'x' } });
    expect(response.statusCode).toBe(403);
    expect(errorBody(response).code).toBe('auth.forbidden');
  });

  it('answers 403 to GET /projects/{id} for a credential holding neither project.write nor project.read', async () => {
    const project = await t.createProject();
    const key = await t.app.inject({
      method: 'POST',
      url: `/projects/${project.id}/service_keys`,
      headers: bearer(project.project_secret),
      payload: { scopes: ['team.read'] },
    });
    const { client_id, client_secret } = key.json();
    const token = await t.app.inject({
      method: 'POST',
      url: '/auth/token',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: `grant_type=client_credentials&client_id=${client_id}&client_secret=${client_secret}`,
    });
    expect(token.statusCode).toBe(200);
    const response = await t.app.inject({ method: 'GET', url: `/projects/${project.id}`, headers: bearer(token.json().access_token) });
    expect(response.statusCode).toBe(403);
    expect(errorBody(response)).toMatchObject({ code: 'auth.forbidden', details: { required_scope: 'project.write' } });
    // The preview secret may read its project (project.read) but nothing more.
    expect((await t.app.inject({ method: 'GET', url: `/projects/${project.id}`, headers: bearer(project.preview_secret) })).statusCode).toBe(200);
  });

  it('answers 400 to a malformed project id', async () => {
    const response = await t.app.inject({ method: 'GET', url: `/projects/${'p'.repeat(65)}`, headers: bearer(t.adminToken) });
    expect(response.statusCode).toBe(400);
    expect((errorBody(response).details.errors as Array<{ path: string }>)[0].path).toBe('params/project_id');
  });

  it('hides another project behind 404', async () => {
    const mine = await t.createProject();
    const theirs = await t.createProject();
    const response = await t.app.inject({ method: 'GET', url: `/projects/${theirs.id}`, headers: bearer(mine.project_secret) });
    expect(response.statusCode).toBe(404);
    expect(errorBody(response).code).toBe('proj.not_found');
    const unknown = await t.app.inject({ method: 'GET', url: '/projects/proj_doesnotexist00000', headers: bearer(t.adminToken) });
    expect(unknown.statusCode).toBe(404);
  });

  it('rejects bad bodies with 400 and changes nothing', async () => {
    const before = await t.container.db.selectFrom('projects').select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow();
    const cases = [
      { payload: {}, path: 'body/name' },
      { payload: { name: '' }, path: 'body/name' },
      { payload: { name: 42 }, path: 'body/name' },
      { payload: { name: 'ok', extra: true }, path: 'body/extra' },
      { payload: { name: 'x'.repeat(201) }, path: 'body/name' },
    ];
    for (const { payload, path } of cases) {
      const response = await t.app.inject({ method: 'POST', url: '/projects', headers: bearer(t.adminToken), payload });
      expect(response.statusCode).toBe(400);
      const body = errorBody(response);
      expect(body.code).toBe('req.invalid');
      expect((body.details.errors as Array<{ path: string }>).map((e) => e.path)).toContain(path);
    }
    const malformed = await t.app.inject({
      method: 'POST',
      url: '/projects',
      headers: { ...bearer(t.adminToken), 'content-type': 'application/json' },
      payload: '{"name": ',
    });
    expect(malformed.statusCode).toBe(400);
    expect(errorBody(malformed).code).toBe('req.invalid');
    const after = await t.container.db.selectFrom('projects').select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
  });

  it('answers 413 for bodies over 1 MiB', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/projects',
      headers: bearer(t.adminToken),
      payload: { name: 'x'.repeat(1_100_000) },
    });
    expect(response.statusCode).toBe(413);
    expect(errorBody(response).code).toBe('req.too_large');
  });

  it('answers unknown routes with a JSON 404 and a request id', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/nope' });
    expect(response.statusCode).toBe(404);
    expect(errorBody(response).code).toBe('route.not_found');
    expect(response.headers['x-request-id']).toBeTruthy();
  });

  it('hands every request the one cached row, frozen, so no caller can change what the next one reads', async () => {
    const created = (await t.app.inject({ method: 'POST', url: '/projects', headers: bearer(t.adminToken), payload: { name: 'Frozen' } })).json();
    const patched = await t.app.inject({ method: 'PATCH', url: `/projects/${created.id}/settings`, headers: bearer(created.project_secret), payload: { sessions: { ttl_seconds: 3600 } } });
    expect(patched.statusCode).toBe(200);
    // Cached once the change feed is up and the notifications of the writes above have passed
    // (PostgreSQL delivers them asynchronously; each drops the entry).
    const read = async () => (await t.container.projects.row(created.id))!;
    let row = await read();
    let served = false;
    for (let i = 0; i < 400 && !served; i++) {
      await new Promise((resolve) => setTimeout(resolve, 5));
      row = await read();
      served = (await read()) === row;
    }
    expect(served, 'two reads in a row served the same cached row').toBe(true);
    expect(Object.isFrozen(row) && Object.isFrozen(row.settings) && Object.isFrozen(row.preview_origins)).toBe(true);
    expect(() => {
      (row.settings as Record<string, unknown>).sessions = {};
    }).toThrow(TypeError);
    expect((await t.container.projects.settings(created.id)).sessions).toMatchObject({ ttl_seconds: 3600 });
  });
});
