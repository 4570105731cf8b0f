import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, errorBody } from '../../../../test/helpers/app.js';
import { AAL1 } from '../../../sessions/levels.js';
import { FlowClient } from '../../flow-test-kit.js';
import { ORIGIN, otpKit, type OtpKit } from './otp-flow-test-kit.js';

/** Sign-in by an e-mail code or magic link through real flows and a real SMTP server (issue 13). */
describe('e-mail code and magic-link sign-in', () => {
  let kit: OtpKit;
  let userId: string;

  beforeAll(async () => {
    kit = await otpKit();
    userId = await kit.createUser('Ann@Example.com');
  });
  afterAll(async () => kit.close());

  const exchange = async (handoffToken: string) => (await kit.t.container.exchange.exchange(kit.project.id, { handoffToken })).session;

  it('mails a code and a link to the stored address; the code signs in (otp, AAL1 only) and verifies the address', async () => {
    const client = new FlowClient(kit.t, '203.0.113.1');
    const atCode = await kit.requestCode(client, 'ann@example.com');
    expect(atCode.statusCode, atCode.body).toBe(200);
    expect(atCode.json().step.name).toBe('code');
    expect(atCode.json().step.fields).toEqual([{ name: 'otp', type: 'code', text_key: 'field.otp', required: true }]);
    const mail = await kit.lastMail('Ann@Example.com');
    expect(mail, 'mailed to the stored address, not the typed text').toBeDefined();
    expect(mail!.raw).toMatch(/Subject: Sign in to Project/);
    expect(mail!.raw).toMatch(/Content-Type: text\/html/i);
    const { code, link, token } = await kit.codeFor('Ann@Example.com');
    expect(link).toMatch(new RegExp(`^${ORIGIN}/ui/link\\?flow=${atCode.json().id}&token=[A-Za-z0-9_-]{22}$`));
    expect(token).toHaveLength(22);

    const done = await client.submit(atCode.json().id, 'verify', { otp: code });
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json().step.type).toBe('complete');
    const session = await exchange(done.json().handoff_token);
    expect(session.factors).toEqual([expect.objectContaining({ method: 'otp', payload: { user_id: userId, channel: 'email' } })]);
    expect(session.assurance_levels).toEqual([AAL1]);

    const user = await kit.t.app.inject({ method: 'GET', url: `/users/${userId}`, headers: bearer(kit.project.project_secret) });
    expect(user.json().metadata.verified).toEqual({ email: kit.t.clock.now().toISOString() });
    const stored = await kit.t.container.users.find(kit.project.id, userId);
    expect(await kit.t.container.users.claims(stored!)).toMatchObject({ email: 'Ann@Example.com', email_verified: true });
  });

  it('the link token signs in as magic_link; the code of the same mail is then spent', async () => {
    kit.t.clock.advance(61_000);
    const client = new FlowClient(kit.t, '203.0.113.2');
    const atCode = await kit.requestCode(client, 'ann@example.com');
    const { code, token } = await kit.codeFor('Ann@Example.com');
    const captured = client.cookie;
    const done = await client.submit(atCode.json().id, 'verify', { otp: token });
    expect(done.statusCode, done.body).toBe(200);
    const session = await exchange(done.json().handoff_token);
    expect(session.factors.map((f: { method: string }) => f.method)).toEqual(['magic_link']);
    expect(session.assurance_levels).toEqual([AAL1]);
    // The pair is one use: the flow is complete, and the code itself no longer matches its row.
    client.cookie = captured;
    const replay = await client.submit(atCode.json().id, 'verify', { otp: code });
    expect(replay.statusCode).toBeGreaterThanOrEqual(400);
    expect(replay.statusCode).toBeLessThan(500);
  });

  it('a link opened in another browser (no _zflow) signs nobody in; GET of the link page changes nothing', async () => {
    kit.t.clock.advance(61_000);
    const client = new FlowClient(kit.t, '203.0.113.3');
    const atCode = await kit.requestCode(client, 'ann@example.com');
    const { code, link, token } = await kit.codeFor('Ann@Example.com');
    const other = new FlowClient(kit.t, '198.51.100.7');
    const elsewhere = await other.submit(atCode.json().id, 'verify', { otp: token });
    expect(elsewhere.statusCode).toBe(404);
    expect(errorBody(elsewhere).code).toBe('flow.not_found');
    const url = new URL(link!);
    for (let i = 0; i < 3; i++) {
      const page = await kit.t.app.inject({ method: 'GET', url: `${url.pathname}${url.search}` });
      expect(page.statusCode).toBe(200);
      expect(page.cookies.find((c) => c.name === '__service_session')).toBeUndefined();
    }
    // Nothing was consumed: the original window still signs in with the code.
    const done = await client.submit(atCode.json().id, 'verify', { otp: code });
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json().handoff_token).toBeDefined();
  });

  it('an unknown address gets the same answer and no mail', async () => {
    kit.t.clock.advance(61_000);
    const before = kit.smtp.received.length;
    const known = await kit.requestCode(new FlowClient(kit.t, '203.0.113.4'), 'ann@example.com');
    const unknown = await kit.requestCode(new FlowClient(kit.t, '203.0.113.5'), 'nobody@example.com');
    const shape = (r: typeof known) => ({ status: r.statusCode, step: r.json().step, keys: Object.keys(r.json()).sort() });
    expect(shape(unknown)).toEqual(shape(known));
    await kit.t.container.flows.courier.flush();
    expect(kit.smtp.received.length).toBe(before + 1);
    expect(kit.smtp.received.some((m) => m.to.includes('nobody@example.com'))).toBe(false);
    // No code of an unknown address ever signs in.
    const guess = await new FlowClient(kit.t).submit(unknown.json().id, 'verify', { otp: '123456' });
    expect(guess.statusCode).toBeGreaterThanOrEqual(400);
  });

  it("another flow's link token does not sign in", async () => {
    kit.t.clock.advance(61_000);
    const a = new FlowClient(kit.t, '203.0.113.6');
    const atA = await kit.requestCode(a, 'ann@example.com');
    const { token } = await kit.codeFor('Ann@Example.com');
    const other = await kit.createUser('bob@example.com');
    expect(other).toBeDefined();
    const b = new FlowClient(kit.t, '203.0.113.7');
    const atB = await kit.requestCode(b, 'bob@example.com');
    const refused = await b.submit(atB.json().id, 'verify', { otp: token });
    expect(refused.statusCode).toBe(400);
    expect(errorBody(refused)).toMatchObject({ code: 'flow.invalid_credentials', details: { fields: { otp: 'error.invalid_code' } } });
    expect(atA.statusCode).toBe(200);
  });
});
