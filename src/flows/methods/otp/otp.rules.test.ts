import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorBody } from '../../../../test/helpers/app.js';
import { FlowClient } from '../../flow-test-kit.js';
import { otpKit, type OtpKit } from './otp-flow-test-kit.js';

/** The rules of e-mail codes and links (DESIGN §4.6a, §4.11), each refused answer a 4xx that changes nothing. */
describe('e-mail code rules', () => {
  let kit: OtpKit;
  let ip = 0;
  const client = () => new FlowClient(kit.t, `203.0.113.${++ip}`);

  beforeAll(async () => {
    kit = await otpKit();
    for (const name of ['rules', 'race', 'link-race', 'budget']) await kit.createUser(`${name}@example.com`);
  });
  afterAll(async () => kit.close());

  /** Each test starts a minute later, so that no send waits for the previous one. */
  const later = () => kit.t.clock.advance(16 * 60_000);

  it('letters, spaces and wrong lengths answer 400 validation_failed and leave the code usable', async () => {
    later();
    const c = client();
    const atCode = await kit.requestCode(c, 'rules@example.com');
    const { code } = await kit.codeFor('rules@example.com');
    for (const bad of ['12a456', '123 456', '12345', '1234567', 'x'.repeat(65), '１２３４５６', ['123456'], 123456]) {
      const answer = await c.submit(atCode.json().id, 'verify', { otp: bad });
      expect(answer.statusCode, JSON.stringify(bad)).toBe(400);
      expect(errorBody(answer).code).toBe('flow.validation_failed');
    }
    const done = await c.submit(atCode.json().id, 'verify', { otp: code });
    expect(done.statusCode, done.body).toBe(200);
  });

  it('an expired code (10 minutes) is refused', async () => {
    later();
    const c = client();
    const atCode = await kit.requestCode(c, 'rules@example.com');
    const { code } = await kit.codeFor('rules@example.com');
    kit.t.clock.advance(9 * 60_000);
    const ok = await c.get(atCode.json().id);
    expect(ok.statusCode).toBe(200);
    kit.t.clock.advance(60_001);
    // The flow itself lives 10 minutes from its last submit too; a fresh submit of the expired code is refused either way.
    const expired = await c.submit(atCode.json().id, 'verify', { otp: code });
    expect(expired.statusCode).toBeGreaterThanOrEqual(400);
    expect(expired.statusCode).toBeLessThan(500);
    expect(['flow.invalid_credentials', 'flow.expired']).toContain(errorBody(expired).code);
  });

  it('a new send (after 60 s) supersedes the previous code; sooner it answers 429 with Retry-After', async () => {
    later();
    const c = client();
    const atCode = await kit.requestCode(c, 'rules@example.com');
    const first = await kit.codeFor('rules@example.com');
    const back = await c.submit(atCode.json().id, 'resend');
    expect(back.json().step.name).toBe('identify');
    kit.t.clock.advance(30_000);
    const tooSoon = await c.submit(back.json().id, 'send_code', { email: 'rules@example.com' });
    expect(tooSoon.statusCode).toBe(429);
    expect(errorBody(tooSoon).code).toBe('auth.rate_limited');
    expect(tooSoon.headers['retry-after']).toBe('30');
    kit.t.clock.advance(30_000);
    const again = await c.submit(back.json().id, 'send_code', { email: 'rules@example.com' });
    expect(again.statusCode, again.body).toBe(200);
    const second = await kit.codeFor('rules@example.com');
    expect(second.code === first.code && second.token === first.token).toBe(false);
    const old = await c.submit(again.json().id, 'verify', { otp: first.code });
    expect(old.statusCode).toBe(400);
    expect(errorBody(old).code).toBe('flow.invalid_credentials');
    const oldLink = await c.submit(again.json().id, 'verify', { otp: first.token });
    expect(errorBody(oldLink).code).toBe('flow.invalid_credentials');
    const done = await c.submit(again.json().id, 'verify', { otp: second.code });
    expect(done.statusCode, done.body).toBe(200);
  });

  it('the gap between sends is kept on the flow run: a replayed older cookie and concurrent sends get one mail a minute', async () => {
    later();
    const c = client();
    const started = await c.start({ project_id: kit.project.id, purpose: 'code_login' });
    const before = c.cookie;
    const sent = await c.submit(started.json().id, 'send_code', { email: 'rules@example.com' });
    expect(sent.statusCode, sent.body).toBe(200);
    // The cookie from before the send knows of no send; the run does.
    c.cookie = before;
    const replayed = await c.submit(started.json().id, 'send_code', { email: 'rules@example.com' });
    expect(replayed.statusCode, replayed.body).toBe(429);
    expect(replayed.headers['retry-after']).toBe('60');

    later();
    const racer = client();
    const again = await racer.start({ project_id: kit.project.id, purpose: 'code_login' });
    const answers = await Promise.all(Array.from({ length: 10 }, () => racer.submit(again.json().id, 'send_code', { email: 'rules@example.com' })));
    expect(answers.filter((a) => a.statusCode === 200)).toHaveLength(1);
    for (const other of answers.filter((a) => a.statusCode !== 200)) expect(errorBody(other).code).toBe('auth.rate_limited');
  });

  it('5 wrong tries spend the code: then its right value answers flow.code_exhausted', async () => {
    later();
    const c = client();
    const atCode = await kit.requestCode(c, 'rules@example.com');
    const { code } = await kit.codeFor('rules@example.com');
    const wrong = code === '000000' ? '000001' : '000000';
    for (let i = 0; i < 5; i++) expect(errorBody(await c.submit(atCode.json().id, 'verify', { otp: wrong })).code).toBe('flow.invalid_credentials');
    const right = await c.submit(atCode.json().id, 'verify', { otp: code });
    expect(right.statusCode).toBe(400);
    expect(errorBody(right)).toMatchObject({ code: 'flow.code_exhausted', details: { fields: { otp: 'error.code_exhausted' } } });
  });

  for (const kind of ['code', 'link'] as const) {
    it(`20 concurrent submits of one ${kind}: exactly one signs in`, async () => {
      later();
      const c = client();
      const email = kind === 'code' ? 'race@example.com' : 'link-race@example.com';
      const atCode = await kit.requestCode(c, email);
      const { code, token } = await kit.codeFor(email);
      const answers = await Promise.all(Array.from({ length: 20 }, () => c.submit(atCode.json().id, 'verify', { otp: kind === 'code' ? code : token })));
      const won = answers.filter((a) => a.statusCode === 200);
      expect(won).toHaveLength(1);
      expect(won[0].json().handoff_token).toBeDefined();
      for (const lost of answers.filter((a) => a.statusCode !== 200)) {
        expect(lost.statusCode).toBeGreaterThanOrEqual(400);
        expect(lost.statusCode).toBeLessThan(500);
        expect(['flow.invalid_credentials', 'flow.completed']).toContain(errorBody(lost).code);
      }
    });
  }

  it('5 messages per address and 15 minutes across flows, then 429 with Retry-After; unknown addresses alike', async () => {
    later();
    for (const email of ['budget@example.com', 'unknown-budget@example.com']) {
      const answers = [];
      for (let i = 0; i < 6; i++) answers.push(await kit.requestCode(client(), email.toUpperCase()));
      expect(answers.slice(0, 5).map((a) => a.statusCode)).toEqual([200, 200, 200, 200, 200]);
      expect(answers[5].statusCode).toBe(429);
      expect(errorBody(answers[5]).code).toBe('auth.rate_limited');
      expect(answers[5].headers['retry-after']).toBe('900');
    }
    await kit.t.container.flows.courier.flush();
    expect(kit.smtp.received.filter((m) => m.to.includes('budget@example.com'))).toHaveLength(5);
    // Recovery mail counts against the same budget (across flows and purposes).
    const recovery = client();
    const started = await recovery.start({ project_id: kit.project.id, purpose: 'recovery' });
    const refused = await recovery.submit(started.json().id, 'send_code', { email: 'budget@example.com' });
    expect(refused.statusCode).toBe(429);
    expect(errorBody(refused).code).toBe('auth.rate_limited');
    kit.t.clock.advance(15 * 60_000);
    expect((await kit.requestCode(client(), 'budget@example.com')).statusCode).toBe(200);
  });
});
