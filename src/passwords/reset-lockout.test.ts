import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, errorBody, type TestApp } from '../../test/helpers/app.js';
import { FlowClient, registerThroughFlow, STRONG_PASSWORD } from '../flows/flow-test-kit.js';
import { RISK_DEFAULTS, type BudgetedFactor } from '../flows/risk/service.js';

/**
 * DESIGN §4.6a "disabled until reset": a new password lifts the lock-out of the user's password
 * (counted per user), and of the identifiers failures were once counted under.
 */
describe('a password set lifts the lock-out', () => {
  let t: TestApp;
  let project: { id: string; project_secret: string };
  let ipCounter = 1;
  const NEW_PASSWORD = 'a fresh operator passphrase 77';
  const risk = () => t.container.flows.risk;
  /** An identifier's own counter: an unknown identifier's, or where failures were counted before issue 31. */
  const key = (identifier: string) => risk().accountKey(project.id, identifier);
  const putPassword = (userId: string, password: string) =>
    t.app.inject({ method: 'PUT', url: `/users/${userId}/password`, headers: bearer(project.project_secret), payload: { password } });
  const userIdOf = async (email: string) => (await t.container.users.findByIdentifier(project.id, undefined, email))!.id;
  /** The counter of the user's factor that a sign-in with `email` counts against. */
  const userKey = async (email: string, factor: BudgetedFactor = 'password') => risk().accountKeyFor(project.id, { userId: await userIdOf(email), identifier: email }, factor);
  const failuresAt = (accountKey: string) =>
    t.container.db.selectFrom('login_failures').select(['failures', 'locked_until']).where('project_id', '=', project.id).where('account_key', '=', accountKey).executeTakeFirst();
  const failuresOf = async (email: string) => failuresAt(await userKey(email));

  /** One login through the real flow API, from a fresh IP so that IP velocity never interferes. */
  async function login(email: string, password: string) {
    const client = new FlowClient(t, `198.51.100.${ipCounter++}`);
    const started = (await client.start({ project_id: project.id, purpose: 'login' })).json();
    const atPassword = await client.submit(started.id, 'continue', { email });
    expect(atPassword.statusCode, atPassword.body).toBe(200);
    return client.submit(atPassword.json().id, 'sign_in', { password });
  }
  const succeeds = async (email: string, password: string) => {
    const response = await login(email, password);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().handoff_token).toEqual(expect.any(String));
  };
  const refused = async (email: string, password: string) => expect(errorBody(await login(email, password)).code).toBe('flow.invalid_credentials');

  beforeAll(async () => {
    t = await createTestApp();
    project = await t.createProject();
  });
  afterAll(async () => t.close());

  it('lifts a lock made by failed logins: the new password signs in at once', async () => {
    await registerThroughFlow(t, project.id, 'locked@example.com');
    for (let i = 0; i < 5; i++) await refused('locked@example.com', 'not the password 1');
    await refused('locked@example.com', STRONG_PASSWORD);
    expect((await failuresOf('locked@example.com'))?.failures).toBe(5);
    expect((await putPassword(await userIdOf('locked@example.com'), NEW_PASSWORD)).statusCode).toBe(204);
    expect(await failuresOf('locked@example.com')).toBeUndefined();
    await succeeds('locked@example.com', NEW_PASSWORD);
  });

  it('lifts it the same way when the user recovers the account through the recovery flow', async () => {
    await registerThroughFlow(t, project.id, 'recovers@example.com');
    for (let i = 0; i < 5; i++) await refused('recovers@example.com', 'not the password 4');
    expect((await failuresOf('recovers@example.com'))?.failures).toBe(5);
    const client = new FlowClient(t, '198.51.100.250');
    const started = (await client.start({ project_id: project.id, purpose: 'recovery' })).json();
    const atCode = (await client.submit(started.id, 'send_code', { email: 'Recovers@Example.com' })).json();
    await t.container.flows.courier.flush();
    // The code goes to the stored address, whatever spelling was typed.
    const [mail] = await t.container.flows.courier.outboxFor('recovers@example.com');
    const code = /\b(\d{6})\b/.exec(mail?.body ?? '')![1];
    const atPassword = (await client.submit(atCode.id, 'verify', { code })).json();
    const saved = await client.submit(atPassword.id, 'save', { password: NEW_PASSWORD });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(await failuresOf('recovers@example.com')).toBeUndefined();
    await succeeds('recovers@example.com', NEW_PASSWORD);
  });

  it('re-enables a password disabled after 100 failures', async () => {
    await registerThroughFlow(t, project.id, 'disabled@example.com');
    const disabled = await userKey('disabled@example.com');
    for (let i = 0; i < 100; i++) await risk().recordFailure(project.id, disabled, '203.0.113.99', RISK_DEFAULTS);
    // Long after the last timed lock: only the "disabled until reset" state is left.
    t.clock.advance(24 * 3600 * 1000);
    expect(await risk().accountBlocked(project.id, disabled, RISK_DEFAULTS)).toBe(true);
    expect((await putPassword(await userIdOf('disabled@example.com'), NEW_PASSWORD)).statusCode).toBe(204);
    expect(await risk().accountBlocked(project.id, disabled, RISK_DEFAULTS)).toBe(false);
    await succeeds('disabled@example.com', NEW_PASSWORD);
  });

  it('changes nothing when the new password is refused', async () => {
    await registerThroughFlow(t, project.id, 'refused@example.com');
    for (let i = 0; i < 5; i++) await refused('refused@example.com', 'not the password 2');
    const before = await failuresOf('refused@example.com');
    expect(before?.failures).toBe(5);
    const userId = await userIdOf('refused@example.com');
    for (const password of ['short', 'password1', 'refused@example.com']) {
      const response = await putPassword(userId, password);
      expect(response.statusCode).toBe(400);
      expect(errorBody(response).code).toBe('auth.password_policy');
    }
    expect(await failuresOf('refused@example.com')).toEqual(before);
    expect(await risk().accountBlocked(project.id, await userKey('refused@example.com'), RISK_DEFAULTS)).toBe(true);
    expect(await t.container.passwords.verify(project.id, userId, STRONG_PASSWORD)).toBe(true);
  });

  it('counts every spelling that signs in to the user on one account, and a reset clears it', async () => {
    await registerThroughFlow(t, project.id, 'kim@example.com');
    // `ı` (dotless i) folds to `i` in user lookup: the same account, so the same counter.
    for (let i = 0; i < 5; i++) await refused(i % 2 ? 'KIM@example.com' : 'kım@example.com', 'not the password 3');
    expect((await failuresOf('kim@example.com'))?.failures).toBe(5);
    await refused('kim@example.com', STRONG_PASSWORD);
    await refused('kım@example.com', STRONG_PASSWORD);
    expect((await putPassword(await userIdOf('kim@example.com'), NEW_PASSWORD)).statusCode).toBe(204);
    await succeeds('kım@example.com', NEW_PASSWORD);
    await succeeds(' Kim@Example.com ', NEW_PASSWORD);
  });

  it("clears the user's password counter and every identifier's (email, team username, numeric badge), and nothing else", async () => {
    const schema = await t.container.schemas.create(project.id, {
      type: 'object',
      objectType: 'staff',
      'x-auth-methods': { password: { enabled: true } },
      properties: {
        email: { type: 'string', 'x-unique': 'project' },
        username: { type: 'string', 'x-unique': 'team' },
        badge: { type: 'integer', 'x-unique': 'project' },
        nickname: { type: 'string', 'x-unique': 'unspecified' },
      },
    });
    const user = await t.container.users.create(project.id, { schema: schema.id, attributes: { email: 'Staff@Example.com', username: 'Ståff', badge: 4711, nickname: 'stf' } });
    const locked = ['staff@example.com', 'STÅFF', '4711'];
    const untouched = ['stf', 'someone-else@example.com'];
    const ofUser = (factor: BudgetedFactor) => risk().accountKeyFor(project.id, { userId: user.id, identifier: 'staff@example.com' }, factor);
    const secondFactors = [ofUser('totp'), ofUser('recovery_code')];
    for (const accountKey of [...locked.map(key), ...untouched.map(key), ofUser('password'), ...secondFactors]) await risk().recordFailure(project.id, accountKey, '203.0.113.98', RISK_DEFAULTS);
    expect((await putPassword(user.id, NEW_PASSWORD)).statusCode).toBe(204);
    for (const identifier of locked) expect(await failuresAt(key(identifier)), identifier).toBeUndefined();
    expect(await failuresAt(ofUser('password'))).toBeUndefined();
    for (const identifier of untouched) expect((await failuresAt(key(identifier)))?.failures, identifier).toBe(1);
    // A new password is no reason to allow more guesses at a second factor.
    for (const accountKey of secondFactors) expect((await failuresAt(accountKey))?.failures).toBe(1);
  });

  it('runs in the transaction that writes the password: a failing hook leaves password and lock as they were', async () => {
    await registerThroughFlow(t, project.id, 'atomic@example.com');
    const userId = await userIdOf('atomic@example.com');
    for (let i = 0; i < 5; i++) await risk().recordFailure(project.id, await userKey('atomic@example.com'), '203.0.113.97', RISK_DEFAULTS);
    t.container.passwords.onPasswordSet(async (_trx, event) => {
      if (event.userId === userId) throw new Error('hook failed on purpose');
    });
    expect((await putPassword(userId, NEW_PASSWORD)).statusCode).toBe(500);
    expect((await failuresOf('atomic@example.com'))?.failures).toBe(5);
    expect(await t.container.passwords.verify(project.id, userId, STRONG_PASSWORD)).toBe(true);
  });
});
