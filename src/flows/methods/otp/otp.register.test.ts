import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, errorBody } from '../../../../test/helpers/app.js';
import { statementsOf, watchStatements } from '../../../../test/helpers/statements.js';
import { FlowClient } from '../../flow-test-kit.js';
import { otpKit, otpSchema, type OtpKit } from './otp-flow-test-kit.js';

describe('passwordless registration and the cost of a code sign-in', () => {
  let kit: OtpKit;

  beforeAll(async () => {
    await watchStatements();
    kit = await otpKit();
  });
  afterAll(async () => kit.close());

  it('create_user then send_otp: the code completes the registration and verifies the address', async () => {
    const c = new FlowClient(kit.t, '203.0.113.50');
    const started = await c.start({ project_id: kit.project.id, purpose: 'code_register' });
    const atCode = await c.submit(started.json().id, 'create', { email: 'new@example.com', 'name.given': 'Nia' });
    expect(atCode.statusCode, atCode.body).toBe(200);
    expect(atCode.json().step.name).toBe('code');
    const { code } = await kit.codeFor('new@example.com');
    const done = await c.submit(atCode.json().id, 'verify', { otp: code });
    expect(done.statusCode, done.body).toBe(200);
    const { session } = await kit.t.container.exchange.exchange(kit.project.id, { handoffToken: done.json().handoff_token });
    const user = await kit.t.app.inject({ method: 'GET', url: `/users/${session.user_id}`, headers: bearer(kit.project.project_secret) });
    expect(user.json().metadata.verified).toEqual({ email: expect.any(String) });
  });

  it('an otp field on a step of a schema without otp is refused (flowdef.invalid)', async () => {
    const schema = { ...otpSchema({ otp: false, magic_link: true }), $id: 'https://example.com/schemas/no-otp' };
    const created = await kit.t.app.inject({ method: 'POST', url: `/schemas?project_id=${kit.project.id}`, headers: bearer(kit.project.project_secret), payload: schema });
    expect(created.statusCode, created.body).toBe(201);
    const response = await kit.t.app.inject({
      method: 'POST',
      url: '/flow_definitions',
      headers: bearer(kit.project.project_secret),
      payload: {
        project_id: kit.project.id,
        schema_uri: 'https://example.com/schemas/no-otp',
        flow_definition: { name: 'x', purposes: { x: 'a' }, steps: [{ name: 'a', fields: ['email'], actions: [{ name: 'go', kind: 'submit' }], on_success: 'send_otp', transitions: { go: { target: 'b' } } }, { name: 'b', fields: ['x-auth-methods#otp'], actions: [{ name: 'go', kind: 'submit' }], transitions: { go: { target: 'c' } } }, { name: 'c', complete: 'show' }] },
      },
    });
    expect(response.statusCode).toBe(400);
    expect(errorBody(response).code).toBe('flowdef.invalid');
  });

  it('one code sign-in: request in at most 12 statements (one takes the resend gap on the run), verify in at most 11', async () => {
    await kit.createUser('counted@example.com');
    // Warm the per-process caches (project, settings, definitions) as a running service has them.
    const warm = new FlowClient(kit.t, '203.0.113.51');
    await kit.codeFor((await kit.requestCode(warm, 'counted@example.com'), 'counted@example.com'));
    kit.t.clock.advance(16 * 60_000);
    const c = new FlowClient(kit.t, '203.0.113.52');
    const started = await c.start({ project_id: kit.project.id, purpose: 'code_login' });
    const request = await statementsOf(() => c.submit(started.json().id, 'send_code', { email: 'counted@example.com' }));
    expect(request.result.statusCode).toBe(200);
    await kit.t.container.flows.courier.flush();
    const { code } = await kit.codeFor('counted@example.com');
    const verify = await statementsOf(() => c.submit(request.result.json().id, 'verify', { otp: code }));
    expect(verify.result.statusCode, verify.result.body).toBe(200);
    const shown = JSON.stringify({ request: request.statements, verify: verify.statements }, null, 1);
    console.log(`code sign-in statements: request ${request.statements.length}, verify ${verify.statements.length}`);
    expect(request.statements.length, shown).toBeLessThanOrEqual(12);
    expect(verify.statements.length, shown).toBeLessThanOrEqual(11);
  });
});
