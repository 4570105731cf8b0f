import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, errorBody, type TestApp } from '../../test/helpers/app.js';
import { FlowClient, registerThroughFlow, STRONG_PASSWORD } from './flow-test-kit.js';

const NEW_PASSWORD = 'a brand new passphrase 2030';

async function codeFromOutbox(t: TestApp, email: string): Promise<string> {
  await t.container.flows.courier.flush();
  const [mail] = await t.container.flows.courier.outboxFor(email);
  const match = /\b(\d{6})\b/.exec(mail?.body ?? '');
  if (!match) throw new Error(`no code mailed to ${email}`);
  return match[1];
}

describe('flow journeys: transitions, stacks and custom definitions', () => {
  let t: TestApp;
  let project: { id: string; project_secret: string };
  let schemaUri: string;

  beforeAll(async () => {
    t = await createTestApp();
    project = await t.createProject();
    schemaUri = (await t.container.schemas.defaultFor(project.id))!.uri;
    await registerThroughFlow(t, project.id, 'member@example.com');
    const custom = await t.app.inject({
      method: 'POST',
      url: '/flow_definitions',
      headers: bearer(project.project_secret),
      payload: {
        schema_uri: schemaUri,
        flow_definition: {
          name: 'shop',
          purposes: { login: 'identify' },
          audience: { app_ids: ['shop-web'] },
          steps: [
            {
              name: 'identify',
              fields: ['email'],
              actions: [{ name: 'continue', kind: 'submit', primary: true }],
              transitions: { continue: { target: 'password' }, user_not_found: { target: 'register' } },
            },
            { name: 'password', fields: ['x-auth-methods#password'], actions: [{ name: 'sign_in', kind: 'submit', primary: true }], transitions: { sign_in: { target: 'done' } } },
            {
              name: 'register',
              fields: ['email', 'name.given', 'x-auth-methods#password'],
              actions: [{ name: 'create', kind: 'submit', primary: true }],
              on_success: 'create_user',
              transitions: { create: { target: 'provision' }, user_already_exists: { target: 'identify' } },
            },
            { name: 'provision', transitions: { next: { target: 'done' } } },
            { name: 'done', complete: 'redirect' },
          ],
        },
      },
    });
    expect(custom.statusCode, custom.body).toBe(201);
    const settings = await t.app.inject({ method: 'PUT', url: `/projects/${project.id}/flow_settings`, headers: bearer(project.project_secret), payload: { redirect_uris: ['https://shop.example/welcome'] } });
    expect(settings.statusCode, settings.body).toBe(200);
  });
  afterAll(async () => t.close());

  it('resolves the most specific definition for the audience', async () => {
    const shop = (await new FlowClient(t).start({ project_id: project.id, purpose: 'login', app_id: 'shop-web' })).json();
    expect(shop.step.actions.map((a: { name: string }) => a.name)).toEqual(['continue']);
    const general = (await new FlowClient(t).start({ project_id: project.id, purpose: 'login', app_id: 'other-app' })).json();
    expect(general.step.actions.map((a: { name: string }) => a.name)).toEqual(['continue', 'sign_up', 'forgot_password', 'passkey', 'sso']);
    const unknown = await new FlowClient(t).start({ project_id: project.id, purpose: 'teleport' });
    expect(unknown.statusCode).toBe(400);
    expect(errorBody(unknown)).toMatchObject({ code: 'att.invalid_request', message: 'invalid request' });
    const noProject = await new FlowClient(t).start({ project_id: 'proj_doesnotexist000000000000', purpose: 'login' });
    expect(errorBody(noProject).code).toBe('proj.not_found');
  });

  it('redirect_uri must exactly match the allow-list', async () => {
    for (const bad of ['https://shop.example/welcome/', 'https://shop.example/welcome?x=1', 'https://evil.example/welcome']) {
      const response = await new FlowClient(t).start({ project_id: project.id, purpose: 'login', app_id: 'shop-web', redirect_uri: bad });
      expect(response.statusCode).toBe(400);
      expect(errorBody(response).code).toBe('att.invalid_request');
      // The answer names the setting to change (issue 39 item 5), never the refused URI's query.
      expect(JSON.stringify(errorBody(response).details)).toContain('flow_settings.redirect_uris');
    }
  });

  it('user_not_found leads to registration, passes the invisible step and completes with a redirect', async () => {
    const client = new FlowClient(t);
    const started = (await client.start({ project_id: project.id, purpose: 'login', app_id: 'shop-web', redirect_uri: 'https://shop.example/welcome' })).json();
    const identified = await client.submit(started.id, 'continue', { email: 'newbie@example.com' });
    expect(identified.json().step.name).toBe('register');
    expect(identified.json().step.fields.map((f: { name: string; required: boolean }) => [f.name, f.required])).toEqual([['email', true], ['name.given', false], ['password', true]]);
    const done = await client.submit(identified.json().id, 'create', { email: 'newbie@example.com', 'name.given': 'Nell', password: STRONG_PASSWORD });
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json()).toMatchObject({ step: { name: 'done', type: 'complete', behavior: 'redirect' }, redirect_uri: 'https://shop.example/welcome', handoff_token: expect.any(String) });
    const user = await t.container.users.findByIdentifier(project.id, undefined, 'newbie@example.com');
    expect(user?.attributes).toEqual({ email: 'newbie@example.com', name: { given: 'Nell' } });
  });

  it('user_already_exists goes back to identify; a known user goes on to the password', async () => {
    const client = new FlowClient(t);
    const started = (await client.start({ project_id: project.id, purpose: 'login', app_id: 'shop-web' })).json();
    const toRegister = (await client.submit(started.id, 'continue', { email: 'someone-else@example.com' })).json();
    expect(toRegister.step.name).toBe('register');
    const taken = await client.submit(toRegister.id, 'create', { email: 'member@example.com', password: STRONG_PASSWORD });
    expect(taken.statusCode, taken.body).toBe(200);
    expect(taken.json().step.name).toBe('identify');
    const known = await client.submit(taken.json().id, 'continue', { email: 'member@example.com' });
    expect(known.json().step.name).toBe('password');
  });

  it('default register without a user_already_exists transition answers a field error', async () => {
    const response = await registerThroughFlow(t, project.id, 'member@example.com');
    expect(response.statusCode).toBe(400);
    expect(errorBody(response)).toMatchObject({ code: 'flow.validation_failed', details: { fields: { email: 'error.user_already_exists' } } });
  });

  it('switch: login -> register discards the login flow and starts the other definition', async () => {
    const client = new FlowClient(t);
    const login = (await client.start({ project_id: project.id, purpose: 'login' })).json();
    const switched = await client.submit(login.id, 'sign_up');
    expect(switched.statusCode, switched.body).toBe(200);
    expect(switched.json().id).not.toBe(login.id);
    expect(switched.json().step.name).toBe('register');
    expect(switched.json().session_id).toBe(login.session_id);
    expect(errorBody(await client.get(login.id)).code).toBe('flow.not_found');
    const back = await client.submit(switched.json().id, 'sign_in');
    expect(back.json().step.name).toBe('identify');
  });

  it('pivot: login -> recovery -> auto-pop back to login, then sign in with the new password', async () => {
    const client = new FlowClient(t);
    const login = (await client.start({ project_id: project.id, purpose: 'login' })).json();
    const atPassword = (await client.submit(login.id, 'continue', { email: 'member@example.com' })).json();
    expect(atPassword.id).toBe(login.id);
    const pivoted = await client.submit(atPassword.id, 'forgot_password');
    const recovery = pivoted.json();
    expect(recovery.id).not.toBe(login.id);
    expect(recovery.step.name).toBe('request');
    expect(errorBody(await client.get(login.id)).code).toBe('flow.not_found');
    const codeStep = (await client.submit(recovery.id, 'send_code', { email: 'member@example.com' })).json();
    expect(codeStep.step.name).toBe('code');
    const code = await codeFromOutbox(t, 'member@example.com');
    const wrong = await client.submit(codeStep.id, 'verify', { code: code === '000000' ? '000001' : '000000' });
    expect(errorBody(wrong)).toMatchObject({ code: 'flow.invalid_credentials', details: { fields: { code: 'error.invalid_code' } } });
    const newPassword = (await client.submit(codeStep.id, 'verify', { code })).json();
    expect(newPassword.step.name).toBe('new_password');
    const popped = await client.submit(newPassword.id, 'save', { password: NEW_PASSWORD });
    expect(popped.statusCode, popped.body).toBe(200);
    expect(popped.json().id).toBe(login.id);
    expect(popped.json().step.name).toBe('password');
    expect(popped.json().handoff_token).toBeUndefined();
    const done = await client.submit(login.id, 'sign_in', { password: NEW_PASSWORD });
    expect(done.json()).toMatchObject({ step: { type: 'complete' }, handoff_token: expect.any(String) });
  });

  it('recovery answers unknown addresses exactly like known ones', async () => {
    const run = async (email: string) => {
      const client = new FlowClient(t);
      const started = (await client.start({ project_id: project.id, purpose: 'recovery' })).json();
      const response = await client.submit(started.id, 'send_code', { email });
      const body = response.json();
      return { status: response.statusCode, step: body.step, keys: Object.keys(body).sort() };
    };
    const known = await run('member@example.com');
    const unknown = await run('ghost@example.com');
    expect(unknown).toEqual(known);
    await t.container.flows.courier.flush();
    expect(await t.container.flows.courier.outboxFor('ghost@example.com')).toEqual([]);
    expect(await t.container.flows.courier.outboxFor('member@example.com')).not.toEqual([]);
  });

  it('step-up: a flow on an existing session creates no new session; unknown or foreign sessions answer 404', async () => {
    const client = new FlowClient(t);
    const first = (await client.start({ project_id: project.id, purpose: 'login' })).json();
    const again = await client.start({ project_id: project.id, purpose: 'login', session_id: first.session_id });
    expect(again.statusCode).toBe(200);
    expect(again.json().session_id).toBe(first.session_id);
    expect(again.json().session_token).toBeUndefined();
    const other = await t.createProject();
    const foreign = await client.start({ project_id: other.id, purpose: 'login', session_id: first.session_id });
    expect(foreign.statusCode).toBe(404);
    expect(errorBody(foreign).code).toBe('sess.not_found');
    expect(errorBody(await client.start({ project_id: project.id, purpose: 'login', session_id: 'sess_unknown0000000000000000' })).code).toBe('sess.not_found');
    t.clock.advance(11 * 60 * 1000);
    expect(errorBody(await client.start({ project_id: project.id, purpose: 'login', session_id: first.session_id })).code).toBe('sess.not_found');
  });

  it('GET re-renders without advancing; unknown actions and stray fields are refused', async () => {
    const client = new FlowClient(t);
    const started = (await client.start({ project_id: project.id, purpose: 'login' })).json();
    const again = await client.get(started.id);
    expect(again.statusCode).toBe(200);
    expect(again.json().step).toEqual(started.step);
    expect(again.json().session_token).toBeUndefined();
    expect(errorBody(await client.submit(started.id, 'fly')).code).toBe('flow.invalid_action');
    const missing = await client.submit(started.id, 'continue', {});
    expect(errorBody(missing)).toMatchObject({ code: 'flow.validation_failed', details: { flow_id: started.id, fields: { email: 'error.required' } } });
    const malformed = await client.submit(started.id, 'continue', { email: 'not-an-email', extra: 'x' });
    expect(errorBody(malformed).details.fields).toEqual({ email: 'error.invalid_email', extra: 'error.unknown_field' });
    const wrongType = await client.submit(started.id, 'continue', { email: 42 });
    expect(errorBody(wrongType).details.fields).toEqual({ email: 'error.invalid_type' });
    expect((await client.get(started.id)).json().step.name).toBe('identify');
  });
});
