import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorBody } from '../../../../test/helpers/app.js';
import { FlowClient } from '../../flow-test-kit.js';
import { mfaKit, type MfaKit, type SignedIn } from '../totp/mfa-flow-test-kit.js';

describe('recovery codes', () => {
  let kit: MfaKit;
  beforeAll(async () => {
    kit = await mfaKit();
  });
  afterAll(async () => kit.t.close());

  /** New codes through the settings flow (they are in that one response only). */
  async function generate(who: SignedIn): Promise<string[]> {
    const client = new FlowClient(kit.t);
    const menu = await kit.settings(who, client);
    const confirm = await client.submit(menu.json().id, 'new_recovery_codes');
    expect(confirm.json().step.name).toBe('recovery_codes');
    expect(confirm.json().step.recovery_codes).toBeUndefined();
    const shown = await client.submit(confirm.json().id, 'generate');
    expect(shown.statusCode, shown.body).toBe(200);
    expect(shown.json().step.name).toBe('recovery_codes_shown');
    // Shown once: reloading the step does not show them again.
    expect((await client.get(shown.json().id)).json().step.recovery_codes).toBeUndefined();
    return shown.json().step.recovery_codes;
  }

  /** A login up to the recovery-code step (password, then "use a recovery code" on the TOTP step). */
  async function toRecoveryStep(email: string, client = new FlowClient(kit.t)) {
    const asked = await kit.password(email, undefined, client);
    expect(asked.json().step.name).toBe('totp');
    const step = await client.submit(asked.json().id, 'use_recovery_code');
    expect(step.json().step.name).toBe('recovery_code');
    return { client, id: step.json().id as string };
  }

  it('makes 10 distinct codes, stores only hashes, and one signs in once in any case and without its dash (AAL2)', async () => {
    const who = await kit.register('codes@example.com');
    await kit.enrollTotp(who);
    const codes = await generate(who);
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(/^[A-Z2-7]{5}-[A-Z2-7]{5}$/);
    expect((await kit.credentials(who.userId)).map((c) => c.method).sort()).toEqual(['password', 'recovery_code', 'totp']);
    const stored = await kit.t.container.db.selectFrom('recovery_codes').select('code_hash').where('user_id', '=', who.userId).execute();
    expect(stored).toHaveLength(10);
    for (const { code_hash } of stored) for (const code of codes) expect(code_hash).not.toContain(code.replace('-', ''));

    const { client, id } = await toRecoveryStep('codes@example.com');
    const typed = codes[0].replace('-', '').toLowerCase();
    const done = await client.submit(id, 'verify', { recovery_code: typed });
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json().step.type).toBe('complete');
    expect(done.json().step.warning).toBeUndefined();
    const session = await kit.exchange(done);
    expect(session.factors.find((f) => f.method === 'recovery_code')?.payload).toMatchObject({ remaining: 9, user_id: who.userId });
    expect(session.assurance_levels).toEqual(['urn:nist:aal:1', 'urn:nist:aal:2']);

    // Used once: the same code (in its printed form) is refused.
    const second = await toRecoveryStep('codes@example.com');
    const refused = await second.client.submit(second.id, 'verify', { recovery_code: codes[0] });
    expect(refused.statusCode).toBe(400);
    expect(errorBody(refused)).toMatchObject({ code: 'flow.invalid_credentials', details: { fields: { recovery_code: 'error.invalid_code' } } });
    for (const [bad, why] of [['short', 'error.invalid_code'], ['ABCDE-FGHI1', 'error.invalid_code'], ['A'.repeat(33), 'error.too_long']]) {
      const malformed = await second.client.submit(second.id, 'verify', { recovery_code: bad });
      expect(malformed.statusCode).toBe(400);
      expect(errorBody(malformed)).toMatchObject({ code: 'flow.validation_failed', details: { fields: { recovery_code: why } } });
    }
  });

  it('20 concurrent uses of one code: exactly one wins', async () => {
    const who = await kit.register('race-codes@example.com');
    await kit.enrollTotp(who);
    const [code] = await generate(who);
    const steps = [];
    for (let i = 0; i < 20; i++) steps.push(await toRecoveryStep('race-codes@example.com'));
    const answers = await Promise.all(steps.map(({ client, id }) => client.submit(id, 'verify', { recovery_code: code })));
    expect(answers.filter((a) => a.statusCode === 200)).toHaveLength(1);
    expect(answers.filter((a) => a.statusCode === 400 && errorBody(a).code === 'flow.invalid_credentials')).toHaveLength(19);
    expect(await kit.t.container.recoveryCodes.remaining(kit.projectId, who.userId)).toBe(9);
  });

  it('a code of a replaced set is refused; the step warns when two or fewer remain', async () => {
    const who = await kit.register('replaced@example.com');
    await kit.enrollTotp(who);
    const old = await generate(who);
    const fresh = await generate(who);
    expect(fresh.filter((code) => old.includes(code))).toEqual([]);
    const first = await toRecoveryStep('replaced@example.com');
    const refused = await first.client.submit(first.id, 'verify', { recovery_code: old[1] });
    expect(refused.statusCode).toBe(400);
    expect(errorBody(refused).code).toBe('flow.invalid_credentials');

    // Seven used elsewhere: the eighth leaves two, and the answer warns.
    for (const code of fresh.slice(0, 7)) expect(await kit.t.container.recoveryCodes.use(kit.projectId, who.userId, code)).toBeGreaterThan(2);
    const done = await first.client.submit(first.id, 'verify', { recovery_code: fresh[7] });
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json().step.warning).toBe('warning.recovery_codes_low');
    expect((await kit.exchange(done)).factors.find((f) => f.method === 'recovery_code')?.payload.remaining).toBe(2);
  });
});
