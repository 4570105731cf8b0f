import * as OTPAuth from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, type TestApp } from '../../test/helpers/app.js';
import { newTotpSecret } from '../mfa/totp.js';
import { PageClient } from './page-test-kit.js';

let t: TestApp;
let project: { id: string; project_secret: string };
const password = 'correct horse battery staple 42';
const CALLBACK = 'https://shop.example/cb';

beforeAll(async () => {
  t = await createTestApp();
  project = await t.createProject('Step-up pages');
  await t.app.inject({ method: 'PUT', url: `/projects/${project.id}/flow_settings`, headers: bearer(project.project_secret), payload: { redirect_uris: [CALLBACK] } });
});
afterAll(async () => t.close());

/** A user signed in on the hosted pages with a password (AAL1): the client and its session. */
async function signedIn(email: string): Promise<{ client: PageClient; session: { session_id: string; user_id: string; assurance_levels: string[]; factors: unknown[] } }> {
  const client = new PageClient(t);
  const page = await client.open(`/ui/register?project_id=${project.id}`);
  expect((await client.submit(page, 'create', { email, 'name.given': 'Kim', 'name.family': 'Lee', password })).body).toContain('You are signed in');
  return { client, session: (await sessionOf(client)).json() };
}

const sessionOf = (client: PageClient) =>
  t.app.inject({ method: 'GET', url: '/sessions/me', cookies: { __service_session: client.cookies.get('__service_session') ?? '' } });

const totpCode = (secret: string) => new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret) }).generate({ timestamp: t.clock.now().getTime() });

describe('hosted pages: a step-up that explains itself (?aal=)', () => {
  it('says why it asks, hides "Create an account" and the ways that cannot reach AAL2, on every step', async () => {
    const { client, session } = await signedIn('why@example.com');
    const plain = await client.open(`/ui/login?project_id=${project.id}`);
    expect(plain.body).toContain('Create an account');

    const identify = await client.open(`/ui/login?project_id=${project.id}&session_id=${session.session_id}&aal=2`);
    expect(identify.statusCode).toBe(200);
    expect(identify.body).toContain(`<p class="notice" role="status">Confirm it&#39;s you with a stronger method.`);
    expect(identify.body).not.toContain('Create an account');
    expect(identify.body).not.toContain('value="sign_up"');
    expect(identify.body).toContain('Sign in with a passkey');
    expect(identify.body).toMatch(/action="\/ui\/login\?[^"]*aal=2/);
    const passwordPage = await client.submit(identify, 'continue', { email: 'why@example.com' });
    expect(passwordPage.body).toContain('data-step="password"');
    expect(passwordPage.body).toContain('Confirm it&#39;s you with a stronger method.');
    // "Forgot your password?" stays (the way back to the password); its recovery steps do not claim to be a step-up.
    const recovery = await client.submit(passwordPage, 'forgot_password');
    expect(recovery.body).toContain('Reset your password');
    expect(recovery.body).not.toContain('stronger method');

    const german = await client.open(`/ui/login?project_id=${project.id}&session_id=${session.session_id}&aal=2&lang=de`);
    expect(german.body).toContain('Bestätigen Sie mit einer stärkeren Methode, dass Sie es sind.');
    expect(german.body).not.toContain('Konto erstellen');

    // aal=1 asks for nothing a password cannot give: only the new account goes.
    const recent = await client.open(`/ui/login?project_id=${project.id}&session_id=${session.session_id}&aal=1`);
    expect(recent.body).toContain('Your last sign-in was too long ago');
    expect(recent.body).not.toContain('Create an account');
  });

  it('a password that still falls short: no return to the app, a page that says what would do and links to settings', async () => {
    const { client, session } = await signedIn('short@example.com');
    const token = client.cookies.get('__service_session');
    const identify = await client.open(`/ui/login?project_id=${project.id}&session_id=${session.session_id}&aal=2&redirect_uri=${encodeURIComponent(CALLBACK)}`);
    const passwordPage = await client.submit(identify, 'continue', { email: 'short@example.com' });
    const submitted = await client.post(/<form method="post" action="([^"]+)"/.exec(passwordPage.body)![1].replace(/&amp;/g, '&'), { action: 'sign_in', 'f.password': password });
    expect(submitted.statusCode).toBe(303);
    const location = String(submitted.headers.location);
    expect(location).toMatch(/^\/ui\/login\?/);
    expect(location).not.toContain('handoff_token');
    expect(new URL(location, 'http://x').searchParams.get('done')).toBe('too_weak');

    const explained = await client.open(location);
    expect(explained.statusCode).toBe(200);
    expect(explained.body).toContain('This sign-in is not strong enough');
    expect(explained.body).toContain('Add a passkey or an authenticator app to your account');
    const settings = `${new URL(t.container.config.publicUrl).origin}/ui/settings?project_id=${project.id}`;
    expect(explained.body).toContain(`href="${settings}"`);
    expect(explained.body).toMatch(/href="\/ui\/login\?[^"]*session_id=[^"]*aal=2"/);
    expect(explained.body).not.toMatch(/gh_(st|ho)_/);
    // The session was left as it was (the handoff was never used).
    expect(client.cookies.get('__service_session')).toBe(token);
    expect((await sessionOf(client)).json().assurance_levels).toEqual(['urn:nist:aal:1']);

    const german = await client.open(`${location}&lang=de`);
    expect(german.body).toContain('Fügen Sie Ihrem Konto einen Passkey oder eine Authenticator-App hinzu');
  });

  it('a password plus the authenticator app reaches AAL2: the app gets its handoff token as always', async () => {
    const { client, session } = await signedIn('strong@example.com');
    const secret = newTotpSecret();
    expect(await t.container.totp.enable(project.id, session.user_id, secret, totpCode(secret))).toBe(true);
    t.clock.advance(60_000);
    const identify = await client.open(`/ui/login?project_id=${project.id}&session_id=${session.session_id}&aal=2&redirect_uri=${encodeURIComponent(CALLBACK)}`);
    const passwordPage = await client.submit(identify, 'continue', { email: 'strong@example.com' });
    const totpPage = await client.submit(passwordPage, 'sign_in', { password });
    expect(totpPage.body).toContain('data-step="totp"');
    expect(totpPage.body).toContain('Confirm it&#39;s you with a stronger method.');
    const done = await client.post(/<form method="post" action="([^"]+)"/.exec(totpPage.body)![1].replace(/&amp;/g, '&'), { action: 'verify', 'f.totp': totpCode(secret) });
    expect(done.statusCode, done.body).toBe(303);
    const back = new URL(String(done.headers.location));
    expect(back.origin + back.pathname).toBe(CALLBACK);
    const handoff = back.searchParams.get('handoff_token')!;
    const exchanged = await t.app.inject({ method: 'POST', url: `/sessions/exchange?project_id=${project.id}`, headers: bearer(project.project_secret), payload: { handoff_token: handoff } });
    expect(exchanged.json().session).toMatchObject({ session_id: session.session_id, assurance_levels: ['urn:nist:aal:1', 'urn:nist:aal:2'] });
  });

  it('an unknown level is a 400 page, and the explanation page alone (no flow) reveals nothing', async () => {
    const client = new PageClient(t);
    const refused = await client.get(`/ui/login?project_id=${project.id}&aal=3`);
    expect(refused.statusCode).toBe(400);
    expect(refused.body).toContain('The request could not be understood');
    const typed = await client.get(`/ui/login?project_id=${project.id}&aal=2&done=too_weak`);
    expect(typed.statusCode).toBe(200);
    expect(typed.body).toContain('This sign-in is not strong enough');
    expect(client.cookies.size).toBe(0);
  });
});
