import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { bearer, createListeningTestApp, errorBody, type TestApp } from '../../../../test/helpers/app.js';
import { FLOW_COOKIE } from '../../cookie.js';
import { FlowClient, STRONG_PASSWORD } from '../../flow-test-kit.js';
import { BUDGETED_FACTORS, type BudgetedFactor } from '../../risk/service.js';

/**
 * DESIGN §4.6a "One account, one counter" (issue 31, item 3): a user who signs in with an e-mail
 * address or a username has one password budget, whichever identifier and definition is used.
 * `by-email` asks for the address and the password in one step; `by-username` asks for the
 * username, then the password.
 */
describe('one account, one counter', () => {
  let t: TestApp & { base: string };
  let project: { id: string; project_secret: string };
  let schemaId: string;
  let ip = 0;
  let compared = 0;
  let dummies = 0;
  const risk = () => t.container.flows.risk;
  const counter = (accountKey: string) =>
    t.container.db.selectFrom('login_failures').select(['failures', 'locked_until']).where('project_id', '=', project.id).where('account_key', '=', accountKey).executeTakeFirst();
  const userKey = (userId: string, factor: BudgetedFactor = 'password') => risk().accountKeyFor(project.id, { userId, identifier: '' }, factor);
  const client = () => new FlowClient(t, `198.51.100.${++ip}`);
  /** The answer without the flow's id: a guess in another flow must answer the same. */
  const answerOf = (response: LightMyRequestResponse) => {
    const body = errorBody(response);
    return { status: response.statusCode, ...body, details: { ...body.details, flow_id: 'any' } };
  };

  async function byEmail(email: string, password: string, c = client()) {
    const started = await c.start({ project_id: project.id, purpose: 'login', app_id: 'by-email' });
    expect(started.statusCode, started.body).toBe(200);
    return c.submit(started.json().id, 'sign_in', { email, password });
  }
  /** Up to the password step of `by-username`: the flow's id. */
  async function atUsernamePassword(username: string, c: FlowClient): Promise<string> {
    const started = await c.start({ project_id: project.id, purpose: 'login', app_id: 'by-username' });
    const atPassword = await c.submit(started.json().id, 'continue', { username });
    expect(atPassword.json().step.name, atPassword.body).toBe('password');
    return atPassword.json().id;
  }
  async function byUsername(username: string, password: string) {
    const c = client();
    return c.submit(await atUsernamePassword(username, c), 'sign_in', { password });
  }
  async function createUser(email: string, username: string): Promise<string> {
    const user = await t.container.users.create(project.id, { schema: schemaId, attributes: { email, username } });
    const set = await t.app.inject({ method: 'PUT', url: `/users/${user.id}/password`, headers: bearer(project.project_secret), payload: { password: STRONG_PASSWORD } });
    expect(set.statusCode, set.body).toBe(204);
    return user.id;
  }
  const definition = (name: string, first: string, steps: unknown[], uri: string) => ({ schema_uri: uri, flow_definition: { name, user_schema: uri, purposes: { login: first }, audience: { app_ids: [name] }, steps } });
  const sign_in = { name: 'sign_in', kind: 'submit', primary: true };

  beforeAll(async () => {
    t = await createListeningTestApp();
    project = await t.createProject();
    const schema = await t.container.schemas.create(project.id, {
      type: 'object',
      objectType: 'member',
      'x-auth-methods': { password: { enabled: true } },
      properties: { email: { type: 'string', format: 'email', 'x-unique': 'project' }, username: { type: 'string', 'x-unique': 'project' } },
    });
    schemaId = schema.id;
    const uri = (await t.container.schemas.resolve(project.id, schema.id))!.uri;
    const done = { name: 'done', complete: 'show' };
    for (const body of [
      definition('by-email', 'login', [{ name: 'login', fields: ['email', 'x-auth-methods#password'], actions: [sign_in], transitions: { sign_in: { target: 'done' } } }, done], uri),
      definition(
        'by-username',
        'identify',
        [
          { name: 'identify', fields: ['username'], actions: [{ name: 'continue', kind: 'submit', primary: true }], transitions: { continue: { target: 'password' } } },
          { name: 'password', fields: ['x-auth-methods#password'], actions: [sign_in], transitions: { sign_in: { target: 'done' } } },
          done,
        ],
        uri,
      ),
    ]) {
      const created = await t.app.inject({ method: 'POST', url: '/flow_definitions', headers: bearer(project.project_secret), payload: body });
      expect(created.statusCode, created.body).toBe(201);
    }
    // The burst comes from one address: keep the IP rules out of the way of the account's.
    const risky = { account_lock_after: 4, ip_captcha_after: 1000, ip_block_after: 1000 };
    expect((await t.app.inject({ method: 'PUT', url: `/projects/${project.id}/flow_settings`, headers: bearer(project.project_secret), payload: { risk: risky } })).statusCode).toBe(200);
    // Count the real comparisons and the dummy hashes (the real ones still run). A comparison takes
    // a while, as under load, so that a burst overlaps: were the guess not reserved before its
    // comparison, most of the 30 would reach it (seen with a check-then-count variant).
    const passwords = t.container.passwords;
    const verify = passwords.verifyReadingMethods.bind(passwords);
    passwords.verifyReadingMethods = async (...args: Parameters<typeof verify>) => {
      compared++;
      await new Promise((resolve) => setTimeout(resolve, 100));
      return verify(...args);
    };
    const dummy = passwords.dummyVerify.bind(passwords);
    passwords.dummyVerify = async () => {
      dummies++;
      return dummy();
    };
  });
  afterAll(async () => t.close());

  it('3 wrong passwords by e-mail and 3 by username lock the user: then the right one fails like a wrong one, by either', async () => {
    const userId = await createUser('both@example.com', 'both-user');
    const wrong = answerOf(await byEmail('both@example.com', 'wrong password 1'));
    expect(wrong).toMatchObject({ status: 400, code: 'flow.invalid_credentials' });
    for (let i = 0; i < 2; i++) expect(answerOf(await byEmail('Both@Example.com', 'wrong password 1'))).toEqual(wrong);
    for (let i = 0; i < 3; i++) expect(answerOf(await byUsername('both-user', 'wrong password 1'))).toEqual(wrong);
    compared = 0;
    expect(answerOf(await byEmail('both@example.com', STRONG_PASSWORD))).toEqual(wrong);
    expect(answerOf(await byUsername('BOTH-USER', STRONG_PASSWORD))).toEqual(wrong);
    expect(compared).toBe(0);
    // The 6th guess found the user locked and was not counted.
    expect((await counter(userKey(userId)))?.failures).toBe(5);
    for (const identifier of ['both@example.com', 'both-user']) expect(await counter(risk().accountKey(project.id, identifier)), identifier).toBeUndefined();

    t.clock.advance(10_000);
    const signedIn = await byUsername('both-user', STRONG_PASSWORD);
    expect(signedIn.statusCode, signedIn.body).toBe(200);
    expect(signedIn.json().handoff_token).toEqual(expect.any(String));
    expect(await counter(userKey(userId))).toBeUndefined();
  });

  it('an unknown identifier still locks on its own counter after as many tries, with a dummy hash each, answering like a known one', async () => {
    const known = answerOf(await byEmail('both@example.com', 'wrong password 2'));
    dummies = 0;
    compared = 0;
    for (let i = 0; i < 6; i++) expect(answerOf(await byEmail(i % 2 ? 'Nobody@Example.com' : 'nobody@example.com', 'wrong password 2'))).toEqual(known);
    expect(dummies).toBe(6);
    expect(compared).toBe(0);
    const nobody = await counter(risk().accountKey(project.id, 'nobody@example.com'));
    expect(nobody?.failures).toBe(5);
    expect(nobody!.locked_until!.getTime()).toBeGreaterThan(t.clock.now().getTime());
    expect(await counter(risk().accountKey(project.id, 'somebody-else@example.com'))).toBeUndefined();
  });

  it('of 30 concurrent wrong passwords over HTTP, split across both identifiers and definitions, at most 5 are compared', async () => {
    const userId = await createUser('burst@example.com', 'burst-user');
    const submits: Array<{ id: string; cookie: string; fields: Record<string, string> }> = [];
    for (let i = 0; i < 30; i++) {
      const c = client();
      if (i % 2) {
        const id = await atUsernamePassword('burst-user', c);
        submits.push({ id, cookie: c.cookie!, fields: { password: `wrong guess ${i}` } });
      } else {
        const started = await c.start({ project_id: project.id, purpose: 'login', app_id: 'by-email' });
        submits.push({ id: started.json().id, cookie: c.cookie!, fields: { email: 'burst@example.com', password: `wrong guess ${i}` } });
      }
    }
    compared = 0;
    const answers = await Promise.all(
      submits.map(async ({ id, cookie, fields }) => {
        const response = await fetch(`${t.base}/flow/${id}/submit`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', cookie: `${FLOW_COOKIE}=${cookie}` },
          body: JSON.stringify({ action: 'sign_in', fields }),
        });
        const body = (await response.json()) as { code: string; details: Record<string, unknown> };
        return JSON.stringify({ status: response.status, code: body.code, fields: body.details.fields });
      }),
    );
    expect(new Set(answers)).toEqual(new Set([JSON.stringify({ status: 400, code: 'flow.invalid_credentials', fields: { password: 'error.invalid_credentials' } })]));
    expect(compared).toBe(5);
    const row = await counter(userKey(userId));
    expect(row?.failures).toBe(5);
    expect(row!.locked_until!.getTime()).toBeGreaterThan(t.clock.now().getTime());
  });

  it("an operator's unlock clears all of the user's counters (password, TOTP, recovery codes); deleting the user forgets them", async () => {
    const userId = await createUser('admin@example.com', 'admin-user');
    const otherId = await createUser('other@example.com', 'other-user');
    const keys = (id: string) => BUDGETED_FACTORS.map((factor) => userKey(id, factor));
    const legacy = ['admin@example.com', 'admin-user'].map((identifier) => risk().accountKey(project.id, identifier));
    for (const accountKey of [...keys(userId), ...keys(otherId), ...legacy]) {
      for (let i = 0; i < 5; i++) await risk().recordFailure(project.id, accountKey, '203.0.113.50', (await t.container.flows.settings.flowSettings(project.id)).risk);
    }
    expect(await risk().accountBlocked(project.id, userKey(userId, 'totp'), (await t.container.flows.settings.flowSettings(project.id)).risk)).toBe(true);
    const unlocked = await t.app.inject({ method: 'POST', url: `/users/${userId}/unlock`, headers: bearer(project.project_secret) });
    expect(unlocked.statusCode, unlocked.body).toBe(204);
    for (const accountKey of [...keys(userId), ...legacy]) expect(await counter(accountKey)).toBeUndefined();
    for (const accountKey of keys(otherId)) expect((await counter(accountKey))?.failures).toBe(5);

    const deleted = await t.app.inject({ method: 'DELETE', url: `/users/${otherId}`, headers: bearer(project.project_secret) });
    expect(deleted.statusCode, deleted.body).toBe(204);
    for (const accountKey of keys(otherId)) expect(await counter(accountKey)).toBeUndefined();
  });
});
