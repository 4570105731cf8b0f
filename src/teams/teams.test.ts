import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, errorBody, type TestApp } from '../../test/helpers/app.js';

type Project = Awaited<ReturnType<TestApp['createProject']>>;

describe('teams', () => {
  let t: TestApp;
  let project: Project;
  let other: Project;

  const createTeam = (projectId: string, token: string, payload: unknown) =>
    t.app.inject({ method: 'POST', url: `/teams?project_id=${encodeURIComponent(projectId)}`, headers: bearer(token), payload: payload as object });
  const teamCount = async (projectId: string) => {
    const row = await t.container.db
      .selectFrom('teams')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('project_id', '=', projectId)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  };

  beforeAll(async () => {
    t = await createTestApp();
    project = await t.createProject('Teams');
    other = await t.createProject('Other');
  });
  afterAll(async () => t.close());

  it('DELETE /teams/{id} removes a team nothing names; one owning users is 409 team.in_use; another project\'s is 404', async () => {
    const team = (await createTeam(project.id, project.project_secret, { name: 'Short-lived' })).json();
    const remove = (id: string, token = project.project_secret) => t.app.inject({ method: 'DELETE', url: `/teams/${id}`, headers: bearer(token) });
    const schema = (await t.container.schemas.defaultFor(project.id))!;
    const owned = await t.app.inject({ method: 'POST', url: `/users?project_id=${project.id}&team_id=${team.id}`, headers: bearer(project.project_secret), payload: { schema: schema.id, attributes: { email: 'owned@example.com', name: { given: 'O' } } } });
    expect(owned.statusCode, owned.body).toBe(201);

    const inUse = await remove(team.id);
    expect(inUse.statusCode).toBe(409);
    expect(errorBody(inUse)).toMatchObject({ code: 'team.in_use', details: { team_id: team.id } });
    expect(errorBody(await remove(team.id, other.project_secret)).code).toBe('team.not_found');

    expect((await t.app.inject({ method: 'DELETE', url: `/users/${owned.json().id}`, headers: bearer(project.project_secret) })).statusCode).toBe(204);
    expect((await remove(team.id)).statusCode).toBe(204);
    expect(errorBody(await remove(team.id)).code).toBe('team.not_found');
    expect((await t.app.inject({ method: 'GET', url: `/teams/${team.id}`, headers: bearer(project.project_secret) })).statusCode).toBe(404);
  });

  it('creates a team and reads it back', async () => {
    const created = await createTeam(project.id, project.project_secret, { name: '  Support  ' });
    expect(created.statusCode).toBe(201);
    const team = created.json();
    expect(team).toMatchObject({ project_id: project.id, name: 'Support', status: 'active' });
    expect(team.id).toMatch(/^team_[0-9a-z]{26}$/);
    expect(team.created_at).toBe(t.clock.now().toISOString());
    expect(team.updated_at).toBe(team.created_at);

    const read = await t.app.inject({ method: 'GET', url: `/teams/${team.id}`, headers: bearer(project.project_secret) });
    expect(read.statusCode).toBe(200);
    expect(read.json()).toEqual(team);
  });

  it('lets the admin token create and read teams of any project', async () => {
    const created = await createTeam(other.id, t.adminToken, { name: 'Admins' });
    expect(created.statusCode).toBe(201);
    const read = await t.app.inject({ method: 'GET', url: `/teams/${created.json().id}`, headers: bearer(t.adminToken) });
    expect(read.statusCode).toBe(200);
  });

  it('refuses a second team with the same name ignoring case and space (409)', async () => {
    expect((await createTeam(project.id, project.project_secret, { name: 'Billing' })).statusCode).toBe(201);
    for (const name of ['billing', ' BILLING ', 'BiLLing']) {
      const response = await createTeam(project.id, project.project_secret, { name });
      expect(response.statusCode).toBe(409);
      expect(errorBody(response).code).toBe('team.already_exists');
    }
    // The name is unique per project, not per instance.
    expect((await createTeam(other.id, other.project_secret, { name: 'billing' })).statusCode).toBe(201);
  });

  it('lets exactly one of 20 concurrent same-name creates win', async () => {
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, i) => createTeam(project.id, project.project_secret, { name: i % 2 ? 'Race' : 'race' })),
    );
    const statuses = responses.map((response) => response.statusCode).sort();
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(19);
    const rows = await t.container.db.selectFrom('teams').select('id').where('project_id', '=', project.id).where('name_key', '=', 'race').execute();
    expect(rows).toHaveLength(1);
  });

  it('rejects bad input with 400 and creates nothing', async () => {
    const before = await teamCount(project.id);
    const cases: Array<{ payload: unknown; path: string }> = [
      { payload: {}, path: 'body/name' },
      { payload: { name: '' }, path: 'body/name' },
      { payload: { name: '   ' }, path: 'body/name' },
      { payload: { name: 7 }, path: 'body/name' },
      { payload: { name: 'x'.repeat(201) }, path: 'body/name' },
      { payload: { name: 'ok', status: 'active' }, path: 'body/status' },
    ];
    for (const { payload, path } of cases) {
      const response = await createTeam(project.id, project.project_secret, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      const body = errorBody(response);
      expect(body.code).toBe('req.invalid');
      expect((body.details.errors as Array<{ path: string }>).map((e) => e.path)).toContain(path);
    }
    const noProject = await t.app.inject({ method: 'POST', url: '/teams', headers: bearer(project.project_secret), payload: { name: 'x' } });
    expect(noProject.statusCode).toBe(400);
    expect((errorBody(noProject).details.errors as Array<{ path: string }>).map((e) => e.path)).toContain('querystring/project_id');
    const malformed = await t.app.inject({
      method: 'POST',
      url: `/teams?project_id=${project.id}`,
      headers: { ...bearer(project.project_secret), 'content-type': 'application/json' },
      payload: '{"name":',
    });
    expect(malformed.statusCode).toBe(400);
    expect(await teamCount(project.id)).toBe(before);
  });

  it('answers 401 without valid credentials', async () => {
    const team = (await createTeam(project.id, project.project_secret, { name: 'Auth' })).json();
    for (const headers of [{}, bearer('gh_ps_wrong'), { authorization: 'Token abc' }]) {
      const create = await t.app.inject({ method: 'POST', url: `/teams?project_id=${project.id}`, headers, payload: { name: 'Nope' } });
      const read = await t.app.inject({ method: 'GET', url: `/teams/${team.id}`, headers });
      for (const response of [create, read]) {
        expect(response.statusCode).toBe(401);
        expect(response.headers['www-authenticate']).toMatch(/^Bearer/);
        expect(errorBody(response).code).toBe('auth.unauthorized');
      }
    }
  });

  it('answers 403 to a credential without the team scopes', async () => {
    const team = (await createTeam(project.id, project.project_secret, { name: 'Scoped' })).json();
    const create = await createTeam(project.id, project.preview_secret, { name: 'Preview' });
    expect(create.statusCode).toBe(403);
    expect(errorBody(create)).toMatchObject({ code: 'auth.forbidden', details: { required_scope: 'team.write' } });
    const read = await t.app.inject({ method: 'GET', url: `/teams/${team.id}`, headers: bearer(project.preview_secret) });
    expect(read.statusCode).toBe(403);
    expect(errorBody(read).details.required_scope).toBe('team.read');
  });

  it('hides another project and its teams behind 404', async () => {
    const theirs = (await createTeam(other.id, other.project_secret, { name: 'Theirs' })).json();
    const read = await t.app.inject({ method: 'GET', url: `/teams/${theirs.id}`, headers: bearer(project.project_secret) });
    expect(read.statusCode).toBe(404);
    expect(errorBody(read).code).toBe('team.not_found');

    const before = await teamCount(other.id);
    const create = await createTeam(other.id, project.project_secret, { name: 'Intruder' });
    expect(create.statusCode).toBe(404);
    expect(errorBody(create).code).toBe('proj.not_found');
    expect(await teamCount(other.id)).toBe(before);

    for (const id of ['team_00000000000000000000000000', 'not-an-id', 'team_' + 'x'.repeat(59)]) {
      const unknown = await t.app.inject({ method: 'GET', url: `/teams/${id}`, headers: bearer(t.adminToken) });
      expect(unknown.statusCode).toBe(404);
      expect(errorBody(unknown).code).toBe('team.not_found');
    }
    const unknownProject = await createTeam('proj_00000000000000000000000000', t.adminToken, { name: 'x' });
    expect(unknownProject.statusCode).toBe(404);
    expect(errorBody(unknownProject).code).toBe('proj.not_found');
  });
});
