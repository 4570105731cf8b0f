import * as OTPAuth from 'otpauth';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startSmtpServer } from '../../src/courier/test-smtp-server.js';
import type { TestApp } from '../helpers/app.js';
import { describeBrowser, DESKTOP, expectAccessible, launch, startServer } from './harness.js';

const PASSWORD = 'correct horse battery staple 42';
const SCREENSHOTS = new URL('../../docs/images/', import.meta.url).pathname;

describeBrowser('hosted UI in Chromium: settings, TOTP and recovery codes typed into real pages', () => {
  let browser: Browser;
  let t: TestApp;
  let base: string;
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
  let project: { id: string; project_secret: string };
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    smtp = await startSmtpServer();
    ({ t, base } = await startServer({ smtpUrl: smtp.url }));
    project = await t.createProject('Acme');
    browser = await launch();
  });
  afterAll(async () => {
    for (const context of contexts) await context.close();
    await browser?.close();
    await t?.close();
    await smtp?.close();
  });

  async function newPage(): Promise<Page> {
    const context = await browser.newContext({ ...DESKTOP, bypassCSP: true });
    contexts.push(context);
    return context.newPage();
  }

  /** The code an authenticator app would show now (the server's clock is the test's). */
  const totpCode = (secret: string) => new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret) }).generate({ timestamp: t.clock.now().getTime() });

  it('sets up TOTP in settings (QR and key), saves recovery codes, signs out, then signs in with password and a computed code', async () => {
    const page = await newPage();
    await page.goto(`${base}/ui/register?project_id=${project.id}`);
    await page.getByLabel('E-mail address').fill('mfa@example.com');
    await page.getByLabel('First name').fill('Kim');
    await page.getByLabel('Last name').fill('Lee');
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByRole('heading', { name: 'You are signed in' }).waitFor();
    await expectAccessible(page);
    await page.screenshot({ path: `${SCREENSHOTS}signed-in-desktop.png` });

    await page.getByRole('link', { name: 'Manage sign-in methods' }).click();
    await page.getByRole('heading', { name: 'Sign-in and security' }).waitFor();
    await expectAccessible(page);
    await page.screenshot({ path: `${SCREENSHOTS}settings-desktop.png` });

    await page.getByRole('button', { name: 'Set up an authenticator app' }).click();
    await page.getByRole('heading', { name: 'Authenticator app' }).waitFor();
    await expectAccessible(page);
    const qr = page.getByRole('img', { name: /QR/ });
    expect(await qr.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth)).toBeGreaterThan(0);
    await page.screenshot({ path: `${SCREENSHOTS}totp-desktop.png` });
    const secret = (await page.locator('figure.totp figcaption code').textContent())!.trim();
    await page.getByLabel('Code from your authenticator app').fill(totpCode(secret));
    await page.keyboard.press('Enter');

    await page.getByRole('heading', { name: 'New recovery codes' }).waitFor();
    await page.getByRole('button', { name: 'Create new codes' }).click();
    await page.getByRole('heading', { name: 'Save your recovery codes' }).waitFor();
    await expectAccessible(page);
    const codes = await page.locator('ul.codes code').allTextContents();
    expect(codes).toHaveLength(10);
    await page.screenshot({ path: `${SCREENSHOTS}recovery-codes-desktop.png` });
    await page.getByRole('button', { name: 'Continue' }).click();

    // The menu offers the user's own credentials to remove, as radio buttons with a legend.
    await page.getByRole('heading', { name: 'Sign-in and security' }).waitFor();
    await expect.poll(() => page.getByRole('radio').count()).toBe(3);
    await expectAccessible(page);
    await page.getByRole('button', { name: 'Done' }).click();
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'You are signed out' }).waitFor();
    await expectAccessible(page);

    // A code is accepted once per time step: the next sign-in uses the next one.
    t.clock.advance(30_000);
    const again = await newPage();
    await again.goto(`${base}/ui/login?project_id=${project.id}`);
    await again.getByLabel('E-mail address').fill('mfa@example.com');
    await again.keyboard.press('Enter');
    await again.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await again.keyboard.press('Enter');
    await again.getByLabel('Code from your authenticator app').waitFor();
    await expectAccessible(again);
    await again.getByLabel('Code from your authenticator app').fill(totpCode(secret));
    await again.keyboard.press('Enter');
    await again.getByRole('heading', { name: 'You are signed in' }).waitFor();
    const cookie = (await again.context().cookies()).find((c) => c.name === '__service_session')!;
    const me = await t.app.inject({ method: 'GET', url: '/sessions/me', cookies: { __service_session: cookie.value } });
    expect(me.json().assurance_levels).toContain('urn:nist:aal:2');

    // A recovery code instead of the app, typed with a dash and in lower case.
    const third = await newPage();
    await third.goto(`${base}/ui/login?project_id=${project.id}`);
    await third.getByLabel('E-mail address').fill('mfa@example.com');
    await third.keyboard.press('Enter');
    await third.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await third.keyboard.press('Enter');
    await third.getByRole('button', { name: 'Use a recovery code instead' }).click();
    await third.getByLabel('Recovery code', { exact: true }).fill(codes[0].toLowerCase());
    await third.keyboard.press('Enter');
    await third.getByRole('heading', { name: 'You are signed in' }).waitFor();
  });

  it('shows the e-mailed code step (screenshot for the docs)', async () => {
    const page = await newPage();
    await page.goto(`${base}/ui/recovery?project_id=${project.id}`);
    await page.getByLabel('E-mail address').fill('mfa@example.com');
    await page.getByRole('button', { name: 'Send code' }).click();
    await page.getByRole('heading', { name: 'Check your e-mail' }).waitFor();
    await expectAccessible(page);
    await page.screenshot({ path: `${SCREENSHOTS}code-desktop.png` });
  });
});
