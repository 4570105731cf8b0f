import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, errorBody, type TestApp } from '../../test/helpers/app.js';

const example = JSON.parse(readFileSync(new URL('./fixtures/user-schema.json', import.meta.url), 'utf8'));

function customer(overrides: Record<string, unknown> = {}) {
  return { ...structuredClone(example), $id: `https://example.com/schemas/customer-${Math.random().toString(36).slice(2)}`, ...overrides };
}

describe('schemas', () => {
  let t: TestApp;
  let project: { id: string; project_secret: string; preview_secret: string };
  let other: { id: string; project_secret: string; preview_secret: string };
  const post = (body: unknown, token = project.project_secret, query = `project_id=${project.id}`) =>
    t.app.inject({ method: 'POST', url: `/schemas?${query}`, headers: bearer(token), payload: body as object });
  const get = (url: string, token = project.project_secret) => t.app.inject({ method: 'GET', url, headers: bearer(token) });
  const count = async () =>
    Number((await t.container.db.selectFrom('user_schemas').select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow()).n);

  beforeAll(async () => {
    t = await createTestApp();
    project = await t.createProject();
    other = await t.createProject();
  });
  afterAll(async () => t.close());

  it('stores the example schema and returns it verbatim', async () => {
    const created = await post(example);
    expect(created.statusCode).toBe(201);
    const { id } = created.json();
    expect(Object.keys(created.json())).toEqual(['id']);
    expect(id).toMatch(/^sch_/);
    const read = await get(`/schemas/${id}`);
    expect(read.statusCode).toBe(200);
    expect(read.json()).toEqual({ id, schema: example, metadata: { created_at: expect.any(String) } });
    // Verbatim means key order too (jsonb would reorder).
    expect(JSON.stringify(read.json().schema)).toBe(JSON.stringify(example));
  });

  it('generates a $id ending in the revision id when none is given, and resolves it', async () => {
    const { $id: _omitted, ...withoutId } = customer();
    const { id } = (await post(withoutId)).json();
    const read = (await get(`/schemas/${id}`)).json();
    expect(read.schema.$id).toMatch(new RegExp(`/schemas/${id}$`));
    expect((await t.container.schemas.resolve(project.id, read.schema.$id))?.id).toBe(id);
    const byUrl = await get(`/schemas/${encodeURIComponent(read.schema.$id)}`);
    expect(byUrl.statusCode).toBe(200);
    expect(byUrl.json().id).toBe(id);
    expect((await get(`/schemas/${encodeURIComponent(read.schema.$id)}`, other.project_secret)).statusCode).toBe(404);
  });

  it('keeps $id unique within a project but not across projects', async () => {
    const document = customer();
    expect((await post(document)).statusCode).toBe(201);
    const before = await count();
    const again = await post({ ...document, title: 'Changed' });
    expect(again.statusCode).toBe(409);
    expect(errorBody(again).code).toBe('sch.already_exists');
    expect(await count()).toBe(before);
    expect((await post(document, other.project_secret, `project_id=${other.id}`)).statusCode).toBe(201);
  });

  it('never changes a revision: every POST is a new one', async () => {
    const first = (await post(customer({ objectType: 'immutable' }))).json().id;
    const snapshot = (await get(`/schemas/${first}`)).body;
    const second = (await post(customer({ objectType: 'immutable', title: 'Second' }))).json().id;
    expect(second).not.toBe(first);
    expect((await get(`/schemas/${first}`)).body).toBe(snapshot);
  });

  it('refuses malformed schemas with sch.invalid and details, storing nothing', async () => {
    const cases: Array<[unknown, string]> = [
      [customer({ type: 'array' }), 'schema/type'],
      [customer({ properties: { email: { type: 'strin' } } }), 'schema/properties/email/type'],
      [customer({ required: 'email' }), 'schema/required'],
      [customer({ properties: { email: { type: 'string', 'x-unique': 'galaxy' } } }), 'schema/properties/email/x-unique'],
      [customer({ properties: { tags: { type: 'array', 'x-unique': 'project' } } }), 'schema/properties/tags/x-unique'],
      [customer({ properties: { email: { type: 'string', 'x-claim': 'sub' } } }), 'schema'],
      [customer({ properties: { email: { type: 'string', 'x-audit': 'yes' } } }), 'schema'],
      [customer({ 'x-auth-methods': { carrier_pigeon: { enabled: true } } }), 'schema'],
      [customer({ 'x-auth-methods': { password: { enabled: 'yes' } } }), 'schema'],
      [customer({ 'x-auth-methods': { password: { enabled: true, minLength: 4 } } }), 'schema'],
      [customer({ properties: { code: { type: 'string', pattern: '([' } } }), 'schema'],
      [customer({ properties: { code: { type: 'string', format: 'no-such-format' } } }), 'schema'],
      [customer({ properties: { ref: { $ref: 'https://elsewhere.example/x.json' } } }), 'schema'],
      [customer({ $id: 'not a uri' }), 'schema/$id'],
      [customer({ kind: 'something-else' }), 'schema/kind'],
      [customer({ objectType: 'has spaces' }), 'schema/objectType'],
      [customer({ objectType: null }), 'schema/objectType'],
    ];
    const before = await count();
    for (const [document, path] of cases) {
      const response = await post(document);
      expect(response.statusCode, JSON.stringify(document)).toBe(400);
      const body = errorBody(response);
      expect(body.code).toBe('sch.invalid');
      const paths = (body.details.errors as Array<{ path: string }>).map((e) => e.path);
      expect(paths.some((p) => p.startsWith(path)), `${paths} vs ${path}`).toBe(true);
    }
    // Built as text: the test itself must not recurse through it.
    const deep = `${'{"type":"object","properties":{"x":'.repeat(5000)}{"type":"string"}${'}}'.repeat(5000)}`;
    const tooDeep = await t.app.inject({
      method: 'POST',
      url: `/schemas?project_id=${project.id}`,
      headers: { ...bearer(project.project_secret), 'content-type': 'application/json' },
      payload: deep,
    });
    expect(tooDeep.statusCode).toBe(400);
    expect(errorBody(tooDeep).code).toBe('sch.invalid');
    for (const body of ['[]', '"text"', '42', 'null']) {
      const response = await t.app.inject({
        method: 'POST',
        url: `/schemas?project_id=${project.id}`,
        headers: { ...bearer(project.project_secret), 'content-type': 'application/json' },
        payload: body,
      });
      expect(response.statusCode).toBe(400);
      expect(errorBody(response).code).toBe('req.invalid');
    }
    expect(await count()).toBe(before);
  });

  it('answers 401, 403 and 404 for other projects and teams', async () => {
    expect((await t.app.inject({ method: 'POST', url: `/schemas?project_id=${project.id}`, payload: example })).statusCode).toBe(401);
    expect((await get('/schemas', 'gh_ps_nope')).statusCode).toBe(401);
    const forbidden = await post(customer(), project.preview_secret);
    expect(forbidden.statusCode).toBe(403);
    expect(errorBody(forbidden)).toMatchObject({ code: 'auth.forbidden', details: { required_scope: 'schema.write' } });
    expect((await get('/schemas', project.preview_secret)).statusCode).toBe(403);

    const mine = (await post(customer())).json().id;
    const read = await get(`/schemas/${mine}`, other.project_secret);
    expect(read.statusCode).toBe(404);
    expect(errorBody(read).code).toBe('sch.not_found');
    const write = await post(customer(), other.project_secret, `project_id=${project.id}`);
    expect(write.statusCode).toBe(404);
    expect(errorBody(write).code).toBe('proj.not_found');
    expect((await get('/schemas/sch_doesnotexist000000000000')).statusCode).toBe(404);
    expect((await get(`/schemas?project_id=${project.id}`, other.project_secret)).statusCode).toBe(404);
    expect((await get(`/schemas/${mine}`, t.adminToken)).statusCode).toBe(200);
  });

  it('scopes revisions to teams with team_id', async () => {
    const team = (await t.app.inject({ method: 'POST', url: `/teams?project_id=${project.id}`, headers: bearer(project.project_secret), payload: { name: 'Schemas' } })).json();
    const id = (await post(customer(), project.project_secret, `project_id=${project.id}&team_id=${team.id}`)).json().id;
    expect((await get(`/schemas/${id}?team_id=${team.id}`)).statusCode).toBe(200);
    const unowned = (await post(customer())).json().id;
    expect((await get(`/schemas/${unowned}?team_id=${team.id}`)).statusCode).toBe(404);
    const otherTeam = (await t.app.inject({ method: 'POST', url: `/teams?project_id=${other.id}`, headers: bearer(other.project_secret), payload: { name: 'Theirs' } })).json();
    const foreign = await post(customer(), project.project_secret, `project_id=${project.id}&team_id=${otherTeam.id}`);
    expect(foreign.statusCode).toBe(404);
    expect(errorBody(foreign).code).toBe('team.not_found');
  });

  it('resolves a schema-url naming a stored $id, and refuses other URLs while fetching is off', async () => {
    const document = customer();
    const id = (await post(document)).json().id;
    const resolved = await post({ kind: 'schema-url', url: document.$id });
    expect(resolved.statusCode).toBe(201);
    expect(resolved.json()).toEqual({ id });
    const remote = await post({ kind: 'schema-url', url: 'https://schemas.example.net/user.json' });
    expect(remote.statusCode).toBe(400);
    expect(errorBody(remote).code).toBe('sch.invalid');
    const noUrl = await post({ kind: 'schema-url' });
    expect(errorBody(noUrl).code).toBe('sch.invalid');
  });
});
