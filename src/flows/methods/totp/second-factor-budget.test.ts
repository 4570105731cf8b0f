import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, errorBody } from '../../../../test/helpers/app.js';
import { FLOW_COOKIE } from '../../cookie.js';
import { FlowClient } from '../../flow-test-kit.js';
import type { BudgetedFactor } from '../../risk/service.js';
import { codeAt, mfaKit, type MfaKit, type SignedIn } from './mfa-flow-test-kit.js';

/**
 * DESIGN §4.6a "Second factors have budgets of their own" (issue 31, item 2; NIST 800-63B
 * §5.2.2): whoever knows the password gets account_lock_after + 1 = 5 guesses at the TOTP and 5
 * at the recovery codes, however many times they sign in with it.
 */
describe('second factors have budgets of their own', () => {
  let kit: MfaKit;
  let ip = 0;
  let compared = 0;
  const risk = () => kit.t.container.flows.risk;
  const failures = async (who: SignedIn, factor: BudgetedFactor) =>
    kit.t.container.db
      .selectFrom('login_failures')
      .select(['failures', 'locked_until'])
      .where('project_id', '=', kit.projectId)
      .where('account_key', '=', risk().accountKeyFor(kit.projectId, { userId: who.userId, identifier: '' }, factor))
      .executeTakeFirst();
  /** The answer without the flow's id: a guess in another flow must answer the same. */
  const answerOf = (response: Awaited<ReturnType<FlowClient['submit']>>) => {
    const body = errorBody(response);
    return { status: response.statusCode, ...body, details: { ...body.details, flow_id: 'any' } };
  };
  /** A six-digit code that is no valid code now (nor one step either way). */
  const wrongTotp = (secret: string) => {
    const now = kit.t.clock.now().getTime();
    const valid = new Set([-30_000, 0, 30_000].map((drift) => codeAt(secret, new Date(now + drift))));
    return ['000000', '111111', '222222', '333333'].find((code) => !valid.has(code))!;
  };
  /** A new login from its own address with the right password: it must reach the TOTP step. */
  async function passwordRound(email: string): Promise<{ client: FlowClient; id: string }> {
    const client = new FlowClient(kit.t, `198.51.100.${++ip}`);
    const asked = await kit.password(email, undefined, client);
    expect(asked.statusCode, asked.body).toBe(200);
    expect(asked.json().step.name).toBe('totp');
    return { client, id: asked.json().id };
  }
  async function toRecoveryStep(email: string): Promise<{ client: FlowClient; id: string }> {
    const { client, id } = await passwordRound(email);
    const step = await client.submit(id, 'use_recovery_code');
    expect(step.json().step.name).toBe('recovery_code');
    return { client, id: step.json().id };
  }

  beforeAll(async () => {
    kit = await mfaKit({ listen: true });
    // The burst below comes from one address: keep the IP rules out of the way of the account's.
    const settings = await kit.t.app.inject({ method: 'PUT', url: `/projects/${kit.projectId}/flow_settings`, headers: bearer(kit.projectSecret), payload: { risk: { ip_captcha_after: 1000, ip_block_after: 1000 } } });
    expect(settings.statusCode, settings.body).toBe(200);
    // Count the real comparisons (the real check still runs): how many guesses reached the secret.
    // Each takes a while, as under load, so that a burst overlaps: were the guess not reserved
    // before its comparison, all 30 would reach it (seen with a check-then-count variant).
    const totp = kit.t.container.totp;
    const verify = totp.verify.bind(totp);
    totp.verify = async (...args: Parameters<typeof verify>) => {
      compared++;
      await new Promise((resolve) => setTimeout(resolve, 100));
      return verify(...args);
    };
  });
  afterAll(async () => kit.t.close());

  it('locks the TOTP after 5 wrong codes however often the right password comes between; locked answers like wrong; a right code resets it', async () => {
    const email = 'totp-budget@example.com';
    const who = await kit.register(email);
    const secret = await kit.enrollTotp(who);
    const first = await passwordRound(email);
    const wrongAnswer = answerOf(await first.client.submit(first.id, 'verify', { totp: wrongTotp(secret) }));
    expect(wrongAnswer).toMatchObject({ status: 400, code: 'flow.invalid_credentials', details: { fields: { totp: 'error.invalid_code' } } });
    for (let round = 2; round <= 5; round++) {
      const { client, id } = await passwordRound(email);
      expect(answerOf(await client.submit(id, 'verify', { totp: wrongTotp(secret) }))).toEqual(wrongAnswer);
    }
    // The right password signed in five times and reset nothing of the TOTP's count.
    expect((await failures(who, 'totp'))?.failures).toBe(5);
    expect(await failures(who, 'password')).toBeUndefined();

    const locked = await passwordRound(email);
    compared = 0;
    const wrongWhileLocked = answerOf(await locked.client.submit(locked.id, 'verify', { totp: wrongTotp(secret) }));
    const rightWhileLocked = answerOf(await locked.client.submit(locked.id, 'verify', { totp: codeAt(secret, kit.t.clock.now()) }));
    expect(rightWhileLocked).toEqual(wrongAnswer);
    expect(wrongWhileLocked).toEqual(wrongAnswer);
    expect(compared).toBe(0);
    expect((await failures(who, 'totp'))?.failures).toBe(5);

    // After the lock (10 s) a right code signs in and resets the TOTP's count only.
    kit.t.clock.advance(10_000);
    const after = await passwordRound(email);
    const done = await after.client.submit(after.id, 'verify', { totp: codeAt(secret, kit.t.clock.now()) });
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json().step.type).toBe('complete');
    expect(await failures(who, 'totp')).toBeUndefined();
    // Reset, not merely unlocked: four more wrong codes do not lock it again.
    kit.t.clock.advance(30_000);
    for (let round = 1; round <= 4; round++) {
      const { client, id } = await passwordRound(email);
      expect(answerOf(await client.submit(id, 'verify', { totp: wrongTotp(secret) }))).toEqual(wrongAnswer);
    }
    const fifth = await passwordRound(email);
    const signedIn = await fifth.client.submit(fifth.id, 'verify', { totp: codeAt(secret, kit.t.clock.now()) });
    expect(signedIn.statusCode, signedIn.body).toBe(200);
  });

  it('counts recovery codes on a counter of their own: locked after 5, the right password resets nothing, the TOTP stays usable', async () => {
    const email = 'codes-budget@example.com';
    const who = await kit.register(email);
    const secret = await kit.enrollTotp(who);
    const codes = await kit.recoveryCodes(who);
    let wrongAnswer: ReturnType<typeof answerOf> | undefined;
    for (let round = 1; round <= 5; round++) {
      const { client, id } = await toRecoveryStep(email);
      const answer = answerOf(await client.submit(id, 'verify', { recovery_code: 'AAAAA-AAAAA' }));
      expect(answer).toMatchObject({ status: 400, code: 'flow.invalid_credentials', details: { fields: { recovery_code: 'error.invalid_code' } } });
      wrongAnswer ??= answer;
      expect(answer).toEqual(wrongAnswer);
    }
    expect((await failures(who, 'recovery_code'))?.failures).toBe(5);
    const locked = await toRecoveryStep(email);
    expect(answerOf(await locked.client.submit(locked.id, 'verify', { recovery_code: codes[0] }))).toEqual(wrongAnswer);

    // The TOTP has its own count, untouched by the recovery codes' lock.
    expect(await failures(who, 'totp')).toBeUndefined();
    const totp = await passwordRound(email);
    const done = await totp.client.submit(totp.id, 'verify', { totp: codeAt(secret, kit.t.clock.now()) });
    expect(done.statusCode, done.body).toBe(200);
    expect((await failures(who, 'recovery_code'))?.failures).toBe(5);

    // After the lock, the code that was refused while locked signs in: it had not been compared.
    kit.t.clock.advance(10_000);
    const after = await toRecoveryStep(email);
    const used = await after.client.submit(after.id, 'verify', { recovery_code: codes[0] });
    expect(used.statusCode, used.body).toBe(200);
    expect(await failures(who, 'recovery_code')).toBeUndefined();
  });

  it('of 30 concurrent wrong codes over HTTP, each in a flow past the password, at most 5 are compared', async () => {
    const email = 'totp-burst@example.com';
    const who = await kit.register(email);
    const secret = await kit.enrollTotp(who);
    const flows = [];
    for (let i = 0; i < 30; i++) flows.push(await passwordRound(email));
    const wrong = wrongTotp(secret);
    compared = 0;
    const answers = await Promise.all(
      flows.map(async ({ client, id }) => {
        const response = await fetch(`${kit.base}/flow/${id}/submit`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', cookie: `${FLOW_COOKIE}=${client.cookie}` },
          body: JSON.stringify({ action: 'verify', fields: { totp: wrong } }),
        });
        const body = (await response.json()) as { code: string; details: Record<string, unknown> };
        return { status: response.status, code: body.code, fields: body.details.fields };
      }),
    );
    expect(new Set(answers.map((answer) => JSON.stringify(answer)))).toEqual(new Set([JSON.stringify({ status: 400, code: 'flow.invalid_credentials', fields: { totp: 'error.invalid_code' } })]));
    expect(compared).toBe(5);
    const counter = await failures(who, 'totp');
    expect(counter?.failures).toBe(5);
    expect(counter!.locked_until!.getTime()).toBeGreaterThan(kit.t.clock.now().getTime());
    // Still locked for the next login with the right password and the right code.
    const next = await passwordRound(email);
    expect((await next.client.submit(next.id, 'verify', { totp: codeAt(secret, kit.t.clock.now()) })).statusCode).toBe(400);
  });
});
