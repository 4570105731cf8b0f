import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, errorBody, type TestApp } from '../../test/helpers/app.js';

type Project = { id: string; project_secret: string; preview_secret: string };

describe('users', () => {
  let t: TestApp;
  let project: Project;
  let other: Project;
  let schemaId: string;
  const create = (payload: unknown, token = project.project_secret, query = `project_id=${project.id}`) =>
    t.app.inject({ method: 'POST', url: `/users?${query}`, headers: bearer(token), payload: payload as object });
  const get = (url: string, token = project.project_secret) => t.app.inject({ method: 'GET', url, headers: bearer(token) });
  const userCount = async () =>
    Number((await t.container.db.selectFrom('users').select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow()).n);

  beforeAll(async () => {
    t = await createTestApp();
    project = await t.createProject();
    other = await t.createProject();
    const schema = await t.app.inject({
      method: 'POST',
      url: `/schemas?project_id=${project.id}`,
      headers: bearer(project.project_secret),
      payload: {
        $id: 'https://example.com/schemas/member',
        type: 'object',
        objectType: 'member',
        required: ['email', 'age'],
        additionalProperties: false,
        'x-auth-methods': { password: { enabled: true } },
        properties: {
          email: { type: 'string', format: 'email', 'x-unique': 'project', 'x-claim': 'email' },
          username: { type: 'string', minLength: 3, maxLength: 30, 'x-unique': 'project', 'x-claim': 'preferred_username' },
          age: { type: 'integer', minimum: 0 },
          website: { type: 'string', format: 'uri' },
        },
      },
    });
    schemaId = schema.json().id;
  });
  afterAll(async () => t.close());

  it('creates a user and reads it back with server-owned metadata', async () => {
    const team = (await t.app.inject({ method: 'POST', url: `/teams?project_id=${project.id}`, headers: bearer(project.project_secret), payload: { name: 'Owners' } })).json();
    t.clock.advance(1000);
    const created = await create(
      { schema: 'https://example.com/schemas/member', attributes: { email: 'grace@example.com', age: 85 } },
      project.project_secret,
      `project_id=${project.id}&team_id=${team.id}`,
    );
    expect(created.statusCode).toBe(201);
    const user = created.json();
    expect(user).toEqual({
      id: expect.stringMatching(/^usr_/),
      schema: 'https://example.com/schemas/member',
      attributes: { email: 'grace@example.com', age: 85 },
      metadata: {
        created_at: t.clock.now().toISOString(),
        updated_at: t.clock.now().toISOString(),
        status: 'active',
        lifecycle_owner_team_id: team.id,
      },
    });
    expect((await get(`/users/${user.id}`)).json()).toEqual(user);
    expect((await get(`/users/${user.id}?team_id=${team.id}`)).statusCode).toBe(200);
    const wrongTeam = await get(`/users/${user.id}?team_id=team_0000000000000000000000`);
    expect(wrongTeam.statusCode).toBe(404);
    expect(errorBody(wrongTeam).code).toBe('user.not_found');
  });

  it('uses the default schema by id out of the box', async () => {
    const schema = (await t.container.schemas.defaultFor(project.id))!;
    const created = await create({ schema: schema.id, attributes: { email: 'default@example.com', name: { given: 'D' } } });
    expect(created.statusCode).toBe(201);
    expect(created.json().schema).toBe(schema.id);
  });

  it('refuses attributes that do not match the schema, listing each failing path, and stores nothing', async () => {
    const before = await userCount();
    const cases: Array<[Record<string, unknown>, string[]]> = [
      [{ email: 'a@example.com', age: 'old' }, ['attributes/age']],
      [{ email: 'a@example.com' }, ['attributes/age']],
      [{ email: 'not-an-email', age: 1, website: 'no uri' }, ['attributes/email', 'attributes/website']],
      [{ email: 'a@example.com', age: 1, extra: true }, ['attributes/extra']],
      [{ email: 'a@example.com', age: -1, username: 'ab' }, ['attributes/age', 'attributes/username']],
      [{ email: 42, age: 1.5 }, ['attributes/email', 'attributes/age']],
    ];
    for (const [attributes, paths] of cases) {
      const response = await create({ schema: schemaId, attributes });
      expect(response.statusCode, JSON.stringify(attributes)).toBe(400);
      const body = errorBody(response);
      expect(body.code).toBe('user.invalid');
      const got = (body.details.errors as Array<{ path: string }>).map((e) => e.path);
      for (const path of paths) expect(got).toContain(path);
    }
    const deep = `{"schema":"${schemaId}","attributes":{"email":"a@example.com","age":1,"x":${'['.repeat(50_000)}${']'.repeat(50_000)}}}`;
    const tooDeep = await t.app.inject({
      method: 'POST',
      url: `/users?project_id=${project.id}`,
      headers: { ...bearer(project.project_secret), 'content-type': 'application/json' },
      payload: deep,
    });
    expect(tooDeep.statusCode).toBe(400);
    expect(errorBody(tooDeep).code).toBe('user.invalid');
    const infinite = await t.app.inject({
      method: 'POST',
      url: `/users?project_id=${project.id}`,
      headers: { ...bearer(project.project_secret), 'content-type': 'application/json' },
      payload: `{"schema":"${schemaId}","attributes":{"email":"inf@example.com","age":1e999}}`,
    });
    expect(infinite.statusCode).toBe(400);
    expect(errorBody(infinite).code).toBe('user.invalid');
    const unknownSchema = await create({ schema: 'https://example.com/schemas/nope', attributes: {} });
    expect(unknownSchema.statusCode).toBe(400);
    expect(errorBody(unknownSchema).code).toBe('user.invalid');
    expect(await userCount()).toBe(before);
  });

  it('rejects any top-level property besides schema and attributes, naming it', async () => {
    const before = await userCount();
    for (const extra of ['id', 'metadata', 'password', 'whatever']) {
      const response = await create({ schema: schemaId, attributes: { email: 'x@example.com', age: 1 }, [extra]: 'x' });
      expect(response.statusCode).toBe(400);
      const body = errorBody(response);
      expect(body.code).toBe('req.invalid');
      expect((body.details.errors as Array<{ path: string }>).map((e) => e.path)).toContain(`body/${extra}`);
    }
    for (const payload of [{ schema: schemaId }, { attributes: {} }, { schema: schemaId, attributes: [] }, { schema: 1, attributes: {} }]) {
      expect(errorBody(await create(payload)).code).toBe('req.invalid');
    }
    expect(await userCount()).toBe(before);
  });

  it('keeps x-unique identifiers unique after trimming and case-folding', async () => {
    expect((await create({ schema: schemaId, attributes: { email: 'Unique@Example.com', age: 1, username: 'Ünique' } })).statusCode).toBe(201);
    for (const attributes of [
      { email: 'unique@example.com', age: 2 },
      { email: 'UNIQUE@EXAMPLE.COM', age: 2 },
      { email: 'fresh@example.com', age: 2, username: 'üNIQUE' },
    ]) {
      const response = await create({ schema: schemaId, attributes });
      expect(response.statusCode).toBe(409);
      expect(errorBody(response).code).toBe('user.already_exists');
    }
    // Another project has its own namespace.
    const theirSchema = (await t.container.schemas.defaultFor(other.id))!;
    expect((await create({ schema: theirSchema.id, attributes: { email: 'unique@example.com' } }, other.project_secret, `project_id=${other.id}`)).statusCode).toBe(201);
  });

  it('lets exactly one of 20 concurrent creates with the same email win', async () => {
    const before = await userCount();
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, i) => create({ schema: schemaId, attributes: { email: ['Race@Example.com', 'race@example.com', 'RACE@EXAMPLE.COM'][i % 3], age: i } })),
    );
    const statuses = responses.map((r) => r.statusCode).sort();
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(19);
    for (const response of responses.filter((r) => r.statusCode === 409)) expect(errorBody(response).code).toBe('user.already_exists');
    expect(await userCount()).toBe(before + 1);
  });

  it('lists the project users with limit=1, each exactly once', async () => {
    const fresh = await t.createProject();
    const schema = (await t.container.schemas.defaultFor(fresh.id))!;
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      // Same timestamp for some: the cursor's id tiebreak must still hold.
      if (i % 2) t.clock.advance(1);
      const response = await create({ schema: schema.id, attributes: { email: `u${i}@example.com` } }, fresh.project_secret, `project_id=${fresh.id}`);
      ids.push(response.json().id);
    }
    const seen: string[] = [];
    let token: string | undefined;
    for (let pages = 0; pages < 10; pages++) {
      const response = await get(`/users?limit=1${token ? `&page_token=${encodeURIComponent(token)}` : ''}`, fresh.project_secret);
      expect(response.statusCode).toBe(200);
      const body = response.json();
      expect(body.users.length).toBeLessThanOrEqual(1);
      seen.push(...body.users.map((u: { id: string }) => u.id));
      token = body.next_page_token;
      if (!token) break;
    }
    expect(seen.sort()).toEqual([...ids].sort());
    const tampered = await get(`/users?limit=1&page_token=abc.def`, fresh.project_secret);
    expect(tampered.statusCode).toBe(400);
    expect(errorBody(tampered).code).toBe('req.invalid');
    expect((await get('/users?limit=0', fresh.project_secret)).statusCode).toBe(400);
  });

  it('answers 401, 403, and 404 for other projects on reads and writes', async () => {
    const mine = (await create({ schema: schemaId, attributes: { email: 'mine@example.com', age: 3 } })).json();
    expect((await t.app.inject({ method: 'GET', url: '/users' })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'POST', url: `/users?project_id=${project.id}`, payload: {} })).statusCode).toBe(401);
    for (const response of [
      await get('/users', project.preview_secret),
      await get(`/users/${mine.id}`, project.preview_secret),
      await create({ schema: schemaId, attributes: { email: 'p@example.com', age: 1 } }, project.preview_secret),
      await t.app.inject({ method: 'PUT', url: `/users/${mine.id}/password`, headers: bearer(project.preview_secret), payload: { password: 'a fine password 1' } }),
    ]) {
      expect(response.statusCode).toBe(403);
      expect(errorBody(response).code).toBe('auth.forbidden');
    }
    const read = await get(`/users/${mine.id}`, other.project_secret);
    expect(read.statusCode).toBe(404);
    expect(errorBody(read).code).toBe('user.not_found');
    expect((await get(`/users/${mine.id}/audit`, other.project_secret)).statusCode).toBe(404);
    const write = await create({ schema: schemaId, attributes: { email: 'z@example.com', age: 1 } }, other.project_secret, `project_id=${project.id}`);
    expect(write.statusCode).toBe(404);
    expect(errorBody(write).code).toBe('proj.not_found');
    // Their credential with their own project cannot use my schema.
    const borrowed = await create({ schema: schemaId, attributes: { email: 'z@example.com', age: 1 } }, other.project_secret, `project_id=${other.id}`);
    expect(borrowed.statusCode).toBe(400);
    const listed = (await get('/users?limit=100', other.project_secret)).json().users.map((u: { id: string }) => u.id);
    expect(listed).not.toContain(mine.id);
    expect((await get(`/users/not-an-id`)).statusCode).toBe(404);
    expect((await get(`/users`, t.adminToken)).statusCode).toBe(400);
    expect((await get(`/users?project_id=${project.id}`, t.adminToken)).statusCode).toBe(200);
  });
});
