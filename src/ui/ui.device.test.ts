import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/helpers/app.js';
import { MINUTE } from '../core/clock.js';
import { registerThroughFlow } from '../flows/flow-test-kit.js';
import { confirmPage, cookies, decide, deviceClient, deviceCodes, poll, setCookie, signedIn, typeCode, type DeviceClient, type Project } from '../oauth/device/device-test-kit.js';
import { loginHandoff, oauthErrorBody } from '../oauth/testing.js';
import { DEVICE_TEXTS } from './i18n-device.js';

/**
 * /ui/device (RFC 8628 §3.3, DESIGN §4.19): the code form without JavaScript, the per-IP budget
 * of wrong codes (taken by the statement that looks the code up), the browser binding, the way
 * through the project's login flow (and a step-up for acr_values), and the consent that names
 * the client, its scopes and the time, and says a device will be signed in.
 */
describe('the device verification page', () => {
  let t: TestApp;
  let project: Project;
  let client: DeviceClient;

  beforeAll(async () => {
    t = await createTestApp();
    // 10 s into a minute: the budget's window has 50 s left.
    t.clock.set('2030-01-01T00:00:10.000Z');
    project = await t.createProject('Devices UI');
    client = await deviceClient(t, project, { name: 'Kitchen TV' });
  });
  afterAll(async () => t.close());

  it('shows a labelled code form, prefilled from verification_uri_complete, in English and German', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/ui/device?user_code=BCDF-GHJK' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    expect(page.body).toContain('<label for="f-user-code">Code</label>');
    expect(page.body).toContain('value="BCDF-GHJK"');
    expect(page.body).toMatch(/<form method="post" action="\/ui\/device"/);
    const german = await t.app.inject({ method: 'GET', url: '/ui/device?lang=de' });
    expect(german.body).toContain('Gerät verbinden');
    expect(german.body).toContain('lang="de"');
  });

  it('has every text in both languages', () => {
    expect(Object.keys(DEVICE_TEXTS.de).sort()).toEqual(Object.keys(DEVICE_TEXTS.en).sort());
    for (const key of Object.keys(DEVICE_TEXTS.en)) if (key !== 'ui.device.code') expect(DEVICE_TEXTS.de[key], key).not.toBe(DEVICE_TEXTS.en[key]);
  });

  it('takes the code in any case, with or without the dash, and binds the request to this browser', async () => {
    const codes = await deviceCodes(t, client);
    const typed = ` ${codes.user_code.toLowerCase().replace('-', ' ')} `;
    const { response, binding } = await typeCode(t, typed);
    expect(response.statusCode).toBe(303);
    expect(response.headers.location).toBe('/ui/device/confirm');
    const cookie = response.cookies.find((c) => c.name === '__gh_device')!;
    expect(cookie).toMatchObject({ path: '/ui/device', httpOnly: true, sameSite: 'Lax' });
    expect(binding).toMatch(/^dev_/);
  });

  it('without a session, the consent sends the browser through the login flow and back to /ui/device/resume', async () => {
    const codes = await deviceCodes(t, client);
    const { binding } = await typeCode(t, codes.user_code);
    const toLogin = await confirmPage(t, binding!);
    expect(toLogin.statusCode).toBe(303);
    const login = new URL(String(toLogin.headers.location), 'http://gatehouse.test');
    expect(login.pathname).toBe('/ui/login');
    expect(Object.fromEntries(login.searchParams)).toMatchObject({ project_id: project.id, authorization_id: binding, resume_uri: expect.stringMatching(/\/ui\/device\/resume$/) });
    // The hosted login page accepts that return address (and no other).
    const page = await t.app.inject({ method: 'GET', url: String(toLogin.headers.location) });
    expect(page.statusCode, page.body.slice(0, 300)).toBe(303);
    const foreign = await t.app.inject({ method: 'GET', url: `/ui/login?project_id=${project.id}&authorization_id=${binding}&resume_uri=https%3A%2F%2Fevil.example%2Fui%2Fdevice%2Fresume` });
    expect(foreign.statusCode).toBe(400);

    // The login flow finishes at the resume endpoint with a handoff token: the session is set, on to the consent.
    await registerThroughFlow(t, project.id, 'device-ui@example.com');
    const handoff = await loginHandoff(t, project.id, 'device-ui@example.com');
    const resumed = await t.app.inject({ method: 'GET', url: `/ui/device/resume?authorization_id=${binding}&handoff_token=${encodeURIComponent(handoff)}`, headers: cookies({ __gh_device: binding }) });
    expect(resumed.statusCode, resumed.body.slice(-600)).toBe(303);
    expect(resumed.headers.location).toBe('/ui/device/confirm');
    const session = setCookie(resumed, '__service_session')!;
    expect(session).toBeDefined();
    const consent = await confirmPage(t, binding!, session);
    expect(consent.statusCode).toBe(200);
    // A used handoff token, or a browser without the binding, does not sign in.
    const replay = await t.app.inject({ method: 'GET', url: `/ui/device/resume?authorization_id=${binding}&handoff_token=${encodeURIComponent(handoff)}`, headers: cookies({ __gh_device: binding }) });
    expect(replay.statusCode).toBe(400);
    expect((await t.app.inject({ method: 'GET', url: `/ui/device/resume?authorization_id=${binding}&handoff_token=x` })).statusCode).toBe(410);
  });

  it('the consent names the client, its scopes, the time of the request and the account, and says a device will be signed in', async () => {
    const codes = await deviceCodes(t, client, { scope: 'openid email offline_access' });
    const user = await signedIn(t, project);
    const { binding } = await typeCode(t, codes.user_code);
    const consent = await confirmPage(t, binding!, user.sessionToken);
    expect(consent.statusCode).toBe(200);
    expect(consent.body).toContain('Sign in a device?');
    expect(consent.body).toContain('A device, not this browser, will be signed in to your account');
    expect(consent.body).toContain('<strong>Kitchen TV</strong>');
    expect(consent.body).toContain(`<time datetime="${t.clock.now().toISOString()}">`);
    expect(consent.body).toContain('UTC</time>');
    expect(consent.body).toContain('Your e-mail address');
    expect(consent.body).toContain('Staying signed in while you are away');
    expect(consent.body).toContain('@example.com');
    expect(consent.body).toContain(`name="request" value="${binding}"`);
    const german = await t.app.inject({ method: 'GET', url: '/ui/device/confirm?lang=de', headers: cookies({ __gh_device: binding, __service_session: user.sessionToken }) });
    expect(german.body).toContain('Ein Gerät – nicht dieser Browser – wird mit Ihrem Konto angemeldet');
    // Another account: back through the login flow, without this session.
    const other = await t.app.inject({ method: 'GET', url: '/ui/device/confirm?account=other', headers: cookies({ __gh_device: binding, __service_session: user.sessionToken }) });
    expect(new URL(String(other.headers.location), 'http://x').searchParams.has('session_id')).toBe(false);
  });

  it('answers only same-origin posts from the bound browser, for the request it showed', async () => {
    const codes = await deviceCodes(t, client);
    const user = await signedIn(t, project);
    const { binding } = await typeCode(t, codes.user_code);
    expect((await decide(t, binding!, user.sessionToken, 'approve', binding, { 'sec-fetch-site': 'cross-site', origin: 'https://evil.example' })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'POST', url: '/ui/device', headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://evil.example' }, payload: 'user_code=x' })).statusCode).toBe(403);
    expect((await decide(t, binding!, user.sessionToken, 'approve', 'dev_someotherrequest000000000')).statusCode).toBe(410);
    expect((await t.app.inject({ method: 'GET', url: '/ui/device/confirm', headers: cookies({ __service_session: user.sessionToken }) })).statusCode).toBe(410);
    expect(oauthErrorBody(await poll(t, client, codes.device_code)).error).toBe('authorization_pending');
    const approved = await decide(t, binding!, user.sessionToken, 'approve');
    expect(approved.statusCode).toBe(200);
    expect(approved.body).toContain('Your device is signed in');
    expect(approved.cookies.find((c) => c.name === '__gh_device')?.maxAge).toBe(0);
    // Answered once: a second answer finds nothing.
    expect((await decide(t, binding!, user.sessionToken, 'deny')).statusCode).toBe(410);
  });

  it('steps the session up when the client asks acr_values=urn:nist:aal:2', async () => {
    const codes = await deviceCodes(t, client, { acr_values: 'urn:nist:aal:2' });
    const weak = await signedIn(t, project);
    const { binding } = await typeCode(t, codes.user_code);
    const stepUp = await confirmPage(t, binding!, weak.sessionToken);
    expect(stepUp.statusCode).toBe(303);
    const login = new URL(String(stepUp.headers.location), 'http://x');
    expect(Object.fromEntries(login.searchParams)).toMatchObject({ session_id: weak.sessionId, aal: '2', authorization_id: binding });
    // A weak session cannot approve by posting directly either.
    const post = await decide(t, binding!, weak.sessionToken, 'approve');
    expect(post.statusCode).toBe(303);
    expect(oauthErrorBody(await poll(t, client, codes.device_code)).error).toBe('authorization_pending');
    const strong = await signedIn(t, project, [{ method: 'password' }, { method: 'totp' }]);
    expect((await confirmPage(t, binding!, strong.sessionToken)).statusCode).toBe(200);
    expect((await decide(t, binding!, strong.sessionToken, 'approve')).statusCode).toBe(200);
  });

  it('wrong codes take the IP\'s budget in the lookup statement: 10 a minute, then nothing is looked up until the window ends', async () => {
    const codes = await deviceCodes(t, client);
    const ip = { remoteAddress: '198.51.100.7' };
    const type = (code: string, at = ip) =>
      t.app.inject({ method: 'POST', url: '/ui/device', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: `user_code=${code}`, ...at });
    for (let i = 0; i < 10; i++) {
      const wrong = await type('BBBB-BBBB');
      expect(wrong.statusCode).toBe(400);
      expect(wrong.body).toContain('aria-invalid="true"');
      expect(wrong.body).toContain('role="alert"');
    }
    const spent = await type('BBBB-BBBB');
    expect(spent.statusCode).toBe(429);
    expect(spent.headers['retry-after']).toBe('50');
    // Past the budget even the right code is not looked up: a hit and a miss answer the same.
    expect((await type(codes.user_code)).statusCode).toBe(429);
    // Another address has its own budget.
    expect((await type(codes.user_code, { remoteAddress: '198.51.100.8' })).statusCode).toBe(303);
    // 20 wrong codes at once from a third address: 10 are looked up, 10 refused.
    const burst = await Promise.all(Array.from({ length: 20 }, () => type('CCCC-CCCC', { remoteAddress: '198.51.100.9' })));
    expect(burst.filter((r) => r.statusCode === 400)).toHaveLength(10);
    expect(burst.filter((r) => r.statusCode === 429)).toHaveLength(10);
    t.clock.advance(MINUTE);
    const fresh = await deviceCodes(t, client);
    expect((await type(fresh.user_code)).statusCode).toBe(303);
    expect((await t.container.oauth.sweeper.sweep()).device_code_budget).toBeGreaterThanOrEqual(0);
  });

  it('an expired code is a wrong code', async () => {
    const codes = await deviceCodes(t, client);
    t.clock.advance(10 * MINUTE);
    const { response } = await typeCode(t, codes.user_code, {});
    expect(response.statusCode).toBe(400);
  });
});
