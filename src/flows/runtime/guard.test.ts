import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, errorBody, type TestApp } from '../../../test/helpers/app.js';
import { constantTimeEqual } from '../../core/crypto.js';
import { AppError } from '../../core/errors.js';
import { FlowClient, methodTestProject } from '../flow-test-kit.js';
import type { AuthMethod } from '../methods/declaration.js';
import { registerMethod } from '../methods/registry.js';

/**
 * Issue 32, item 2: the engine owns the shared security rules. A throw-away method written like the
 * docs' example (docs/development.md, "Adding a sign-in method": a field, `budget: 'account'`, a
 * `verify` that calls `ctx.checkSecret`, no line about counting, locking or timing) is
 * rate-limited, locked, compared against a dummy for unknown accounts, and cannot prove its factor
 * around the check.
 */
const PIN_FIELD = 'x-auth-methods#pin';
const pins = new Map<string, string>();
const calls = { compared: 0, dummies: 0 };

const pinMethod: AuthMethod = {
  name: 'pin',
  needsSchemaKey: false,
  budget: 'account',
  field: { ref: PIN_FIELD, type: 'password', maxLength: 12, pattern: { regex: /^\d{4,12}$/, error: 'error.invalid_code' }, secret: true },
  checksCredentials: (step) => (step.fields ?? []).includes(PIN_FIELD),
  async verify(ctx, pin) {
    const checked = await ctx.checkSecret(
      'pin',
      async (userId) => {
        calls.compared++;
        // A comparison that takes a while, as a real hash does, so that a burst of guesses overlaps.
        await new Promise((resolve) => setImmediate(resolve));
        const stored = pins.get(userId);
        return stored !== undefined && constantTimeEqual(stored, pin) ? { value: true } : undefined;
      },
      async () => {
        calls.dummies++;
      },
    );
    if (!checked) throw new AppError('flow.invalid_credentials', 'The PIN is wrong.', { flow_id: ctx.flowId, fields: { pin: 'error.invalid_credentials' } });
    return undefined;
  },
};
registerMethod(pinMethod);

/** A method that tries to prove a budgeted factor without the check: refused by the engine. */
registerMethod({
  name: 'pin_shortcut',
  needsSchemaKey: false,
  field: { ref: 'x-auth-methods#pin_shortcut', type: 'text', maxLength: 12, secret: false },
  async verify(ctx) {
    if (ctx.userId !== undefined) await ctx.prove({ method: 'pin' }, ctx.userId);
    return undefined;
  },
});

describe('the engine owns the rules of a budgeted secret (a throw-away method)', () => {
  let t: TestApp;
  let project: { id: string; project_secret: string };
  let userId: string;
  let ip = 0;
  const SCHEMA = 'https://example.com/schemas/pin';

  beforeAll(async () => {
    t = await createTestApp();
    ({ project, userId } = await methodTestProject(t, { schemaId: SCHEMA, email: 'pin@example.com', purposes: { pin_login: PIN_FIELD, pin_shortcut: 'x-auth-methods#pin_shortcut' } }));
    pins.set(userId, '482916');
    const headers = bearer(project.project_secret);
    // The burst comes from one address: the IP rules stay out of the way of the account's.
    const settings = await t.app.inject({ method: 'PUT', url: `/projects/${project.id}/flow_settings`, headers, payload: { risk: { ip_captcha_after: 1000, ip_block_after: 1000 } } });
    expect(settings.statusCode, settings.body).toBe(200);
  });
  afterAll(async () => t.close());

  const guess = async (email: string, pin: string, client = new FlowClient(t, `198.51.100.${++ip}`)) => {
    const started = await client.start({ project_id: project.id, purpose: 'pin_login' });
    expect(started.statusCode, started.body).toBe(200);
    return client.submit(started.json().id, 'sign_in', { email, pin });
  };

  it('signs in with the right PIN and refuses a wrong one with the method\'s own answer', async () => {
    const right = await guess('pin@example.com', '482916');
    expect(right.statusCode, right.body).toBe(200);
    expect(right.json().step.name).toBe('done');
    const wrong = await guess('pin@example.com', '000000');
    expect(wrong.statusCode).toBe(400);
    expect(errorBody(wrong).code).toBe('flow.invalid_credentials');
  });

  it('compares at most account_lock_after + 1 of 20 concurrent guesses, then locks the PIN: the right one is refused too', async () => {
    const before = calls.compared;
    const answers = await Promise.all(Array.from({ length: 20 }, () => guess('pin@example.com', '111111')));
    expect(answers.every((answer) => answer.statusCode === 400)).toBe(true);
    // The default `account_lock_after` is 4.
    expect(calls.compared - before).toBeLessThanOrEqual(5);
    expect(calls.compared - before).toBeGreaterThanOrEqual(1);
    const locked = await guess('pin@example.com', '482916');
    expect(locked.statusCode).toBe(400);
    expect(errorBody(locked).code).toBe('flow.invalid_credentials');
    // The lock is the PIN's own: it lifts with time, as the password's does.
    t.clock.advance(24 * 60 * 60 * 1000);
    const later = await guess('pin@example.com', '482916');
    expect(later.statusCode, later.body).toBe(200);
  });

  it('answers an unknown account like a known one, with a dummy comparison, counted like an account', async () => {
    const dummies = calls.dummies;
    const unknown = await guess('nobody@example.com', '482916');
    const known = await guess('pin@example.com', '000000');
    expect(unknown.statusCode).toBe(known.statusCode);
    expect({ ...errorBody(unknown).details, flow_id: 'x' }).toEqual({ ...errorBody(known).details, flow_id: 'x' });
    expect(errorBody(unknown).message).toBe(errorBody(known).message);
    expect(calls.dummies).toBe(dummies + 1);
    const failures = await t.container.db
      .selectFrom('login_failures')
      .select('failures')
      .where('project_id', '=', project.id)
      .where('account_key', '=', t.container.flows.risk.accountKeyFor(project.id, { identifier: 'nobody@example.com' }, 'pin'))
      .executeTakeFirst();
    expect(failures?.failures).toBe(1);
  });

  it('is rate-limited per client IP like every credential check: 429 above the block threshold', async () => {
    const headers = bearer(project.project_secret);
    await t.app.inject({ method: 'PUT', url: `/projects/${project.id}/flow_settings`, headers, payload: { risk: { ip_captcha_after: 1000, ip_block_after: 3 } } });
    t.clock.set(new Date(Math.ceil(t.clock.now().getTime() / 60_000) * 60_000 + 1_000));
    const client = () => new FlowClient(t, '203.0.113.77');
    for (let i = 0; i < 4; i++) expect((await guess(`someone${i}@example.com`, '123456', client())).statusCode).toBe(400);
    const blocked = await guess('pin@example.com', '482916', client());
    expect(blocked.statusCode).toBe(429);
    expect(errorBody(blocked).code).toBe('auth.rate_limited');
    await t.app.inject({ method: 'PUT', url: `/projects/${project.id}/flow_settings`, headers, payload: { risk: { ip_captcha_after: 1000, ip_block_after: 1000 } } });
  });

  it('refuses to prove a budgeted factor around checkSecret', async () => {
    const proofs = async () => (await t.container.db.selectFrom('auth_attempts').select('id').where('project_id', '=', project.id).where('factors', '@>', JSON.stringify([{ method: 'pin' }]) as never).execute()).length;
    const before = await proofs();
    const client = new FlowClient(t, `198.51.100.${++ip}`);
    const started = await client.start({ project_id: project.id, purpose: 'pin_shortcut' });
    expect(started.statusCode, started.body).toBe(200);
    const shortcut = await client.submit(started.json().id, 'sign_in', { email: 'pin@example.com', pin_shortcut: 'anything' });
    // The method's own programming error, refused loudly: nothing any client sends reaches it.
    expect(shortcut.statusCode).toBe(500);
    expect(errorBody(shortcut).code).toBe('internal');
    expect(before).toBeGreaterThan(0);
    expect(await proofs()).toBe(before);
  });

  it('lets the unlock of a user lift the PIN lock with the built-in factors (the flows module reads every budget)', async () => {
    expect(t.container.flows.risk.budgetedFactors).toEqual(expect.arrayContaining(['password', 'totp', 'recovery_code', 'pin']));
    for (let i = 0; i < 5; i++) expect((await guess('pin@example.com', '222222')).statusCode).toBe(400);
    expect((await guess('pin@example.com', '482916')).statusCode).toBe(400);
    const unlocked = await t.app.inject({ method: 'POST', url: `/users/${userId}/unlock?project_id=${project.id}`, headers: bearer(project.project_secret) });
    expect(unlocked.statusCode, unlocked.body).toBeLessThan(300);
    const after = await guess('pin@example.com', '482916');
    expect(after.statusCode, after.body).toBe(200);
  });
});
