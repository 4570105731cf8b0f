import type { Browser, BrowserContext, CDPSession, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { TestApp } from '../helpers/app.js';
import { bearer } from '../helpers/app.js';
import { describeBrowser, DESKTOP, expectAccessible, launch, startServer } from './harness.js';

const SCREENSHOTS = new URL('../../docs/images/', import.meta.url).pathname;

/**
 * Passkeys typed into real pages: Chromium's virtual authenticator (CDP WebAuthn domain) answers
 * the ceremonies the page's script starts with @simplewebauthn/browser. WebAuthn refuses IP
 * addresses as relying parties, so the pages are opened on http://localhost:<port>.
 */
describeBrowser('hosted UI in Chromium: passkeys with a virtual authenticator', () => {
  let browser: Browser;
  let t: TestApp;
  let base: string;
  let project: { id: string; project_secret: string };
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    ({ t, base } = await startServer({}, { publicHost: 'localhost' }));
    base = base.replace('127.0.0.1', 'localhost');
    project = await t.createProject('Passkey shop');
    browser = await launch();
  });
  afterAll(async () => {
    for (const context of contexts) await context.close();
    await browser?.close();
    await t?.close();
  });

  async function pageWithAuthenticator(): Promise<{ page: Page; cdp: CDPSession; authenticatorId: string }> {
    const context = await browser.newContext({ ...DESKTOP, bypassCSP: true });
    contexts.push(context);
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('WebAuthn.enable');
    const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
    });
    return { page, cdp, authenticatorId };
  }

  it('signs up with a passkey only, then signs in with it usernameless; the session is AAL2', async () => {
    const { page, cdp, authenticatorId } = await pageWithAuthenticator();
    await page.goto(`${base}/ui/register?project_id=${project.id}`);
    await expectAccessible(page);
    await page.getByLabel('E-mail address').fill('passkey-user@example.com');
    await page.getByLabel('First name').fill('Pia');
    await page.getByRole('button', { name: 'Sign up with a passkey' }).click();
    await page.getByRole('heading', { name: 'You are signed in' }).waitFor();
    const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
    expect(credentials).toHaveLength(1);
    expect(credentials[0].isResidentCredential).toBe(true);
    expect(credentials[0].rpId).toBe('localhost');

    const user = await t.container.users.findByIdentifier(project.id, undefined, 'passkey-user@example.com');
    const listed = await t.app.inject({ method: 'GET', url: `/users/${user!.id}/credentials`, headers: bearer(project.project_secret) });
    expect(listed.json().credentials.map((c: { method: string }) => c.method)).toEqual(['passkey']);

    // Usernameless: the login page starts a conditional (autofill) request at once, and Chromium's
    // virtual authenticator, simulating the user's presence, answers it with the new passkey.
    await page.context().clearCookies();
    await page.goto(`${base}/ui/login?project_id=${project.id}`);
    await page.getByRole('heading', { name: 'You are signed in' }).waitFor();
    const session = await t.app.inject({ method: 'GET', url: '/sessions/me', headers: { cookie: (await page.context().cookies()).filter((c) => c.name === '__service_session').map((c) => `${c.name}=${c.value}`).join('; ') } });
    expect(session.statusCode, session.body).toBe(200);
    expect(session.json().factors.map((f: { method: string }) => f.method)).toEqual(['passkey']);
    expect(session.json().assurance_levels).toContain('urn:nist:aal:2');
    expect((await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials[0].signCount).toBeGreaterThan(0);
  });

  it('the login page offers passkeys accessibly (screenshot)', async () => {
    const context = await browser.newContext({ ...DESKTOP, bypassCSP: true });
    contexts.push(context);
    const page = await context.newPage();
    await page.goto(`${base}/ui/login?project_id=${project.id}`);
    await expectAccessible(page);
    expect(await page.getAttribute('input[name="f.email"]', 'autocomplete')).toContain('webauthn');
    await page.screenshot({ path: `${SCREENSHOTS}login-passkey-desktop.png` });
  });
});
