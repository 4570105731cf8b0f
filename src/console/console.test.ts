import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/helpers/app.js';
import { FlowClient, STRONG_PASSWORD } from '../flows/flow-test-kit.js';
import { postForm } from '../oauth/testing.js';
import { consoleBrowser } from './console-test-kit.js';

const ORIGIN = 'http://localhost';

/** The `name=value` of the cookies an answer sets (the empty ones are deletions and left out). */
function cookiesOf(response: LightMyRequestResponse): Record<string, string> {
  return Object.fromEntries(response.cookies.filter((c) => c.value !== '').map((c) => [c.name, c.value]));
}
const header = (cookies: Record<string, string>) => Object.entries(cookies).map(([name, value]) => `${name}=${value}`).join('; ');

describe('the console: first run, sign-in through the hosted login, projects (inject)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ publicUrl: ORIGIN });
  });
  afterAll(async () => t.close());

  /**
   * Runs the console's sign-in from its redirect to /auth/authorize: the user signs up (or in)
   * through the flow API, the handoff goes back to the authorization endpoint, and the browser
   * lands on /console/callback, whose answer is returned.
   */
  async function throughHostedLogin(toAuthorize: LightMyRequestResponse, user: { email: string; register: boolean }) {
    expect(toAuthorize.statusCode).toBe(303);
    const login = cookiesOf(toAuthorize);
    const authorize = await t.app.inject({ method: 'GET', url: new URL(toAuthorize.headers.location as string).pathname + new URL(toAuthorize.headers.location as string).search });
    expect(authorize.statusCode).toBe(302);
    const page = new URL(authorize.headers.location as string);
    expect(page.pathname).toBe(user.register ? '/ui/register' : '/ui/login');
    const binding = cookiesOf(authorize);
    const flows = new FlowClient(t);
    const projectId = page.searchParams.get('project_id')!;
    let handoff: string;
    if (user.register) {
      const started = await flows.start({ project_id: projectId, purpose: 'register' });
      handoff = (await flows.submit(started.json().id, 'create', { email: user.email, 'name.given': 'Olga', password: STRONG_PASSWORD })).json().handoff_token;
    } else {
      const started = await flows.start({ project_id: projectId, purpose: 'login' });
      const identified = await flows.submit(started.json().id, 'continue', { email: user.email });
      handoff = (await flows.submit(identified.json().id, 'sign_in', { password: STRONG_PASSWORD })).json().handoff_token;
    }
    expect(handoff).toBeTruthy();
    const resumed = await postForm(t, '/auth/authorize/resume', { authorization_id: page.searchParams.get('authorization_id')!, handoff_token: handoff }, { cookie: header(binding) });
    const back = new URL(resumed.headers.location as string);
    expect(back.pathname).toBe('/console/callback');
    return t.app.inject({ method: 'GET', url: back.pathname + back.search, headers: { cookie: header(login) } });
  }
  /** The first operator's console cookie and their first project, shared by the tests that follow. */
  let operatorCookie: Record<string, string> = {};
  let shop: { id: string; secret: string };

  it('makes the first operator from the printed set-up link, once, and lets them create a project', async () => {
    const link = new URL((await t.container.consoleAccess.setupLink())!);
    expect(link.origin).toBe(ORIGIN);
    const setupPage = await t.app.inject({ method: 'GET', url: link.pathname + link.search });
    expect(setupPage.statusCode).toBe(200);
    expect(setupPage.headers['cache-control']).toBe('no-store');
    expect(setupPage.body).toContain('Create the operator account');
    const token = link.searchParams.get('token')!;

    // A cross-site form post is refused.
    const forged = await t.app.inject({ method: 'POST', url: '/console/setup', headers: { origin: 'https://evil.example', 'content-type': 'application/x-www-form-urlencoded' }, payload: `token=${encodeURIComponent(token)}` });
    expect(forged.statusCode).toBe(403);

    const started = await t.app.inject({ method: 'POST', url: '/console/setup', headers: { origin: ORIGIN, 'content-type': 'application/x-www-form-urlencoded' }, payload: `token=${encodeURIComponent(token)}` });
    expect(new URL(started.headers.location as string).searchParams.get('prompt')).toBe('create');
    const callback = await throughHostedLogin(started, { email: 'olga@example.com', register: true });
    expect(callback.statusCode).toBe(303);
    expect(callback.headers.location).toBe('/console?welcome=1');
    const session = cookiesOf(callback);
    const consoleCookie = callback.cookies.find((c) => c.name === '_zconsole')!;
    expect(consoleCookie).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/console' });

    const home = await t.app.inject({ method: 'GET', url: '/console?welcome=1', headers: { cookie: header(session) } });
    expect(home.statusCode).toBe(200);
    expect(home.body).toContain('You are the first operator');
    expect(home.body).toContain('instance admin');
    // Signed up with a password alone: the console asks for a second factor before the next sign-in.
    expect(home.body).toContain('has no second factor yet');

    // The link is used up: a second browser gets the refusal, not a second operator.
    const again = await t.app.inject({ method: 'GET', url: link.pathname + link.search });
    expect(again.statusCode).toBe(404);
    expect(await t.container.consoleAccess.setupLink()).toBeUndefined();

    const created = await t.app.inject({ method: 'POST', url: '/console/projects', headers: { origin: ORIGIN, cookie: header(session), 'content-type': 'application/x-www-form-urlencoded' }, payload: 'name=Shop' });
    expect(created.statusCode).toBe(201);
    expect(created.body).toMatch(/gh_[A-Za-z0-9_-]+/);
    const projectId = /\/ui\/login\?project_id=([A-Za-z0-9_]+)/.exec(created.body)![1];
    expect(created.body).toContain(`${ORIGIN}/ui/register?project_id=${projectId}`);
    expect(created.body).toContain('@gatehouse/node');

    const list = await t.app.inject({ method: 'GET', url: '/console?lang=de', headers: { cookie: header(session) } });
    expect(list.body).toContain('Projekte');
    expect(list.body).toContain('Shop');
    const page = await t.app.inject({ method: 'GET', url: `/console/projects/${projectId}`, headers: { cookie: header(session) } });
    expect(page.statusCode).toBe(200);
    expect(page.body).not.toMatch(/gh_ps_/);
    const unknown = await t.app.inject({ method: 'GET', url: '/console/projects/prj_unknown', headers: { cookie: header(session) } });
    expect(unknown.statusCode).toBe(404);
    operatorCookie = session;
    shop = { id: projectId, secret: /(gh_ps_[A-Za-z0-9_-]+)/.exec(created.body)![1] };
  });

  it('changes a project\'s settings through the API, shows its 400 at the form, rotates the secret once, and deletes a project by its name', async () => {
    const cookie = header(operatorCookie);
    const form = (url: string, payload: string) => t.app.inject({ method: 'POST', url, headers: { origin: ORIGIN, cookie, 'content-type': 'application/x-www-form-urlencoded' }, payload });
    const settings = `/console/projects/${shop.id}/settings`;
    expect((await t.app.inject({ method: 'GET', url: settings, headers: { cookie } })).statusCode).toBe(200);

    const badOrigin = await form(`${settings}/general`, 'name=Shop&preview_origins=not+an+origin');
    expect(badOrigin.statusCode).toBe(400);
    expect(badOrigin.body).toContain('body/preview_origins');
    const redirects = await form(`${settings}/redirects`, `redirect_uris=${encodeURIComponent('https://shop.example.com/callback\r\n\r\nhttps://shop.example.com/other')}`);
    expect(redirects.statusCode).toBe(303);
    const risk = await form(`${settings}/risk`, 'account_lock_after=7&mail_per_recipient=3');
    expect(risk.statusCode).toBe(303);
    const flow = (await t.app.inject({ method: 'GET', url: `/projects/${shop.id}/flow_settings`, headers: { authorization: `Bearer ${shop.secret}` } })).json();
    expect(flow.redirect_uris).toEqual(['https://shop.example.com/callback', 'https://shop.example.com/other']);
    expect(flow.risk).toMatchObject({ account_lock_after: 7, mail_per_recipient: 3 });
    expect((await form(`${settings}/risk`, 'account_lock_after=seven')).statusCode).toBe(400);

    const rotated = await form(`${settings}/rotate`, 'confirm=yes');
    expect(rotated.statusCode).toBe(200);
    const secret = /(gh_ps_[A-Za-z0-9_-]+)/.exec(rotated.body)![1];
    expect(secret).not.toBe(shop.secret);
    expect((await t.app.inject({ method: 'GET', url: `/projects/${shop.id}`, headers: { authorization: `Bearer ${secret}` } })).statusCode).toBe(200);
    shop.secret = secret;

    const created = await form('/console/projects', 'name=Doomed');
    const doomed = /\/ui\/login\?project_id=([A-Za-z0-9_]+)/.exec(created.body)![1];
    const wrongName = await form(`/console/projects/${doomed}/settings/delete`, 'confirm_name=Shop');
    expect(wrongName.statusCode).toBe(400);
    const deleted = await form(`/console/projects/${doomed}/settings/delete`, 'confirm_name=Doomed');
    expect(deleted.headers.location).toBe('/console?notice=project_deleted');
    expect((await t.app.inject({ method: 'GET', url: `/projects/${doomed}`, headers: { authorization: `Bearer ${t.adminToken}` } })).statusCode).toBe(404);
  });

  it('creates a service key whose secret is shown once and works, and gives and takes operator roles (never the last instance admin)', async () => {
    const cookie = header(operatorCookie);
    const form = (url: string, payload: string) => t.app.inject({ method: 'POST', url, headers: { origin: ORIGIN, cookie, 'content-type': 'application/x-www-form-urlencoded' }, payload });
    const created = await form(`/console/projects/${shop.id}/keys`, 'name=backend&scopes=session.write&scopes=session.read');
    expect(created.statusCode).toBe(201);
    const keyId = /GATEHOUSE_KEY_ID=(\S+)/.exec(created.body)![1];
    const keySecret = /GATEHOUSE_KEY_SECRET=([^\s<]+)/.exec(created.body)![1];
    const token = await postForm(t, '/auth/token', { grant_type: 'client_credentials' }, { authorization: `Basic ${Buffer.from(`${keyId}:${keySecret}`).toString('base64')}` });
    expect(token.statusCode, token.body).toBe(200);
    const listed = await t.app.inject({ method: 'GET', url: `/console/projects/${shop.id}/keys`, headers: { cookie } });
    expect(listed.body).toContain(keyId);
    expect(listed.body).not.toContain(keySecret);
    expect((await form(`/console/projects/${shop.id}/keys`, 'name=none')).statusCode).toBe(400);

    const system = await t.container.operators.systemProject();
    const flows = new FlowClient(t);
    const started = await flows.start({ project_id: system, purpose: 'register' });
    await flows.submit(started.json().id, 'create', { email: 'second@example.com', 'name.given': 'Sec', password: STRONG_PASSWORD });
    expect((await form('/console/operators', 'email=unknown%40example.com&project_id=')).statusCode).toBe(400);
    const granted = await form('/console/operators', `email=second%40example.com&project_id=${shop.id}`);
    expect(granted.headers.location).toBe('/console/operators?notice=saved');
    const second = (await t.container.users.findByIdentifier(system, undefined, 'second@example.com'))!;
    expect(await t.container.operators.rolesOf(second.id)).toMatchObject([{ role: 'project_admin', project_id: shop.id }]);
    const page = await t.app.inject({ method: 'GET', url: '/console/operators', headers: { cookie } });
    expect(page.body).toContain(second.id);
    expect((await form(`/console/operators/${second.id}/revoke?project_id=${shop.id}`, '')).statusCode).toBe(303);
    expect(await t.container.operators.rolesOf(second.id)).toEqual([]);
    const me = (await t.container.db.selectFrom('operator_roles').select('user_id').where('role', '=', 'instance_admin').executeTakeFirstOrThrow()).user_id;
    const last = await form(`/console/operators/${me}/revoke`, '');
    expect(last.statusCode).toBe(409);
    expect(last.body).toContain('last instance admin');
  });

  it('finds a user by identifier, revokes their session (the app\'s next check answers 401), and erases them only after a fresh sign-in', async () => {
    const cookie = header(operatorCookie);
    const form = (url: string, payload = '') => t.app.inject({ method: 'POST', url, headers: { origin: ORIGIN, cookie, 'content-type': 'application/x-www-form-urlencoded' }, payload });
    const flows = new FlowClient(t);
    const started = await flows.start({ project_id: shop.id, purpose: 'register' });
    const handoff = (await flows.submit(started.json().id, 'create', { email: 'Shopper@Example.com', 'name.given': 'Sam', password: STRONG_PASSWORD })).json().handoff_token;
    const exchanged = await t.app.inject({ method: 'POST', url: `/sessions/exchange?project_id=${shop.id}`, headers: { authorization: `Bearer ${shop.secret}` }, payload: { handoff_token: handoff } });
    const appSession = exchanged.json().session_token as string;
    const check = () => t.app.inject({ method: 'GET', url: '/sessions/me', headers: { authorization: `Bearer ${appSession}` } });
    expect((await check()).statusCode).toBe(200);

    const search = await t.app.inject({ method: 'GET', url: `/console/projects/${shop.id}/users?identifier=shopper%40example.com`, headers: { cookie } });
    expect(search.statusCode).toBe(200);
    const userId = /\/users\/(usr_[A-Za-z0-9_]+)/.exec(search.body)![1];
    const userPage = await t.app.inject({ method: 'GET', url: `/console/projects/${shop.id}/users/${userId}`, headers: { cookie } });
    expect(userPage.statusCode).toBe(200);
    expect(userPage.body).toContain('password');
    const sessionId = /\/sessions\/([A-Za-z0-9_]+)\/revoke/.exec(userPage.body)![1];

    // Attributes are edited as JSON; the API's schema errors come back at the form.
    const attributes = `/console/projects/${shop.id}/users/${userId}/attributes`;
    const notJson = await form(attributes, 'attributes=%7Bnope');
    expect(notJson.statusCode).toBe(400);
    expect(notJson.body).toContain('not valid JSON');
    const invalid = await form(attributes, `attributes=${encodeURIComponent(JSON.stringify({ email: 42 }))}`);
    expect(invalid.statusCode).toBe(400);
    expect(invalid.body).toContain('aria-invalid="true"');
    const changed = await form(attributes, `attributes=${encodeURIComponent(JSON.stringify({ email: 'sam@example.com', name: { given: 'Samuel' } }))}`);
    expect(changed.headers.location).toBe(`/console/projects/${shop.id}/users/${userId}?notice=saved`);
    expect((await t.app.inject({ method: 'GET', url: `/users/${userId}`, headers: { authorization: `Bearer ${shop.secret}` } })).json().attributes.name.given).toBe('Samuel');

    const revoked = await form(`/console/projects/${shop.id}/users/${userId}/sessions/${sessionId}/revoke`);
    expect(revoked.statusCode).toBe(303);
    expect(revoked.headers.location).toBe(`/console/projects/${shop.id}/users/${userId}?notice=revoked`);
    expect((await check()).statusCode).toBe(401);
    expect((await form(`/console/projects/${shop.id}/users/${userId}/unlock`)).statusCode).toBe(303);
    // The recovery mail goes to the user's own (changed) address, in the language chosen, with a link that works.
    const recovery = await form(`/console/projects/${shop.id}/users/${userId}/recovery_link`, 'language=de');
    expect(recovery.headers.location).toBe(`/console/projects/${shop.id}/users/${userId}?notice=recovery_sent`);
    await t.container.flows.courier.flush();
    const [mail] = await t.container.flows.courier.outboxFor('sam@example.com');
    expect(mail).toMatchObject({ template: 'recovery_link', subject: expect.stringContaining('zurücksetzen') });
    expect(mail.body).toMatch(new RegExp(`/ui/recover\\?project_id=${shop.id}&token=gh_rl_`));
    const recovered = await t.app.inject({ method: 'GET', url: `/console/projects/${shop.id}/users/${userId}?notice=recovery_sent`, headers: { cookie } });
    expect(recovered.body).toContain('The recovery mail is on its way');
    const credentialId = /\/credentials\/([A-Za-z0-9_]+)\/remove/.exec(userPage.body)![1];
    expect((await form(`/console/projects/${shop.id}/users/${userId}/credentials/${credentialId}/remove`)).headers.location).toContain('notice=credential_removed');
    expect((await t.app.inject({ method: 'GET', url: `/users/${userId}/credentials`, headers: { authorization: `Bearer ${shop.secret}` } })).json().credentials).toEqual([]);

    // Unconfirmed: nothing happens.
    expect((await form(`/console/projects/${shop.id}/users/${userId}/delete`)).headers.location).toBe(`/console/projects/${shop.id}/users/${userId}`);
    // Six minutes on, the access token has expired: the console refreshes it with the refresh
    // token (the page answers, the cookie is stored anew), but the sign-in itself is older than
    // five minutes, so erasing asks for a fresh one (max_age=300) and erases nothing.
    const admin = await consoleBrowser(t, [{ role: 'instance_admin' }], ORIGIN);
    t.clock.advance(6 * 60 * 1000);
    const refreshed = await admin.get(`/console/projects/${shop.id}/users/${userId}`);
    expect(refreshed.statusCode).toBe(200);
    const fresh = header(cookiesOf(refreshed));
    expect(fresh).toContain('_zconsole=');
    const stale = await t.app.inject({ method: 'POST', url: `/console/projects/${shop.id}/users/${userId}/delete`, headers: { origin: ORIGIN, cookie: fresh, 'content-type': 'application/x-www-form-urlencoded' }, payload: 'confirm=yes' });
    expect(stale.statusCode).toBe(303);
    expect(new URL(stale.headers.location as string).searchParams.get('max_age')).toBe('300');
    // The refresh token was rotated: the old cookie's is used up, and using it again signs in afresh.
    expect((await admin.get(`/console/projects/${shop.id}/users/${userId}`)).statusCode).toBe(303);
    expect((await t.app.inject({ method: 'GET', url: `/users/${userId}`, headers: { authorization: `Bearer ${shop.secret}` } })).statusCode).toBe(200);
  });

  it('lets a project admin see only their project (404 elsewhere), and shows the outbox only in development', async () => {
    const other = await t.createProject('Other');
    const system = await t.container.operators.systemProject();
    const flows = new FlowClient(t);
    const started = await flows.start({ project_id: system, purpose: 'register' });
    await flows.submit(started.json().id, 'create', { email: 'pat@example.com', 'name.given': 'Pat', password: STRONG_PASSWORD });
    const pat = (await t.container.users.findByIdentifier(system, undefined, 'pat@example.com'))!;
    await t.container.operators.grant(pat.id, 'project_admin', shop.id);
    // A password alone is not enough for the console (AAL2): no cookie, and the way to a second factor.
    const anonymous = await t.app.inject({ method: 'GET', url: '/console' });
    expect(new URL(anonymous.headers.location as string).searchParams.get('acr_values')).toBe('urn:nist:aal:2');
    const weak = await throughHostedLogin(anonymous, { email: 'pat@example.com', register: false });
    expect(weak.statusCode).toBe(403);
    expect(weak.body).toContain('stronger sign-in');
    expect(weak.body).toContain(`/ui/settings?project_id=${system}`);
    expect(weak.cookies.find((c) => c.name === '_zconsole' && c.value !== '')).toBeUndefined();

    const { cookie } = await consoleBrowser(t, [{ role: 'project_admin', projectId: shop.id }], ORIGIN);
    const home = await t.app.inject({ method: 'GET', url: '/console', headers: { cookie } });
    expect(home.body).toContain(shop.id);
    expect(home.body).not.toContain(other.id);
    expect(home.body).not.toContain('Create project');
    expect((await t.app.inject({ method: 'GET', url: `/console/projects/${shop.id}/users`, headers: { cookie } })).statusCode).toBe(200);
    for (const url of [`/console/projects/${other.id}`, `/console/projects/${other.id}/users`, `/console/projects/${other.id}/outbox`]) {
      expect((await t.app.inject({ method: 'GET', url, headers: { cookie } })).statusCode, url).toBe(404);
    }
    expect((await t.app.inject({ method: 'GET', url: '/console/operators', headers: { cookie } })).statusCode).toBe(404);
    const outbox = await t.app.inject({ method: 'GET', url: `/console/projects/${shop.id}/outbox`, headers: { cookie } });
    expect(outbox.statusCode).toBe(200);
    expect(outbox.body).toContain('Outbox');
  });

  it('sends a browser without a console session to the hosted login, and a user without a role gets no session', async () => {
    const anonymous = await t.app.inject({ method: 'GET', url: '/console' });
    expect(anonymous.statusCode).toBe(303);
    const authorize = new URL(anonymous.headers.location as string);
    expect(authorize.pathname).toBe('/auth/authorize');
    expect(authorize.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorize.searchParams.get('redirect_uri')).toBe(`${ORIGIN}/console/callback`);

    // A user of the system project who holds no operator role.
    const system = await t.container.operators.systemProject();
    const flows = new FlowClient(t);
    const registered = await flows.start({ project_id: system, purpose: 'register' });
    await flows.submit(registered.json().id, 'create', { email: 'nobody@example.com', 'name.given': 'No', password: STRONG_PASSWORD });
    const callback = await throughHostedLogin(anonymous, { email: 'nobody@example.com', register: false });
    expect(callback.statusCode).toBe(403);
    expect(callback.cookies.find((c) => c.name === '_zconsole' && c.value !== '')).toBeUndefined();
  });

  it('refuses a callback without the sign-in cookie or with another state', async () => {
    const bare = await t.app.inject({ method: 'GET', url: '/console/callback?code=x&state=y' });
    expect(bare.statusCode).toBe(400);
    const started = await t.app.inject({ method: 'GET', url: '/console/login' });
    const wrongState = await t.app.inject({ method: 'GET', url: '/console/callback?code=x&state=y', headers: { cookie: header(cookiesOf(started)) } });
    expect(wrongState.statusCode).toBe(400);
  });

  it('takes a set-up token once however many sign-ups race for it, and makes one first operator from many links at once', async () => {
    const fresh = await createTestApp({ publicUrl: ORIGIN });
    try {
      const link = new URL((await fresh.container.consoleAccess.setupLink())!);
      const token = link.searchParams.get('token')!;
      const system = await fresh.container.operators.systemProject();
      const users = await Promise.all(
        Array.from({ length: 20 }, async (_, i) => {
          const flows = new FlowClient(fresh);
          const started = await flows.start({ project_id: system, purpose: 'register' });
          await flows.submit(started.json().id, 'create', { email: `racer${i}@example.com`, 'name.given': 'R', password: STRONG_PASSWORD });
          return (await fresh.container.users.findByIdentifier(system, undefined, `racer${i}@example.com`))!.id;
        }),
      );
      const taken = await Promise.all(users.map((userId) => fresh.container.consoleAccess.completeSetup(token, userId)));
      expect(taken.filter(Boolean)).toHaveLength(1);
      const admins = () => fresh.container.db.selectFrom('operator_roles').select('user_id').where('role', '=', 'instance_admin').execute();
      expect(await admins()).toHaveLength(1);

      // Twenty different links (twenty starts without an operator) taken at once: still one first operator.
      await fresh.container.db.deleteFrom('operator_roles').execute();
      const tokens = await Promise.all(users.map(async () => new URL((await fresh.container.consoleAccess.setupLink())!).searchParams.get('token')!));
      const racing = await Promise.all(users.map((userId, i) => fresh.container.consoleAccess.completeSetup(tokens[i], userId)));
      expect(racing.filter(Boolean)).toHaveLength(1);
      expect(await admins()).toHaveLength(1);
    } finally {
      await fresh.close();
    }
  });
});
