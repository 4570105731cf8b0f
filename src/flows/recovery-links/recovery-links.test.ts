import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, errorBody, type TestApp } from '../../../test/helpers/app.js';
import { eventsOf } from '../../events/test-kit.js';
import { formAction, PageClient } from '../../ui/page-test-kit.js';

let t: TestApp;
let project: { id: string; project_secret: string };
let other: { id: string; project_secret: string };
const password = 'correct horse battery staple 42';
const newPassword = 'a brand new passphrase 1776';

beforeAll(async () => {
  t = await createTestApp();
  project = await t.createProject('Recovery links');
  other = await t.createProject('Elsewhere');
});
afterAll(async () => t.close());

async function registered(email: string): Promise<string> {
  const client = new PageClient(t);
  const page = await client.open(`/ui/register?project_id=${project.id}`);
  const done = await client.submit(page, 'create', { email, 'name.given': 'Kim', 'name.family': 'Lee', password });
  expect(done.body).toContain('You are signed in');
  const found = await t.app.inject({ method: 'GET', url: `/users?project_id=${project.id}&identifier=${encodeURIComponent(email)}`, headers: bearer(project.project_secret) });
  return found.json().users[0].id as string;
}

const send = (userId: string, secret = project.project_secret, payload?: object) =>
  t.app.inject({ method: 'POST', url: `/users/${userId}/recovery_link`, headers: bearer(secret), ...(payload ? { payload } : {}) });

/** The link of the newest mail to the address, as the user would click it (path and query). */
async function mailedLink(email: string): Promise<{ path: string; token: string; text: string }> {
  await t.container.flows.courier.flush();
  const [mail] = await t.container.flows.courier.outboxFor(email);
  expect(mail.template).toBe('recovery_link');
  const url = new URL(/^(http\S+\/ui\/recover\S+)$/m.exec(mail.body ?? '')![1]);
  return { path: `${url.pathname}${url.search}`, token: url.searchParams.get('token')!, text: mail.body ?? '' };
}

const sessionsOf = async (userId: string) =>
  (await t.container.db.selectFrom('sessions').select('id').where('user_id', '=', userId).where('state', '=', 'active').execute()).length;

describe('recovery links an operator sends (POST /users/{id}/recovery_link, /ui/recover)', () => {
  it('mails a one-time link; opening it asks for a click, signs the user in and leads to settings, where a new password is set', async () => {
    const userId = await registered('lost@example.com');
    const sent = await send(userId, project.project_secret, { language: 'de' });
    expect(sent.statusCode, sent.body).toBe(202);
    expect(Object.keys(sent.json()).sort()).toEqual(['expires_at', 'sent_to']);
    expect(sent.json().sent_to).toBe('lost@example.com');
    expect(new Date(sent.json().expires_at).getTime() - t.clock.now().getTime()).toBe(60 * 60_000);
    expect(sent.body).not.toContain('gh_rl_');
    const link = await mailedLink('lost@example.com');
    expect(link.text).toContain('Passwort');
    expect(link.token).toMatch(/^gh_rl_/);
    // The request is an event: the caller asked for the user's recovery (never the link).
    const [requested] = await eventsOf(t, project.id, { type: 'recovery.requested', subject_id: userId });
    expect(requested).toMatchObject({ actor: { kind: 'project_secret', id: null }, subject: { kind: 'user', id: userId }, data: { method: 'recovery_link', flow_id: null, known_account: true } });
    expect(JSON.stringify(requested)).not.toContain(link.token);

    // A mail scanner's GET spends nothing: the page only offers a button.
    const browser = new PageClient(t);
    for (let i = 0; i < 2; i++) {
      const page = await browser.get(link.path);
      expect(page.statusCode).toBe(200);
      expect(page.headers['cache-control']).toBe('no-store');
      expect(page.body).toContain('Get back into your account');
    }
    expect(browser.cookies.has('__service_session')).toBe(false);
    const page = await browser.get(link.path);
    const before = await sessionsOf(userId);
    const opened = await browser.post(formAction(page.body), { token: link.token });
    expect(opened.statusCode, opened.body).toBe(303);
    expect(opened.headers.location).toBe(`/ui/settings?project_id=${project.id}`);
    expect(browser.cookies.has('__service_session')).toBe(true);
    expect(await sessionsOf(userId)).toBe(before + 1);
    const me = await t.app.inject({ method: 'GET', url: '/sessions/me', cookies: { __service_session: browser.cookies.get('__service_session')! } });
    expect(me.json().user_id).toBe(userId);
    expect(me.json().factors.map((f: { method: string }) => f.method)).toEqual(['magic_link']);

    // The sign-in is fresh: settings opens its menu without asking for the old password.
    const menu = await browser.open(String(opened.headers.location));
    expect(menu.body).toContain('change_password');
    const form = await browser.submit(menu, 'change_password');
    const saved = await browser.submit(form, 'save', { password: newPassword });
    expect(saved.statusCode, saved.body).toBe(200);

    const login = new PageClient(t);
    const signIn = await login.open(`/ui/login?project_id=${project.id}`);
    const identified = await login.submit(signIn, 'continue', { email: 'lost@example.com' });
    const done = await login.submit(identified, 'sign_in', { password: newPassword });
    expect(done.body).toContain('You are signed in');

    // Once only.
    const again = await new PageClient(t).post(formAction(page.body), { token: link.token });
    expect(again.statusCode).toBe(410);
    expect(again.body).toContain('already used');
    expect((await new PageClient(t).get(link.path)).statusCode).toBe(410);
  });

  it('of 20 concurrent openings exactly one signs in', async () => {
    const userId = await registered('race@example.com');
    expect((await send(userId)).statusCode).toBe(202);
    const link = await mailedLink('race@example.com');
    const before = await sessionsOf(userId);
    const action = `/ui/recover?project_id=${project.id}`;
    const answers = await Promise.all(Array.from({ length: 20 }, () => new PageClient(t).post(action, { token: link.token })));
    expect(answers.map((a) => a.statusCode).sort()).toEqual([303, ...Array(19).fill(410)]);
    expect(await sessionsOf(userId)).toBe(before + 1);
  });

  it('expires after an hour, is superseded by a newer link, and works only in its own project', async () => {
    const userId = await registered('later@example.com');
    await send(userId);
    const first = await mailedLink('later@example.com');
    t.clock.advance(30_000);
    await send(userId);
    const second = await mailedLink('later@example.com');
    expect(second.token).not.toBe(first.token);
    expect((await new PageClient(t).post(`/ui/recover?project_id=${project.id}`, { token: first.token })).statusCode).toBe(410);
    expect((await new PageClient(t).post(`/ui/recover?project_id=${other.id}`, { token: second.token })).statusCode).toBe(410);
    expect((await new PageClient(t).get(`/ui/recover?project_id=${other.id}&token=${second.token}`)).statusCode).toBe(410);
    t.clock.advance(60 * 60_000);
    expect((await new PageClient(t).get(second.path)).statusCode).toBe(410);
    expect((await new PageClient(t).post(`/ui/recover?project_id=${project.id}`, { token: second.token })).statusCode).toBe(410);
    const swept = await t.container.flows.sweeper.sweep();
    expect(swept.recovery_links).toBeGreaterThanOrEqual(2);
  });

  it('refuses a cross-site post, another project\'s credential (404), a missing user, and a spent mail budget (429)', async () => {
    const userId = await registered('guarded@example.com');
    await send(userId);
    const link = await mailedLink('guarded@example.com');
    const refused = await new PageClient(t).post(`/ui/recover?project_id=${project.id}`, { token: link.token }, { origin: 'https://evil.example' });
    expect(refused.statusCode).toBe(403);
    expect((await new PageClient(t).post(`/ui/recover?project_id=${project.id}`, { token: link.token })).statusCode).toBe(303);

    expect(errorBody(await send(userId, other.project_secret))).toMatchObject({ code: 'user.not_found' });
    expect(errorBody(await send('usr_doesnotexist0000000000', project.project_secret)).code).toBe('user.not_found');
    expect(errorBody(await send(userId, project.project_secret, { language: 'fr' })).code).toBe('req.invalid');

    // The registration's code mail is not on this budget's account (it had none); five per window by default.
    const answers = [];
    for (let i = 0; i < 6; i++) answers.push(await send(userId));
    const statuses = answers.map((a) => a.statusCode);
    expect(statuses).toContain(429);
    const limited = answers.find((a) => a.statusCode === 429)!;
    expect(errorBody(limited).code).toBe('auth.rate_limited');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    // Each link sent is one recovery.requested; a refused request (404, 400, 429) writes none.
    const requested = await eventsOf(t, project.id, { type: 'recovery.requested', subject_id: userId });
    expect(requested.length).toBe(1 + statuses.filter((status) => status === 202).length);
    expect(await eventsOf(t, other.id, { type: 'recovery.requested' })).toEqual([]);
  });

  it('refuses a user with no e-mail identifier (409 user.no_address) and sends nothing', async () => {
    const schema = await t.app.inject({
      method: 'POST',
      url: `/schemas?project_id=${project.id}`,
      headers: bearer(project.project_secret),
      payload: {
        $id: 'https://example.com/schemas/handle-only',
        type: 'object',
        required: ['handle'],
        additionalProperties: false,
        'x-auth-methods': { password: { enabled: true } },
        properties: { handle: { type: 'string', minLength: 3, maxLength: 30, 'x-unique': 'project' }, contact: { type: 'string' } },
      },
    });
    expect(schema.statusCode, schema.body).toBe(201);
    // An '@' in a property that identifies no one is not an address to send a sign-in link to.
    const created = await t.app.inject({ method: 'POST', url: `/users?project_id=${project.id}`, headers: bearer(project.project_secret), payload: { schema: 'https://example.com/schemas/handle-only', attributes: { handle: 'nomail', contact: 'x@example.com' } } });
    expect(created.statusCode, created.body).toBe(201);
    const refused = await send(created.json().id);
    expect(refused.statusCode).toBe(409);
    expect(errorBody(refused).code).toBe('user.no_address');
    await t.container.flows.courier.flush();
    expect(await t.container.flows.courier.outboxFor('x@example.com')).toEqual([]);
    expect(await eventsOf(t, project.id, { type: 'recovery.requested', subject_id: created.json().id })).toEqual([]);
  });
});
