import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, errorBody, type TestApp } from '../../../../test/helpers/app.js';
import { FlowClient, registerThroughFlow } from '../../flow-test-kit.js';

/** The mailed recovery code's try budget through the flow (DESIGN §4.6a, issue 20 item 2). */
describe('recovery code budget', () => {
  let t: TestApp;
  let project: { id: string };

  beforeAll(async () => {
    t = await createTestApp();
    project = await t.createProject();
    await registerThroughFlow(t, project.id, 'budget@example.com');
  });
  afterAll(async () => t.close());

  async function codeFromOutbox(): Promise<string> {
    await t.container.flows.courier.flush();
    const mails = await t.container.flows.courier.outboxFor('budget@example.com');
    return /\b(\d{6})\b/.exec(mails[0]?.body ?? '')![1];
  }

  it('of 12 concurrent wrong codes 5 are compared; then the right code answers flow.code_exhausted', async () => {
    const client = new FlowClient(t, '203.0.113.90');
    const started = await client.start({ project_id: project.id, purpose: 'recovery' });
    const atCode = await client.submit(started.json().id, 'send_code', { email: 'budget@example.com' });
    expect(atCode.json().step.name).toBe('code');
    const code = await codeFromOutbox();
    const wrong = code === '000000' ? '000001' : '000000';
    const answers = await Promise.all(Array.from({ length: 12 }, () => client.submit(atCode.json().id, 'verify', { code: wrong })));
    const codes = answers.map((a) => errorBody(a).code);
    expect(codes.filter((c) => c === 'flow.invalid_credentials')).toHaveLength(5);
    expect(codes.filter((c) => c === 'flow.code_exhausted')).toHaveLength(7);
    const right = await client.submit(atCode.json().id, 'verify', { code });
    expect(right.statusCode).toBe(400);
    expect(errorBody(right)).toMatchObject({ code: 'flow.code_exhausted', details: { fields: { code: 'error.code_exhausted' } } });
    // A new code works again (a second later, so the outbox orders the two mails).
    t.clock.advance(1000);
    const resent = await client.submit(atCode.json().id, 'resend');
    const again = await client.submit(resent.json().id, 'send_code', { email: 'budget@example.com' });
    const verified = await client.submit(again.json().id, 'verify', { code: await codeFromOutbox() });
    expect(verified.statusCode, verified.body).toBe(200);
    expect(verified.json().step.name).toBe('new_password');
  });

  it('one verified code, one password: 10 concurrent saves of one _zflow set it once', async () => {
    t.clock.advance(1000);
    const client = new FlowClient(t, '203.0.113.91');
    const started = await client.start({ project_id: project.id, purpose: 'recovery' });
    const atCode = await client.submit(started.json().id, 'send_code', { email: 'budget@example.com' });
    const verified = await client.submit(atCode.json().id, 'verify', { code: await codeFromOutbox() });
    expect(verified.json().step.name).toBe('new_password');
    const user = await t.container.users.findByIdentifier(project.id, undefined, 'budget@example.com');
    const before = (await t.container.users.auditTrail(project.id, user!.id, {})).items.filter((e) => e.attribute === 'password').length;
    const saves = await Promise.all(Array.from({ length: 10 }, (_, i) => client.submit(verified.json().id, 'save', { password: `a new passphrase number ${i} 2031` })));
    expect(saves.filter((r) => r.statusCode === 200)).toHaveLength(1);
    for (const refused of saves.filter((r) => r.statusCode !== 200)) expect(['flow.invalid_action', 'flow.completed']).toContain(errorBody(refused).code);
    const after = (await t.container.users.auditTrail(project.id, user!.id, {})).items.filter((e) => e.attribute === 'password').length;
    expect(after - before).toBe(1);
  });
});
