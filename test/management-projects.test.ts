import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOUR } from '../src/core/clock.js';
import { serviceKey, clientToken } from '../src/oauth/testing.js';
import { projectWithUser } from '../src/sessions/test-fixtures.js';
import { bearer, createTestApp, errorBody, type TestApp } from './helpers/app.js';

type Project = Awaited<ReturnType<TestApp['createProject']>>;

/** DESIGN §4.17: the project and team management operators expect (issue 12 item 5). */
describe('management API: projects and teams', () => {
  let t: TestApp;
  let a: Project;
  let b: Project;
  beforeAll(async () => {
    t = await createTestApp();
    a = await t.createProject('Alpha');
    b = await t.createProject('Beta');
  });
  afterAll(async () => t.close());

  const as = (token: string) => bearer(token);
  const readWith = (token: string, id = a.id) => t.app.inject({ method: 'GET', url: `/projects/${id}`, headers: as(token) });

  it('GET /projects lists every project to the admin token, one page at a time; a project secret gets 403', async () => {
    const seen: string[] = [];
    let token: string | undefined;
    do {
      const page = await t.app.inject({ method: 'GET', url: `/projects?limit=1${token ? `&page_token=${token}` : ''}`, headers: as(t.adminToken) });
      expect(page.statusCode, page.body).toBe(200);
      const body = page.json();
      expect(body.projects).toHaveLength(1);
      expect(body.projects[0]).not.toHaveProperty('project_secret');
      seen.push(body.projects[0].id);
      token = body.next_page_token;
    } while (token);
    expect(seen).toEqual(expect.arrayContaining([a.id, b.id]));
    expect(new Set(seen).size).toBe(seen.length);
    const denied = await t.app.inject({ method: 'GET', url: '/projects', headers: as(a.project_secret) });
    expect(denied.statusCode).toBe(403);
    expect(errorBody(denied).code).toBe('auth.forbidden');
  });

  it('PATCH /projects/{id} renames and replaces preview origins; another project answers 404; bad input changes nothing', async () => {
    const patched = await t.app.inject({ method: 'PATCH', url: `/projects/${a.id}`, headers: as(a.project_secret), payload: { name: '  Alpha 2 ', preview_origins: ['https://preview.alpha.example'] } });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(patched.json()).toMatchObject({ id: a.id, name: 'Alpha 2', preview_origins: ['https://preview.alpha.example'] });
    expect((await readWith(a.project_secret)).json().name).toBe('Alpha 2');
    const foreign = await t.app.inject({ method: 'PATCH', url: `/projects/${a.id}`, headers: as(b.project_secret), payload: { name: 'Hijacked' } });
    expect(foreign.statusCode).toBe(404);
    expect(errorBody(foreign).code).toBe('proj.not_found');
    for (const payload of [{ name: '' }, { preview_origins: ['https://x.example/path'] }, { extra: 1 }]) {
      expect((await t.app.inject({ method: 'PATCH', url: `/projects/${a.id}`, headers: as(a.project_secret), payload })).statusCode).toBe(400);
    }
    expect((await readWith(t.adminToken)).json()).toMatchObject({ name: 'Alpha 2', preview_origins: ['https://preview.alpha.example'] });
    expect((await t.app.inject({ method: 'PATCH', url: '/projects/proj_00000000000000000000000000', headers: as(t.adminToken), payload: { name: 'x' } })).statusCode).toBe(404);
  });

  it('rotate_secret: the new secret works at once, the old one until previous_valid_until, and a service key cannot rotate', async () => {
    const project = await t.createProject('Rotating');
    const rotated = await t.app.inject({ method: 'POST', url: `/projects/${project.id}/rotate_secret`, headers: as(project.project_secret) });
    expect(rotated.statusCode, rotated.body).toBe(200);
    const { project_secret: fresh, previous_valid_until: until } = rotated.json();
    expect(fresh).toMatch(/^gh_ps_/);
    expect(new Date(until).getTime()).toBe(t.clock.now().getTime() + 24 * HOUR);
    expect((await readWith(fresh, project.id)).statusCode).toBe(200);
    expect((await readWith(project.project_secret, project.id)).statusCode).toBe(200);
    t.clock.advance(24 * HOUR + 1000);
    expect((await readWith(project.project_secret, project.id)).statusCode).toBe(401);
    expect((await readWith(fresh, project.id)).statusCode).toBe(200);

    // Rotating twice drops the first secret at once (how an operator ends a leaked one).
    const second = (await t.app.inject({ method: 'POST', url: `/projects/${project.id}/rotate_secret`, headers: as(t.adminToken) })).json();
    await t.app.inject({ method: 'POST', url: `/projects/${project.id}/rotate_secret`, headers: as(second.project_secret) });
    expect((await readWith(fresh, project.id)).statusCode).toBe(401);

    const key = await serviceKey(t, { id: project.id, project_secret: second.project_secret }, ['project.write']);
    const keyToken = await clientToken(t, key.client_id, key.client_secret);
    const byKey = await t.app.inject({ method: 'POST', url: `/projects/${project.id}/rotate_secret`, headers: as(keyToken) });
    expect(byKey.statusCode).toBe(403);
    expect(errorBody(byKey).code).toBe('auth.forbidden');
    expect((await t.app.inject({ method: 'POST', url: `/projects/${project.id}/rotate_secret`, headers: as(b.project_secret) })).statusCode).toBe(404);
  });

  it('DELETE /projects/{id}: admin token only; everything of the project goes, nothing of others', async () => {
    const { project, userId } = await projectWithUser(t);
    const session = await t.app.inject({ method: 'POST', url: '/sessions', headers: as(project.project_secret), payload: { project_id: project.id } });
    expect(session.statusCode).toBe(201);
    await t.app.inject({ method: 'POST', url: `/teams?project_id=${project.id}`, headers: as(project.project_secret), payload: { name: 'Doomed' } });
    expect((await t.app.inject({ method: 'DELETE', url: `/projects/${project.id}`, headers: as(project.project_secret) })).statusCode).toBe(403);

    const deleted = await t.app.inject({ method: 'DELETE', url: `/projects/${project.id}`, headers: as(t.adminToken) });
    expect(deleted.statusCode, deleted.body).toBe(204);
    for (const table of ['projects', 'teams', 'users', 'sessions', 'user_schemas', 'flow_definitions'] as const) {
      const column = table === 'projects' ? 'id' : 'project_id';
      const rows = await t.container.db.selectFrom(table).select(column).where(column, '=', project.id).execute();
      expect(rows, table).toEqual([]);
    }
    expect(await t.container.db.selectFrom('users').select('id').where('id', '=', userId).execute()).toEqual([]);
    expect((await readWith(project.project_secret, project.id)).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'DELETE', url: `/projects/${project.id}`, headers: as(t.adminToken) })).statusCode).toBe(404);
    expect((await readWith(b.project_secret, b.id)).statusCode).toBe(200);
  });

  it('GET /teams lists the project\'s teams, paginated; naming another project is 404', async () => {
    const project = await t.createProject('Teams');
    for (const name of ['One', 'Two', 'Three']) {
      t.clock.advance(1000);
      expect((await t.app.inject({ method: 'POST', url: `/teams?project_id=${project.id}`, headers: as(project.project_secret), payload: { name } })).statusCode).toBe(201);
    }
    const first = await t.app.inject({ method: 'GET', url: '/teams?limit=2', headers: as(project.project_secret) });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().teams.map((team: { name: string }) => team.name)).toEqual(['One', 'Two']);
    const second = await t.app.inject({ method: 'GET', url: `/teams?limit=2&page_token=${first.json().next_page_token}`, headers: as(project.project_secret) });
    expect(second.json()).toEqual({ teams: [expect.objectContaining({ name: 'Three', project_id: project.id })] });
    const byAdmin = await t.app.inject({ method: 'GET', url: `/teams?project_id=${project.id}`, headers: as(t.adminToken) });
    expect(byAdmin.json().teams).toHaveLength(3);
    expect((await t.app.inject({ method: 'GET', url: '/teams', headers: as(t.adminToken) })).statusCode).toBe(400);
    const foreign = await t.app.inject({ method: 'GET', url: `/teams?project_id=${project.id}`, headers: as(b.project_secret) });
    expect(foreign.statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: '/teams', headers: as(b.project_secret) })).json().teams).toEqual([]);
  });
});
