import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, errorBody } from '../../../../test/helpers/app.js';
import { STRONG_PASSWORD } from '../../flow-test-kit.js';
import { ORIGIN, PasskeyClient, passkeyFlowKit, type PasskeyFlowKit } from './passkey-flow-test-kit.js';

const fixture = (name: string) => JSON.parse(readFileSync(new URL(`../../definitions/fixtures/${name}`, import.meta.url), 'utf8'));
const example = fixture('login-register-definition.json');
const customerSchema = fixture('user-schema.json');

/**
 * `passkey_register` outside `create_user`: the shared example's `offer_passkey` step adds a
 * passkey to the user its register step just created. Only a user the flow created or
 * authenticated (or the signed-in session's user) may get one, never a user merely identified.
 */
describe('adding a passkey to a proven user', () => {
  let kit: PasskeyFlowKit;

  beforeAll(async () => {
    kit = await passkeyFlowKit();
    const headers = bearer(kit.projectSecret);
    const schema = await kit.t.app.inject({ method: 'POST', url: `/schemas?project_id=${kit.projectId}`, headers, payload: customerSchema });
    expect(schema.statusCode, schema.body).toBe(201);
    const steps = structuredClone(example.flow_definition.steps);
    // A second definition in which a merely identified user reaches a passkey_register step.
    const probe = {
      name: 'probe',
      user_schema: customerSchema.$id,
      purposes: { probe: 'identify' },
      steps: [
        { name: 'identify', fields: ['email'], actions: [{ name: 'continue', kind: 'submit' }], transitions: { continue: { target: 'offer' } } },
        { name: 'offer', actions: [{ name: 'add', kind: 'passkey_register' }], transitions: { add: { target: 'done' } } },
        { name: 'done', complete: 'show' },
      ],
    };
    for (const definition of [{ ...example.flow_definition, steps }, probe]) {
      const created = await kit.t.app.inject({ method: 'POST', url: '/flow_definitions', headers, payload: { schema_uri: customerSchema.$id, flow_definition: definition } });
      expect(created.statusCode, created.body).toBe(201);
    }
  });
  afterAll(async () => kit.t.close());

  it('the shared example registers with a password, then adds a passkey that signs in on its own', async () => {
    const client = new PasskeyClient(kit.t);
    const started = await client.start({ project_id: kit.projectId, purpose: 'register', app_id: 'shop-web' }, { origin: ORIGIN });
    const registered = await client.act(started.json().id, 'create', { email: 'shopper@example.com', 'name.given': 'Sam', password: STRONG_PASSWORD });
    expect(registered.statusCode, registered.body).toBe(200);
    expect(registered.json().step.name).toBe('offer_passkey');
    const challenged = await client.act(registered.json().id, 'add_passkey');
    expect(challenged.statusCode, challenged.body).toBe(200);
    const { options } = challenged.json().step.challenge;
    expect(options.user.name).toBe('shopper@example.com');
    expect(options.excludeCredentials).toEqual([]);
    const authenticator = kit.authenticator();
    const done = await client.answer(challenged, 'add_passkey', await authenticator.create(options, { origin: ORIGIN }));
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json().step.type).toBe('complete');

    const user = await kit.t.container.users.findByIdentifier(kit.projectId, customerSchema.$id, 'shopper@example.com');
    const listed = await kit.t.app.inject({ method: 'GET', url: `/users/${user!.id}/credentials`, headers: bearer(kit.projectSecret) });
    expect(listed.statusCode, listed.body).toBe(200);
    expect(listed.json().credentials.map((c: { method: string }) => c.method).sort()).toEqual(['passkey', 'password']);

    // The example's identify step signs in with it (action use_passkey, usernameless).
    const login = new PasskeyClient(kit.t);
    const identify = await login.start({ project_id: kit.projectId, purpose: 'login', app_id: 'shop-web' }, { origin: ORIGIN });
    const proof = await authenticator.get(identify.json().step.challenge.options, { origin: ORIGIN });
    const signedIn = await login.answer(identify, 'use_passkey', proof);
    expect(signedIn.statusCode, signedIn.body).toBe(200);
    expect((await kit.exchange(signedIn)).user_id).toBe(user!.id);

  });

  it('a user merely identified by a typed address gets no passkey', async () => {
    const victim = await kit.t.app.inject({ method: 'POST', url: `/users?project_id=${kit.projectId}`, headers: bearer(kit.projectSecret), payload: { schema: customerSchema.$id, attributes: { email: 'victim@example.com' } } });
    expect(victim.statusCode, victim.body).toBe(201);
    const client = new PasskeyClient(kit.t);
    const started = await client.start({ project_id: kit.projectId, purpose: 'probe' }, { origin: ORIGIN });
    expect(started.statusCode, started.body).toBe(200);
    const offered = await client.act(started.json().id, 'continue', { email: 'victim@example.com' });
    expect(offered.json().step.name).toBe('offer');
    const refused = await client.act(offered.json().id, 'add');
    expect(refused.statusCode).toBe(400);
    expect(errorBody(refused)).toMatchObject({ code: 'flow.invalid_action', message: 'Sign in first to add a passkey.' });
    const credentials = await kit.t.app.inject({ method: 'GET', url: `/users/${victim.json().id}/credentials`, headers: bearer(kit.projectSecret) });
    expect(credentials.json().credentials).toEqual([]);
  });
});
