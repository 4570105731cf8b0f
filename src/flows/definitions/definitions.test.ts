import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, errorBody, type TestApp } from '../../../test/helpers/app.js';
import { clientToken, serviceKey } from '../../oauth/testing.js';
import { FlowClient } from '../flow-test-kit.js';

const example = JSON.parse(readFileSync(new URL('./fixtures/login-register-definition.json', import.meta.url), 'utf8'));
const customerSchema = JSON.parse(readFileSync(new URL('./fixtures/user-schema.json', import.meta.url), 'utf8'));

describe('flow definitions over HTTP', () => {
  let t: TestApp;
  let project: { id: string; project_secret: string };
  let other: { id: string; project_secret: string };
  const body = (overrides: Record<string, unknown> = {}) => ({
    schema_uri: customerSchema.$id,
    flow_definition: { ...structuredClone(example.flow_definition), ...overrides },
  });

  beforeAll(async () => {
    t = await createTestApp();
    project = await t.createProject();
    other = await t.createProject();
    for (const p of [project, other]) {
      const created = await t.app.inject({ method: 'POST', url: `/schemas?project_id=${p.id}`, headers: bearer(p.project_secret), payload: customerSchema });
      expect(created.statusCode, created.body).toBe(201);
    }
  });
  afterAll(async () => t.close());

  const post = (payload: unknown, token = project.project_secret) =>
    t.app.inject({ method: 'POST', url: '/flow_definitions', headers: bearer(token), payload: payload as Record<string, unknown> });

  it('creates the shared example active by default and reads it back', async () => {
    const { status: _omit, ...withoutStatus } = example.flow_definition;
    const created = await post({ schema_uri: customerSchema.$id, flow_definition: withoutStatus });
    expect(created.statusCode, created.body).toBe(201);
    const def = created.json();
    expect(def).toMatchObject({ id: expect.stringMatching(/^fdef_/), project_id: project.id, flow_definition: { ...withoutStatus, status: 'active' } });
    expect(Object.keys(def).sort()).toEqual(['created_at', 'flow_definition', 'id', 'project_id', 'updated_at']);
    const read = await t.app.inject({ method: 'GET', url: `/flow_definitions/${def.id}`, headers: bearer(project.project_secret) });
    expect(read.json()).toEqual(def);
    await t.app.inject({ method: 'DELETE', url: `/flow_definitions/${def.id}`, headers: bearer(project.project_secret) });
  });

  it('lists entries in the interface shape, filters by purpose and paginates', async () => {
    const created = (await post(body({ name: 'shop-a' }))).json();
    const all = await t.app.inject({ method: 'GET', url: '/flow_definitions?limit=2', headers: bearer(project.project_secret) });
    expect(all.statusCode).toBe(200);
    expect(all.json().flow_definitions).toHaveLength(2);
    expect(all.json().next_page_token).toBeTruthy();
    // The four defaults (login, register, recovery, settings) and shop-a: pages of 2, 2 and 1.
    const second = await t.app.inject({ method: 'GET', url: `/flow_definitions?limit=2&page_token=${all.json().next_page_token}`, headers: bearer(project.project_secret) });
    expect(second.json().flow_definitions).toHaveLength(2);
    expect(second.json().next_page_token).toBeTruthy();
    const rest = await t.app.inject({ method: 'GET', url: `/flow_definitions?limit=2&page_token=${second.json().next_page_token}`, headers: bearer(project.project_secret) });
    expect(rest.json().flow_definitions).toHaveLength(1);
    expect(rest.json().next_page_token).toBeUndefined();
    const registering = await t.app.inject({ method: 'GET', url: `/flow_definitions?purpose=register&project_id=${project.id}`, headers: bearer(project.project_secret) });
    const entries = registering.json().flow_definitions;
    expect(entries.map((e: { name: string }) => e.name).sort()).toEqual(['register', 'shop-a']);
    const entry = entries.find((e: { id: string }) => e.id === created.id);
    expect(entry).toEqual({ id: created.id, name: 'shop-a', project_id: project.id, schema_uri: customerSchema.$id, status: 'active', created_at: created.created_at, updated_at: created.updated_at });
    const tampered = await t.app.inject({ method: 'GET', url: `/flow_definitions?limit=2&page_token=${all.json().next_page_token}x`, headers: bearer(project.project_secret) });
    expect(errorBody(tampered).code).toBe('req.invalid');
  });

  it('PUT replaces the definition and keeps the status when omitted', async () => {
    const created = (await post(body({ name: 'shop-put', status: 'inactive' }))).json();
    const { status: _omit, ...withoutStatus } = body({ name: 'shop-put-2' }).flow_definition;
    t.clock.advance(1000);
    const replaced = await t.app.inject({ method: 'PUT', url: `/flow_definitions/${created.id}`, headers: bearer(project.project_secret), payload: { schema_uri: customerSchema.$id, flow_definition: withoutStatus } });
    expect(replaced.statusCode, replaced.body).toBe(200);
    expect(replaced.json().flow_definition).toMatchObject({ name: 'shop-put-2', status: 'inactive' });
    expect(replaced.json().created_at).toBe(created.created_at);
    expect(replaced.json().updated_at).not.toBe(created.updated_at);
    const activated = await t.app.inject({ method: 'PUT', url: `/flow_definitions/${created.id}`, headers: bearer(project.project_secret), payload: body({ name: 'shop-put-2', status: 'active' }) });
    expect(activated.json().flow_definition.status).toBe('active');
  });

  it('answers 400 flowdef.invalid naming the step and field', async () => {
    const def = body();
    (def.flow_definition.steps as Array<{ fields?: string[] }>)[1].fields = ['x-auth-methods#otp'];
    const response = await post(def);
    expect(response.statusCode).toBe(400);
    const error = errorBody(response);
    expect(error.code).toBe('flowdef.invalid');
    expect(error.details.errors).toContainEqual({ step: 'password', field: 'fields[0]', message: expect.stringContaining('otp') });
    const unknownSchema = await post({ ...body(), schema_uri: 'https://nowhere.example/schema' });
    expect(errorBody(unknownSchema)).toMatchObject({ code: 'flowdef.invalid', details: { errors: [{ field: 'schema_uri' }] } });
    const duplicateName = await post(body({ name: 'login', user_schema: undefined }));
    expect(errorBody(duplicateName)).toMatchObject({ code: 'flowdef.invalid', details: { errors: [{ field: 'name' }] } });
    const wrongShape = await post({ flow_definition: { name: 'x', purposes: 'nope', steps: [] } });
    expect(errorBody(wrongShape).code).toBe('req.invalid');
  });

  it('POST /flow_definitions/validate answers the same 400 as a create, or 204, and stores nothing', async () => {
    const check = (payload: unknown, token = project.project_secret) =>
      t.app.inject({ method: 'POST', url: '/flow_definitions/validate', headers: bearer(token), payload: payload as Record<string, unknown> });
    const count = async () => (await t.container.db.selectFrom('flow_definitions').select('id').where('project_id', '=', project.id).execute()).length;
    const before = await count();
    const def = body({ name: 'checked-only' });
    (def.flow_definition.steps as Array<{ fields?: string[] }>)[1].fields = ['x-auth-methods#otp'];
    const refused = await check(def);
    expect(refused.statusCode).toBe(400);
    expect(errorBody(refused).details.errors).toContainEqual({ step: 'password', field: 'fields[0]', message: expect.stringContaining('otp') });
    expect((await check(body({ name: 'checked-only' }))).statusCode).toBe(204);
    expect(await count()).toBe(before);
    // The document is checked; whether its name is free is decided by the write (an edit keeps its own name).
    expect((await check(body({ name: 'login', user_schema: undefined }))).statusCode).toBe(204);
  });

  it('enforces scopes and hides other projects behind 404', async () => {
    const created = (await post(body({ name: 'shop-scope' }))).json();
    expect((await t.app.inject({ method: 'GET', url: '/flow_definitions' })).statusCode).toBe(401);
    const key = await serviceKey(t, project, ['flow_definition.read']);
    const access = await clientToken(t, key.client_id, key.client_secret);
    expect((await t.app.inject({ method: 'GET', url: `/flow_definitions/${created.id}`, headers: bearer(access) })).statusCode).toBe(200);
    const denied = await t.app.inject({ method: 'DELETE', url: `/flow_definitions/${created.id}`, headers: bearer(access) });
    expect(denied.statusCode).toBe(403);
    expect(errorBody(denied).details.required_scope).toBe('flow_definition.delete');
    const deniedWrite = await t.app.inject({ method: 'POST', url: '/flow_definitions', headers: bearer(access), payload: body({ name: 'nope' }) });
    expect(deniedWrite.statusCode).toBe(403);
    for (const [method, url] of [['GET', `/flow_definitions/${created.id}`], ['DELETE', `/flow_definitions/${created.id}`], ['GET', '/flow_definitions/fdef_doesnotexist00000000000']] as const) {
      const response = await t.app.inject({ method, url, headers: bearer(other.project_secret) });
      expect(response.statusCode).toBe(404);
      expect(errorBody(response).code).toBe('flowdef.not_found');
    }
    const put = await t.app.inject({ method: 'PUT', url: `/flow_definitions/${created.id}`, headers: bearer(other.project_secret), payload: body({ name: 'x' }) });
    expect(errorBody(put).code).toBe('flowdef.not_found');
    const listOther = await t.app.inject({ method: 'GET', url: `/flow_definitions?project_id=${project.id}`, headers: bearer(other.project_secret) });
    expect(listOther.statusCode).toBe(404);
  });

  it('DELETE: 409 flowdef.in_use while a live flow uses it, 409 flowdef.last_active for the last active of a purpose', async () => {
    const defs = (await t.app.inject({ method: 'GET', url: `/flow_definitions?purpose=recovery`, headers: bearer(project.project_secret) })).json().flow_definitions;
    expect(defs).toHaveLength(1);
    const recovery = defs[0];
    const lastActive = await t.app.inject({ method: 'DELETE', url: `/flow_definitions/${recovery.id}`, headers: bearer(project.project_secret) });
    expect(lastActive.statusCode).toBe(409);
    expect(errorBody(lastActive)).toMatchObject({ code: 'flowdef.last_active', details: { purposes: ['recovery'] } });
    const deactivate = await t.app.inject({ method: 'PUT', url: `/flow_definitions/${recovery.id}`, headers: bearer(project.project_secret), payload: { flow_definition: { ...(await t.app.inject({ method: 'GET', url: `/flow_definitions/${recovery.id}`, headers: bearer(project.project_secret) })).json().flow_definition, status: 'inactive' } } });
    expect(errorBody(deactivate).code).toBe('flowdef.last_active');

    const spare = (await post(body({ name: 'spare', purposes: { login: 'identify', register: 'register' } }))).json();
    const client = new FlowClient(t);
    const started = await client.start({ project_id: project.id, purpose: 'recovery' });
    expect(started.statusCode).toBe(200);
    // a second recovery definition exists now, but the running flow keeps the default in use
    const second = (await post(body({ name: 'recovery-2', purposes: { recovery: 'identify', login: 'identify' } }))).json();
    const inUse = await t.app.inject({ method: 'DELETE', url: `/flow_definitions/${recovery.id}`, headers: bearer(project.project_secret) });
    expect(inUse.statusCode).toBe(409);
    expect(errorBody(inUse).code).toBe('flowdef.in_use');
    // Moving on extends the flow, and with it the use of its definition.
    t.clock.advance(9 * 60 * 1000);
    const moved = await client.submit(started.json().id, 'send_code', { email: 'nobody@example.com' });
    expect(moved.statusCode, moved.body).toBe(200);
    t.clock.advance(2 * 60 * 1000);
    expect(errorBody(await t.app.inject({ method: 'DELETE', url: `/flow_definitions/${recovery.id}`, headers: bearer(project.project_secret) })).code).toBe('flowdef.in_use');
    t.clock.advance(8 * 60 * 1000);
    const deleted = await t.app.inject({ method: 'DELETE', url: `/flow_definitions/${recovery.id}`, headers: bearer(project.project_secret) });
    expect(deleted.statusCode).toBe(204);
    expect(deleted.body).toBe('');
    const gone = await t.app.inject({ method: 'GET', url: `/flow_definitions/${recovery.id}`, headers: bearer(project.project_secret) });
    expect(errorBody(gone).code).toBe('flowdef.not_found');
    expect((await t.app.inject({ method: 'DELETE', url: `/flow_definitions/${spare.id}`, headers: bearer(project.project_secret) })).statusCode).toBe(204);
    expect(second.id).toBeTruthy();
  });
});
