import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, errorBody, type TestApp } from '../../test/helpers/app.js';
import { FlowClient, registerThroughFlow, STRONG_PASSWORD } from './flow-test-kit.js';

describe('flow registration writes the user and the password together', () => {
  let t: TestApp;
  let project: { id: string; project_secret: string };
  beforeAll(async () => {
    t = await createTestApp();
    project = await t.createProject();
  });
  afterAll(async () => t.close());

  const userCount = async () =>
    (await t.app.inject({ method: 'GET', url: '/users?limit=100', headers: bearer(project.project_secret) })).json().users.length as number;

  it('a password refused by the policy creates nobody, and the address stays free', async () => {
    const before = await userCount();
    const refused = await registerThroughFlow(t, project.id, 'short@example.com', 'seven77');
    expect(refused.statusCode).toBe(400);
    expect(errorBody(refused)).toMatchObject({ code: 'flow.validation_failed', details: { fields: { password: 'error.password_policy' } } });
    expect(await userCount()).toBe(before);

    const accepted = await registerThroughFlow(t, project.id, 'short@example.com', STRONG_PASSWORD);
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(await userCount()).toBe(before + 1);
  });

  it("enforces the schema's own minimum length, not only the default one", async () => {
    const base = (await t.container.schemas.defaultFor(project.id))!.document as Record<string, unknown>;
    const strict = {
      ...base,
      $id: undefined,
      objectType: 'strict-member',
      'x-auth-methods': { password: { enabled: true, minLength: 20 } },
    };
    delete strict.$id;
    const schema = await t.app.inject({ method: 'POST', url: `/schemas?project_id=${project.id}`, headers: bearer(project.project_secret), payload: strict });
    expect(schema.statusCode, schema.body).toBeLessThan(300);
    const uri = (await t.container.schemas.resolve(project.id, schema.json().id))!.uri;
    const definition = await t.app.inject({
      method: 'POST',
      url: '/flow_definitions',
      headers: bearer(project.project_secret),
      payload: {
        schema_uri: uri,
        flow_definition: {
          name: 'strict-register',
          user_schema: uri,
          purposes: { register: 'register' },
          audience: { app_ids: ['strict-app'] },
          steps: [
            {
              name: 'register',
              fields: ['email', 'name.given', 'x-auth-methods#password'],
              actions: [{ name: 'create', kind: 'submit', primary: true }],
              on_success: 'create_user',
              transitions: { create: { target: 'done' } },
            },
            { name: 'done', complete: 'show' },
          ],
        },
      },
    });
    expect(definition.statusCode, definition.body).toBe(201);

    const before = await userCount();
    const client = new FlowClient(t);
    const started = (await client.start({ project_id: project.id, purpose: 'register', app_id: 'strict-app' })).json();
    // 15 characters: fine for the default policy, too short for this schema.
    const refused = await client.submit(started.id, 'create', { email: 'strict@example.com', 'name.given': 'S', password: 'fifteen chars!!' });
    expect(refused.statusCode, refused.body).toBe(400);
    expect(errorBody(refused).details.fields).toEqual({ password: 'error.password_policy' });
    expect(await userCount()).toBe(before);

    const accepted = await client.submit(started.id, 'create', { email: 'strict@example.com', 'name.given': 'S', password: 'a passphrase of twenty-four' });
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(await userCount()).toBe(before + 1);
  });
});
