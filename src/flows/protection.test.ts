import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/helpers/app.js';
import { AppError } from '../core/errors.js';
import { KeyRing } from '../core/keys.js';
import { randomIds } from '../core/ids.js';
import { CodeService } from './codes/service.js';
import { CodeStore } from './codes/store.js';
import { CaptchaGate } from './gates/captcha.js';
import { GateStore } from './gates/store.js';
import { lockSeconds, RISK_DEFAULTS, riskRules, RiskService } from './risk/service.js';
import { RiskStore } from './risk/store.js';
import { solve } from './flow-test-kit.js';

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return 'ok';
  } catch (error) {
    const e = error as AppError;
    return `${e.code}:${String((e.details.fields as Record<string, string> | undefined)?.captcha ?? '')}`;
  }
}

describe('flow protection', () => {
  let t: TestApp;
  let projectA: string;
  let projectB: string;
  beforeAll(async () => {
    t = await createTestApp();
    projectA = (await t.createProject()).id;
    projectB = (await t.createProject()).id;
  });
  afterAll(async () => t.close());

  describe('captcha gate', () => {
    const gate = () => new CaptchaGate(t.container.keys, new GateStore(t.container.db), t.clock, { maxNumber: 20_000, ttlMs: 600_000 });

    it('creates an ALTCHA challenge and accepts its solution once', async () => {
      const view = await gate().challenge(projectA);
      expect(view).toMatchObject({ kind: 'proof_of_work', provider: 'altcha', config: { algorithm: 'SHA-256', max_number: 20_000 } });
      expect(view.config.salt).toContain(`p=${projectA}`);
      const proof = await solve(view);
      expect(await codeOf(gate().verify(projectA, proof))).toBe('ok');
      expect(await codeOf(gate().verify(projectA, proof))).toBe('flow.validation_failed:error.captcha_replayed');
    });

    it('refuses missing, garbage, tampered, other-project and expired proofs', async () => {
      const view = await gate().challenge(projectA);
      const proof = await solve(view);
      const decoded = JSON.parse(Buffer.from(proof, 'base64').toString());
      const reencode = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64');
      expect(await codeOf(gate().verify(projectA, undefined))).toBe('flow.validation_failed:error.captcha_required');
      expect(await codeOf(gate().verify(projectA, 'not base64 json'))).toBe('flow.validation_failed:error.captcha_invalid');
      expect(await codeOf(gate().verify(projectA, { nope: 1 }))).toBe('flow.validation_failed:error.captcha_invalid');
      expect(await codeOf(gate().verify(projectA, reencode({ ...decoded, number: decoded.number + 1 })))).toBe('flow.validation_failed:error.captcha_invalid');
      expect(await codeOf(gate().verify(projectA, reencode({ ...decoded, salt: decoded.salt.replace(projectA, projectB) })))).toBe('flow.validation_failed:error.captcha_invalid');
      expect(await codeOf(gate().verify(projectB, proof))).toBe('flow.validation_failed:error.captcha_invalid');
      const other = new CaptchaGate(new KeyRing([Buffer.from('another-secret-another-secret-0123456789')]), new GateStore(t.container.db), t.clock);
      expect(await codeOf(other.verify(projectA, proof))).toBe('flow.validation_failed:error.captcha_invalid');
      t.clock.advance(600_001);
      expect(await codeOf(gate().verify(projectA, proof))).toBe('flow.validation_failed:error.captcha_expired');
    });
  });

  describe('risk and lock-out', () => {
    const risk = () => new RiskService(new RiskStore(t.container.db), t.clock, randomIds);

    it('locks from the 5th failure for 10 s, doubling up to 5 minutes', () => {
      expect([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11].map((n) => lockSeconds(n, RISK_DEFAULTS))).toEqual([0, 0, 0, 0, 10, 20, 40, 80, 160, 300, 300]);
    });

    it('locks an account key with the moved clock, unlocks after the lock, resets on success', async () => {
      const r = risk();
      const key = r.accountKey(projectA, 'Locked@Example.com');
      expect(key).toBe(r.accountKey(projectA, ' locked@example.com'));
      for (let i = 0; i < 4; i++) await r.recordFailure(projectA, key, '10.0.0.1', RISK_DEFAULTS);
      expect(await r.accountBlocked(projectA, key, RISK_DEFAULTS)).toBe(false);
      await r.recordFailure(projectA, key, '10.0.0.1', RISK_DEFAULTS);
      expect(await r.accountBlocked(projectA, key, RISK_DEFAULTS)).toBe(true);
      t.clock.advance(9_999);
      expect(await r.accountBlocked(projectA, key, RISK_DEFAULTS)).toBe(true);
      t.clock.advance(1);
      expect(await r.accountBlocked(projectA, key, RISK_DEFAULTS)).toBe(false);
      await r.recordFailure(projectA, key, '10.0.0.1', RISK_DEFAULTS);
      t.clock.advance(19_999);
      expect(await r.accountBlocked(projectA, key, RISK_DEFAULTS)).toBe(true);
      await r.recordSuccess(projectA, key, 'usr_x', 'sess_x');
      expect(await r.accountBlocked(projectA, key, RISK_DEFAULTS)).toBe(false);
    });

    it('disables after the configured consecutive failures until reset', async () => {
      const rules = riskRules({ account_disable_after: 3, account_lock_after: 100 });
      const r = risk();
      const key = r.accountKey(projectA, 'disabled@example.com');
      for (let i = 0; i < 3; i++) await r.recordFailure(projectA, key, '10.0.0.9', rules);
      t.clock.advance(3_600_000);
      expect(await r.accountBlocked(projectA, key, rules)).toBe(true);
      await r.liftLocks(t.container.db, projectA, { userId: 'usr_disabled', identifiers: ['disabled@example.com'] });
      expect(await r.accountBlocked(projectA, key, rules)).toBe(false);
    });

    it('requires the captcha above the IP velocity and refuses above the block threshold', async () => {
      const rules = riskRules({ ip_captcha_after: 2, ip_block_after: 4 });
      const r = risk();
      t.clock.set(new Date(Math.ceil(t.clock.now().getTime() / 60_000) * 60_000 + 5_000));
      const input = { ip: '192.0.2.7', sessionId: 'sess_none' };
      expect((await r.evaluate(projectA, input, rules)).decision).toBe('allow');
      for (let i = 0; i < 3; i++) await r.recordFailure(projectA, undefined, '192.0.2.7', rules);
      expect(await r.evaluate(projectA, input, rules)).toMatchObject({ decision: 'captcha', reasons: ['ip_failure_velocity'] });
      expect((await r.evaluate(projectB, input, rules)).decision).toBe('allow');
      for (let i = 0; i < 2; i++) await r.recordFailure(projectA, undefined, '192.0.2.7', rules);
      expect(await r.evaluate(projectA, input, rules)).toMatchObject({ decision: 'deny', retryAfterSeconds: 55 });
      t.clock.advance(55_000);
      expect((await r.evaluate(projectA, input, rules)).decision).toBe('allow');
    });

    it('scores a new fingerprint for a known user', async () => {
      const r = risk();
      const rules = riskRules({ new_fingerprint_score: 60 });
      const key = r.accountKey(projectA, 'fp@example.com');
      await r.recordEvent({ projectId: projectA, flowId: 'flow_1', sessionId: 'sess_fp1', type: 'fingerprint', payload: { fingerprint: 'laptop' } });
      await r.recordSuccess(projectA, key, 'usr_fp', 'sess_fp1');
      await r.recordEvent({ projectId: projectA, flowId: 'flow_2', sessionId: 'sess_fp2', type: 'fingerprint', payload: { fingerprint: 'laptop' } });
      expect((await r.evaluate(projectA, { ip: '198.51.100.1', userId: 'usr_fp', sessionId: 'sess_fp2' }, rules)).decision).toBe('allow');
      await r.recordEvent({ projectId: projectA, flowId: 'flow_3', sessionId: 'sess_fp3', type: 'fingerprint', payload: { fingerprint: 'stranger' } });
      expect(await r.evaluate(projectA, { ip: '198.51.100.1', userId: 'usr_fp', sessionId: 'sess_fp3' }, rules)).toMatchObject({ decision: 'captcha', reasons: ['new_fingerprint'] });
    });
  });

  describe('one-time codes', () => {
    const codes = () => new CodeService(new CodeStore(t.container.db), t.container.keys, t.clock, randomIds);

    it('is consumed exactly once among many concurrent submits', async () => {
      const { id, code } = await codes().issue(projectA, undefined, 'recovery');
      expect(code).toMatch(/^\d{6}$/);
      const results = await Promise.all(Array.from({ length: 20 }, () => codes().consume(projectA, id, code)));
      expect(results.filter((r) => r === 'consumed')).toHaveLength(1);
    });

    it('compares at most 5 of 12 concurrent wrong guesses; then even the right value is exhausted', async () => {
      const { id, code } = await codes().issue(projectA, undefined, 'recovery');
      const wrong = code === '000000' ? '000001' : '000000';
      const results = await Promise.all(Array.from({ length: 12 }, () => codes().consume(projectA, id, wrong)));
      expect(results.filter((r) => r === 'wrong')).toHaveLength(5);
      expect(results.filter((r) => r === 'exhausted')).toHaveLength(7);
      const row = await t.container.db.selectFrom('one_time_codes').select(['attempts', 'consumed_at']).where('id', '=', id).executeTakeFirstOrThrow();
      expect(row).toEqual({ attempts: 5, consumed_at: null });
      expect(await codes().consume(projectA, id, code)).toBe('exhausted');
    });

    it('expires after 10 minutes, allows 5 attempts, and is replaced by a new code', async () => {
      const { id, code } = await codes().issue(projectA, undefined, 'recovery');
      t.clock.advance(600_000);
      expect(await codes().consume(projectA, id, code)).toBe('wrong');

      const second = await codes().issue(projectA, undefined, 'recovery');
      const wrong = second.code === '000000' ? '000001' : '000000';
      for (let i = 0; i < 5; i++) expect(await codes().consume(projectA, second.id, wrong)).toBe('wrong');
      expect(await codes().consume(projectA, second.id, second.code)).toBe('exhausted');

      const c = codes();
      const first = await c.issue(projectA, 'usr_replaced', 'recovery');
      const next = await c.issue(projectA, 'usr_replaced', 'recovery');
      expect(await c.consume(projectA, first.id, first.code)).toBe('wrong');
      expect(await c.consume(projectB, next.id, next.code)).toBe('wrong');
      expect(await c.consume(projectA, next.id, next.code)).toBe('consumed');
    });
  });
});

describe('flow sweeper', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t.close());

  it('deletes expired proofs, codes, old counters and runs, and keeps live ones', async () => {
    const project = (await t.createProject()).id;
    const codes = new CodeService(new CodeStore(t.container.db), t.container.keys, t.clock, randomIds);
    const gate = new CaptchaGate(t.container.keys, new GateStore(t.container.db), t.clock, { maxNumber: 1000, ttlMs: 60_000 });
    const risk = new RiskService(new RiskStore(t.container.db), t.clock, randomIds);
    await gate.verify(project, await solve(await gate.challenge(project)));
    await codes.issue(project, undefined, 'recovery');
    await risk.recordFailure(project, risk.accountKey(project, 'x@example.com'), '203.0.113.1', RISK_DEFAULTS);
    const sweeper = t.container.flows.sweeper;
    expect(await sweeper.sweep()).toMatchObject({ captcha_spent: 0, one_time_codes: 0, ip_failures: 0 });
    t.clock.advance(2 * 24 * 3600 * 1000);
    const swept = await sweeper.sweep();
    expect(swept.captcha_spent).toBeGreaterThanOrEqual(1);
    expect(swept.one_time_codes).toBeGreaterThanOrEqual(1);
    expect(swept.ip_failures).toBeGreaterThanOrEqual(1);
    expect(await risk.accountBlocked(project, risk.accountKey(project, 'x@example.com'), RISK_DEFAULTS)).toBe(false);
    const failures = await t.container.db.selectFrom('login_failures').selectAll().where('project_id', '=', project).execute();
    expect(failures).toHaveLength(1);
  });
});
