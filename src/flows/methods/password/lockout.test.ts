import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, errorBody, type TestApp } from '../../../../test/helpers/app.js';
import { FlowClient, registerThroughFlow, STRONG_PASSWORD } from '../../flow-test-kit.js';

/** DESIGN §4.6a "Budgets hold under concurrency" for passwords (issue 20, item 1). */
describe('password lock-out under concurrent guesses', () => {
  let t: TestApp;
  let project: { id: string };
  let compared = 0;

  beforeAll(async () => {
    t = await createTestApp();
    project = await t.createProject();
    await registerThroughFlow(t, project.id, 'target@example.com');
    // Count the real comparisons (the real method still runs): how many guesses reached the hash.
    const passwords = t.container.passwords;
    // (sign-in compares through verifyReadingMethods, which also reports the user's credential methods)
    const verify = passwords.verifyReadingMethods.bind(passwords);
    passwords.verifyReadingMethods = async (...args: Parameters<typeof verify>) => {
      compared++;
      return verify(...args);
    };
  });
  afterAll(async () => t.close());

  it('of 24 concurrent wrong guesses at most account_lock_after + 1 = 5 are compared; all answer alike', async () => {
    const client = new FlowClient(t, '198.51.100.24');
    const started = await client.start({ project_id: project.id, purpose: 'login' });
    const atPassword = (await client.submit(started.json().id, 'continue', { email: 'target@example.com' })).json();
    compared = 0;
    const answers = await Promise.all(Array.from({ length: 24 }, (_, i) => client.submit(atPassword.id, 'sign_in', { password: `wrong guess number ${i}` })));
    expect(answers.map((a) => a.statusCode)).toEqual(Array(24).fill(400));
    const bodies = new Set(answers.map((a) => JSON.stringify(errorBody(a))));
    expect(bodies.size).toBe(1);
    expect(compared).toBe(5);
    const account = await t.container.db.selectFrom('login_failures').select(['failures', 'locked_until']).executeTakeFirstOrThrow();
    expect(account.failures).toBe(5);
    expect(account.locked_until!.getTime()).toBeGreaterThan(t.clock.now().getTime());
    const ip = await t.container.db.selectFrom('ip_failures').select('count').where('ip', '=', '198.51.100.24').executeTakeFirstOrThrow();
    expect(ip.count).toBe(24);

    // Locked: even the right password is not compared; after the lock it signs in and resets.
    compared = 0;
    expect((await client.submit(atPassword.id, 'sign_in', { password: STRONG_PASSWORD })).statusCode).toBe(400);
    expect(compared).toBe(0);
    t.clock.advance(11_000);
    // From another address (the burst made the captcha mandatory for this one).
    const elsewhere = new FlowClient(t, '198.51.100.25');
    elsewhere.cookie = client.cookie;
    const signedIn = await elsewhere.submit(atPassword.id, 'sign_in', { password: STRONG_PASSWORD });
    expect(signedIn.statusCode, signedIn.body).toBe(200);
    expect(await t.container.db.selectFrom('login_failures').selectAll().execute()).toEqual([]);
  });
});
