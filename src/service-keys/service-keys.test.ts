import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, errorBody, type TestApp } from '../../test/helpers/app.js';
import { sha256Hex } from '../core/crypto.js';

type Project = Awaited<ReturnType<TestApp['createProject']>>;

describe('service keys', () => {
  let t: TestApp;
  let project: Project;
  let other: Project;

  const keysUrl = (projectId: string, query = '') => `/projects/${projectId}/service_keys${query}`;
  const createKey = (projectId: string, token: string, payload: unknown) =>
    t.app.inject({ method: 'POST', url: keysUrl(projectId), headers: bearer(token), payload: payload as object });
  const keyCount = async (projectId: string) => {
    const row = await t.container.db
      .selectFrom('service_keys')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('project_id', '=', projectId)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  };

  beforeAll(async () => {
    t = await createTestApp();
    project = await t.createProject('Keys');
    other = await t.createProject('Other');
  });
  afterAll(async () => t.close());

  it('shows the secret once and stores only its hash', async () => {
    const created = await createKey(project.id, project.project_secret, { name: 'backend', scopes: ['session.write', 'session.read'] });
    expect(created.statusCode).toBe(201);
    const key = created.json();
    expect(key).toMatchObject({ project_id: project.id, name: 'backend', scopes: ['session.write', 'session.read'] });
    expect(key.id).toMatch(/^key_/);
    expect(key.client_id).toBe(key.id);
    expect(key.client_secret).toMatch(/^gh_sk_[A-Za-z0-9_-]{43}$/);

    const row = await t.container.db.selectFrom('service_keys').selectAll().where('id', '=', key.id).executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain(key.client_secret);
    expect(row.secret_hash).toBe(sha256Hex(key.client_secret));
    expect(await t.container.serviceKeys.verify(key.client_id, key.client_secret)).toEqual({
      projectId: project.id,
      clientId: key.client_id,
      scopes: ['session.write', 'session.read'],
    });
    expect(await t.container.serviceKeys.verify(key.client_id, `${key.client_secret}x`)).toBeUndefined();

    const list = await t.app.inject({ method: 'GET', url: keysUrl(project.id), headers: bearer(project.project_secret) });
    expect(list.statusCode).toBe(200);
    expect(list.body).not.toContain(key.client_secret);
    expect(list.body).not.toContain('client_secret');
    const { client_secret: _secret, ...shown } = key;
    expect(list.json().service_keys).toContainEqual(shown);
  });

  it('pages with limit=1 through every key exactly once', async () => {
    const fresh = await t.createProject('Paged');
    const made: string[] = [];
    for (let i = 0; i < 5; i++) {
      // Same timestamps for some keys: the id breaks ties so no key is skipped or repeated.
      if (i % 2 === 0) t.clock.advance(1000);
      made.push((await createKey(fresh.id, fresh.project_secret, { scopes: ['team.read'] })).json().id);
    }
    const seen: string[] = [];
    let token: string | undefined;
    let pages = 0;
    do {
      const query = `?limit=1${token ? `&page_token=${encodeURIComponent(token)}` : ''}`;
      const response = await t.app.inject({ method: 'GET', url: keysUrl(fresh.id, query), headers: bearer(fresh.project_secret) });
      expect(response.statusCode).toBe(200);
      const body = response.json();
      expect(body.service_keys).toHaveLength(1);
      seen.push(body.service_keys[0].id);
      token = body.next_page_token;
      pages++;
    } while (token && pages < 10);
    expect(pages).toBe(5);
    expect([...seen].sort()).toEqual([...made].sort());

    const all = await t.app.inject({ method: 'GET', url: keysUrl(fresh.id), headers: bearer(fresh.project_secret) });
    expect(all.json().service_keys).toHaveLength(5);
    expect(all.json()).not.toHaveProperty('next_page_token');
  });

  it('refuses tampered, foreign and malformed page tokens with 400', async () => {
    const fresh = await t.createProject('Tokens');
    for (let i = 0; i < 2; i++) await createKey(fresh.id, fresh.project_secret, { scopes: ['team.read'] });
    await createKey(other.id, other.project_secret, { scopes: ['team.read'] });
    await createKey(other.id, other.project_secret, { scopes: ['team.read'] });
    const first = await t.app.inject({ method: 'GET', url: keysUrl(fresh.id, '?limit=1'), headers: bearer(fresh.project_secret) });
    const token: string = first.json().next_page_token;
    const otherToken: string = (
      await t.app.inject({ method: 'GET', url: keysUrl(other.id, '?limit=1'), headers: bearer(other.project_secret) })
    ).json().next_page_token;
    const [body, mac] = token.split('.');
    const flipped = `${body.slice(0, -2)}${body.at(-2) === 'A' ? 'B' : 'A'}${body.at(-1)}.${mac}`;
    const forged = `${Buffer.from(JSON.stringify(['2000-01-01T00:00:00.000Z', 'key_x', `service_keys:${fresh.id}`])).toString('base64url')}.${mac}`;
    // otherToken is valid, but for another project's list: it must not work here either.
    for (const bad of [flipped, forged, `${token}x`, 'garbage', `${token}.extra`, otherToken]) {
      const response = await t.app.inject({
        method: 'GET',
        url: keysUrl(fresh.id, `?page_token=${encodeURIComponent(bad)}`),
        headers: bearer(fresh.project_secret),
      });
      expect(response.statusCode, bad).toBe(400);
      const error = errorBody(response);
      expect(error.code).toBe('req.invalid');
      expect((error.details.errors as Array<{ path: string }>)[0].path).toBe('query/page_token');
    }
    for (const limit of ['0', '101', 'abc', '-1']) {
      const response = await t.app.inject({ method: 'GET', url: keysUrl(fresh.id, `?limit=${limit}`), headers: bearer(fresh.project_secret) });
      expect(response.statusCode, limit).toBe(400);
      expect(errorBody(response).code).toBe('req.invalid');
    }
  });

  it('deletes idempotently', async () => {
    const key = (await createKey(project.id, project.project_secret, { scopes: ['user.read'] })).json();
    for (let i = 0; i < 2; i++) {
      const response = await t.app.inject({ method: 'DELETE', url: keysUrl(project.id, `/${key.id}`), headers: bearer(project.project_secret) });
      expect(response.statusCode).toBe(204);
      expect(response.body).toBe('');
    }
    expect(await t.container.serviceKeys.verify(key.client_id, key.client_secret)).toBeUndefined();
    const missing = await t.app.inject({
      method: 'DELETE',
      url: keysUrl(project.id, '/key_00000000000000000000000000'),
      headers: bearer(project.project_secret),
    });
    expect(missing.statusCode).toBe(204);
  });

  it('rejects unknown scopes and bad bodies with 400 and creates nothing', async () => {
    const before = await keyCount(project.id);
    const cases: Array<{ payload: unknown; path: string }> = [
      { payload: { scopes: ['team.read', 'root.everything'] }, path: 'body/scopes/1' },
      { payload: { scopes: ['instance.admin'] }, path: 'body/scopes/0' },
      { payload: { scopes: [] }, path: 'body/scopes' },
      { payload: {}, path: 'body/scopes' },
      { payload: { scopes: 'team.read' }, path: 'body/scopes' },
      { payload: { scopes: ['team.read', 'team.read'] }, path: 'body/scopes' },
      { payload: { scopes: ['team.read'], name: '' }, path: 'body/name' },
      { payload: { scopes: ['team.read'], client_secret: 'mine' }, path: 'body/client_secret' },
    ];
    for (const { payload, path } of cases) {
      const response = await createKey(project.id, project.project_secret, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      const body = errorBody(response);
      expect(body.code).toBe('req.invalid');
      expect((body.details.errors as Array<{ path: string }>).map((e) => e.path)).toContain(path);
    }
    expect(await keyCount(project.id)).toBe(before);
  });

  it('answers 401 without valid credentials on every operation', async () => {
    const requests = [
      { method: 'POST' as const, url: keysUrl(project.id), payload: { scopes: ['team.read'] } },
      { method: 'GET' as const, url: keysUrl(project.id) },
      { method: 'DELETE' as const, url: keysUrl(project.id, '/key_00000000000000000000000000') },
    ];
    for (const request of requests) {
      for (const headers of [{}, bearer('gh_sk_not_a_bearer')]) {
        const response = await t.app.inject({ ...request, headers });
        expect(response.statusCode).toBe(401);
        expect(response.headers['www-authenticate']).toMatch(/^Bearer/);
        expect(errorBody(response).code).toBe('auth.unauthorized');
      }
    }
  });

  it('answers 403 to the preview secret, which lacks project.write', async () => {
    const key = (await createKey(project.id, project.project_secret, { scopes: ['team.read'] })).json();
    const before = await keyCount(project.id);
    const requests = [
      { method: 'POST' as const, url: keysUrl(project.id), payload: { scopes: ['team.read'] } },
      { method: 'GET' as const, url: keysUrl(project.id) },
      { method: 'DELETE' as const, url: keysUrl(project.id, `/${key.id}`) },
    ];
    for (const request of requests) {
      const response = await t.app.inject({ ...request, headers: bearer(project.preview_secret) });
      expect(response.statusCode).toBe(403);
      expect(errorBody(response)).toMatchObject({ code: 'auth.forbidden', details: { required_scope: 'project.write' } });
    }
    expect(await keyCount(project.id)).toBe(before);
  });

  it('hides another project behind 404 and leaves its keys alone', async () => {
    const theirs = (await createKey(other.id, other.project_secret, { scopes: ['team.read'] })).json();
    const before = await keyCount(other.id);
    const requests = [
      { method: 'POST' as const, url: keysUrl(other.id), payload: { scopes: ['team.read'] } },
      { method: 'GET' as const, url: keysUrl(other.id) },
      { method: 'DELETE' as const, url: keysUrl(other.id, `/${theirs.id}`) },
    ];
    for (const request of requests) {
      const response = await t.app.inject({ ...request, headers: bearer(project.project_secret) });
      expect(response.statusCode).toBe(404);
      expect(errorBody(response).code).toBe('proj.not_found');
    }
    // Deleting another project's key through one's own project path does nothing either.
    const sideways = await t.app.inject({ method: 'DELETE', url: keysUrl(project.id, `/${theirs.id}`), headers: bearer(project.project_secret) });
    expect(sideways.statusCode).toBe(204);
    expect(await keyCount(other.id)).toBe(before);
    expect(await t.container.serviceKeys.verify(theirs.client_id, theirs.client_secret)).toBeDefined();

    const unknown = await t.app.inject({ method: 'GET', url: keysUrl('proj_00000000000000000000000000'), headers: bearer(t.adminToken) });
    expect(unknown.statusCode).toBe(404);
    expect(errorBody(unknown).code).toBe('proj.not_found');
  });
});
