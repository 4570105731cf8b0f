import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer } from '../../../../test/helpers/app.js';
import { defaultDefinitions } from '../../definitions/defaults.js';
import { schemaView } from '../../definitions/schema-view.js';
import { FlowClient } from '../../flow-test-kit.js';
import { otpKit, otpSchema, SCHEMA_ID, type OtpKit } from './otp-flow-test-kit.js';

/** The default definitions of a schema with e-mail codes: "e-mail me a code" beside the password (issue 13 item 2). */
describe('default definitions with e-mail codes', () => {
  let kit: OtpKit;
  const view = schemaView('sch_otp', SCHEMA_ID, otpSchema());

  beforeAll(async () => {
    kit = await otpKit();
    await kit.createUser('def@example.com');
    // The project's `login` is replaced by the otp schema's default, and `login_code` is added
    // for one audience, as an operator selects any definition per purpose and audience.
    const defaults = defaultDefinitions(view);
    const login = defaults.find((d) => d.name === 'login')!;
    const loginCode = defaults.find((d) => d.name === 'login_code')!;
    const list = await kit.t.app.inject({ method: 'GET', url: `/flow_definitions?project_id=${kit.project.id}&purpose=login`, headers: bearer(kit.project.project_secret) });
    const current = list.json().flow_definitions.find((d: { name: string }) => d.name === 'login');
    const replaced = await kit.t.app.inject({
      method: 'PUT',
      url: `/flow_definitions/${current.id}`,
      headers: bearer(kit.project.project_secret),
      payload: { project_id: kit.project.id, schema_uri: SCHEMA_ID, flow_definition: login },
    });
    expect(replaced.statusCode, replaced.body).toBe(200);
    const created = await kit.t.app.inject({
      method: 'POST',
      url: '/flow_definitions',
      headers: bearer(kit.project.project_secret),
      payload: { project_id: kit.project.id, schema_uri: SCHEMA_ID, flow_definition: { ...loginCode, audience: { app_ids: ['codes-app'] } } },
    });
    expect(created.statusCode, created.body).toBe(201);
  });
  afterAll(async () => kit.close());

  it('ships login_code only where the schema enables otp, and offers it from both login steps', () => {
    const names = (doc: ReturnType<typeof defaultDefinitions>) => doc.map((d) => d.name);
    expect(names(defaultDefinitions(view))).toEqual(['login', 'register', 'recovery', 'settings', 'login_code']);
    const off = schemaView('sch_plain', SCHEMA_ID, otpSchema({ otp: false, magic_link: false }));
    expect(names(defaultDefinitions(off))).toEqual(['login', 'register', 'recovery', 'settings']);
    const login = defaultDefinitions(view)[0];
    for (const step of login.steps.slice(0, 2)) expect(step.transitions?.email_code).toEqual({ target: 'login_code', action: 'switch' });
  });

  it('login -> "e-mail me a code" -> code -> signed in, for the audience that selects it', async () => {
    const c = new FlowClient(kit.t, '203.0.113.80');
    const started = await c.start({ project_id: kit.project.id, purpose: 'login', app_id: 'codes-app' });
    expect(started.json().step.actions.map((a: { name: string }) => a.name)).toContain('email_code');
    const switched = await c.submit(started.json().id, 'email_code');
    expect(switched.statusCode, switched.body).toBe(200);
    expect(switched.json().step.name).toBe('identify');
    const atCode = await c.submit(switched.json().id, 'send_code', { email: 'def@example.com' });
    expect(atCode.json().step.name).toBe('code');
    const done = await c.submit(atCode.json().id, 'verify', { otp: (await kit.codeFor('def@example.com')).code });
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json().handoff_token).toBeDefined();
  });
});
