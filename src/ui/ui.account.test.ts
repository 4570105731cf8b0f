import * as OTPAuth from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, type TestApp } from '../../test/helpers/app.js';
import { formAction, PageClient } from './page-test-kit.js';

let t: TestApp;
let project: { id: string; project_secret: string };
const password = 'correct horse battery staple 42';

beforeAll(async () => {
  t = await createTestApp();
  project = await t.createProject('Account pages');
});
afterAll(async () => t.close());

async function registered(email: string): Promise<PageClient> {
  const client = new PageClient(t);
  const page = await client.open(`/ui/register?project_id=${project.id}`);
  const done = await client.submit(page, 'create', { email, 'name.given': 'Kim', 'name.family': 'Lee', password });
  expect(done.body).toContain('You are signed in');
  return client;
}

const sessionOf = (client: PageClient) =>
  t.app.inject({ method: 'GET', url: '/sessions/me', cookies: { __service_session: client.cookies.get('__service_session') ?? '' } });

function radios(html: string): Array<{ value: string; label: string }> {
  return [...html.matchAll(/<input id="(f-credential_id-\d+)" type="radio" name="f.credential_id" value="([^"]+)"[^>]*><label for="\1">([^<]+)/g)].map((m) => ({ value: m[2], label: m[3].trim() }));
}

describe('hosted pages: the signed-in page, signing out, and choosing a credential in settings', () => {
  it('the signed-in page links to settings and signs out with a form post that ends the session and clears the cookie', async () => {
    const client = await registered('signout@example.com');
    const done = await client.get(`/ui/register?project_id=${project.id}&done=signed_in`);
    expect(done.body).toContain(`href="/ui/settings?project_id=${project.id}"`);
    expect(done.body).toContain(`<form class="signout" method="post" action="/ui/logout?project_id=${project.id}">`);
    expect((await sessionOf(client)).statusCode).toBe(200);
    const token = client.cookies.get('__service_session')!;

    const out = await client.post(`/ui/logout?project_id=${project.id}`, {});
    expect(out.statusCode).toBe(303);
    expect(out.headers.location).toBe(`/ui/login?project_id=${project.id}&done=signed_out`);
    expect(client.cookies.has('__service_session')).toBe(false);
    const gone = await t.app.inject({ method: 'GET', url: '/sessions/me', cookies: { __service_session: token } });
    expect(gone.statusCode).toBe(401);
    const page = await client.open(String(out.headers.location));
    expect(page.body).toContain('You are signed out');

    // Again, without a session: still a redirect, nothing to end.
    expect((await client.post(`/ui/logout?project_id=${project.id}`, {})).statusCode).toBe(303);
  });

  it('a sign-out posted from another site is refused and the session lives on', async () => {
    const client = await registered('cross-site-signout@example.com');
    const refused = await client.post(`/ui/logout?project_id=${project.id}`, {}, { origin: 'https://evil.example' });
    expect(refused.statusCode).toBe(403);
    expect(refused.headers['content-type']).toBe('text/html; charset=utf-8');
    expect((await sessionOf(client)).statusCode).toBe(200);
  });

  it('settings lists the user\'s own credentials as choices; shows new recovery codes once; removing the last second factor asks for the password first', async () => {
    const client = await registered('picker@example.com');
    const menu = await client.open(`/ui/settings?project_id=${project.id}`);
    expect(menu.body).toContain('<legend>');
    expect(radios(menu.body).map((r) => r.label)).toEqual(['Password']);

    // Set up TOTP with a code computed from the key the page shows.
    const setup = await client.submit(menu, 'setup_totp');
    const secret = /<figcaption><code>([A-Z2-7]+)<\/code>/.exec(setup.body)?.[1];
    expect(secret).toBeDefined();
    const code = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret!) }).generate({ timestamp: t.clock.now().getTime() });
    const offer = await client.submit(setup, 'enable', { totp: code });
    expect(offer.body).toContain('data-step="recovery_codes"');
    // The codes exist in this one answer: the page shows them at once (no redirect that would lose them).
    const shown = await client.submit(offer, 'generate');
    expect(shown.statusCode).toBe(200);
    expect(shown.body).toContain('data-step="recovery_codes_shown"');
    expect([...shown.body.matchAll(/<li><code>([A-Z2-7-]+)<\/code><\/li>/g)]).toHaveLength(10);
    const back = await client.submit(shown, 'continue');
    expect(back.statusCode, back.body).toBe(200);
    expect((await client.get(String(formAction(back.body)))).body).not.toMatch(/<ul class="codes">/);
    const choices = radios(back.body);
    expect(choices.map((r) => r.label).sort()).toEqual(['Authenticator app', 'Password', 'Recovery codes']);

    // Nothing chosen: the browser would refuse (required); a crafted post gets the field's error.
    const none = await client.submit(back, 'remove_credential');
    expect(none.statusCode).toBe(400);
    expect(none.body).toContain('id="f-credential_id-error"');

    // TOTP goes at once (the recovery codes still protect the account); the last second factor needs the password again.
    const totp = choices.find((r) => r.label === 'Authenticator app')!;
    const withoutTotp = await client.submit(back, 'remove_credential', { credential_id: totp.value });
    const left = radios(withoutTotp.body);
    expect(left.map((r) => r.label).sort()).toEqual(['Password', 'Recovery codes']);
    const codes = left.find((r) => r.label === 'Recovery codes')!;
    const confirm = await client.submit(withoutTotp, 'remove_credential', { credential_id: codes.value });
    expect(confirm.body).toContain('data-step="confirm_removal"');
    const removed = await client.submit(confirm, 'remove', { password });
    expect(radios(removed.body).map((r) => r.label)).toEqual(['Password']);

    const { credentials } = (await t.app.inject({ method: 'GET', url: `/users/${(await sessionOf(client)).json().user_id}/credentials`, headers: bearer(project.project_secret) })).json();
    expect(credentials.map((c: { method: string }) => c.method)).toEqual(['password']);
  });

  it('another user\'s credential id is refused like an unknown one, and the page lists only the caller\'s', async () => {
    const victim = await registered('victim@example.com');
    const victimMenu = await victim.open(`/ui/settings?project_id=${project.id}`);
    const victimPassword = radios(victimMenu.body)[0].value;

    const attacker = await registered('attacker@example.com');
    const menu = await attacker.open(`/ui/settings?project_id=${project.id}`);
    expect(radios(menu.body).map((r) => r.value)).not.toContain(victimPassword);
    const refused = await attacker.submit(menu, 'remove_credential', { credential_id: victimPassword });
    expect(refused.statusCode).toBe(400);
    expect(refused.body).toContain('There is no such sign-in method on your account.');
    expect(radios((await victim.open(`/ui/settings?project_id=${project.id}`)).body).map((r) => r.value)).toEqual([victimPassword]);
  });

  it('a login page started with session_id steps that session up: the same session, a new token, the factor merged', async () => {
    const client = await registered('stepup@example.com');
    const before = (await sessionOf(client)).json();
    const oldToken = client.cookies.get('__service_session')!;
    const identify = await client.open(`/ui/login?project_id=${project.id}&session_id=${before.session_id}`);
    expect(identify.body).toContain(`session_id=${before.session_id}`);
    const passwordPage = await client.submit(identify, 'continue', { email: 'stepup@example.com' });
    const done = await client.submit(passwordPage, 'sign_in', { password });
    expect(done.body).toContain('You are signed in');
    const after = (await sessionOf(client)).json();
    expect(after.session_id).toBe(before.session_id);
    expect(client.cookies.get('__service_session')).not.toBe(oldToken);
    expect(after.factors.length).toBeGreaterThanOrEqual(1);

    // Another user's session id is never stepped up by someone else's sign-in: they get a session of their own.
    const intruder = await registered('intruder@example.com');
    const foreign = await intruder.open(`/ui/login?project_id=${project.id}&session_id=${before.session_id}`);
    const foreignPassword = await intruder.submit(foreign, 'continue', { email: 'intruder@example.com' });
    expect((await intruder.submit(foreignPassword, 'sign_in', { password })).body).toContain('You are signed in');
    const theirs = (await sessionOf(intruder)).json();
    expect(theirs.session_id).not.toBe(before.session_id);
    expect(theirs.email).toBe('intruder@example.com');
    const victim = (await sessionOf(client)).json();
    expect(victim).toMatchObject({ session_id: before.session_id, user_id: before.user_id, email: 'stepup@example.com' });
    expect(victim.factors.every((f: { payload: { user_id: string } }) => f.payload.user_id === before.user_id)).toBe(true);
  });

  it('a malformed session_id is a 400 page', async () => {
    const client = new PageClient(t);
    expect((await client.get(`/ui/login?project_id=${project.id}&session_id=not%20an%20id`)).statusCode).toBe(400);
  });

  it('login_hint (from an OIDC authorization) prefills the identifier field and survives the redirect', async () => {
    const client = new PageClient(t);
    const page = await client.open(`/ui/login?project_id=${project.id}&login_hint=${encodeURIComponent('hint@example.com')}`);
    expect(page.statusCode).toBe(200);
    expect(page.body).toMatch(/<input id="f-email"[^>]* value="hint@example.com"/);
  });
});
