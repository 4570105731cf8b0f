import type { BrowserContextOptions, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startSmtpServer } from '../../src/courier/test-smtp-server.js';
import type { TestApp } from '../helpers/app.js';
import { bearer } from '../helpers/app.js';
import { BrowserPages, describeBrowser, DESKTOP, expectAccessible, PHONE, startServer } from './harness.js';

const PASSWORD = 'correct horse battery staple 42';
const SCREENSHOTS = new URL('../../docs/images/', import.meta.url).pathname;

describeBrowser('hosted UI in Chromium: journeys typed into real pages', () => {
  let pages: BrowserPages;
  let t: TestApp;
  let base: string;
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
  let project: { id: string; project_secret: string };

  beforeAll(async () => {
    smtp = await startSmtpServer();
    ({ t, base } = await startServer({ smtpUrl: smtp.url }));
    project = await t.createProject('Acme');
    pages = await BrowserPages.launch();
  });
  afterAll(async () => {
    await pages?.close();
    await t?.close();
    await smtp?.close();
  });
  const newPage = (options: BrowserContextOptions = {}) => pages.newPage(options);

  async function register(page: Page, email: string, axe = true): Promise<void> {
    await page.goto(`${base}/ui/register?project_id=${project.id}`);
    if (axe) await expectAccessible(page);
    await page.getByLabel('E-mail address').fill(email);
    await page.getByLabel('First name').fill('Kim');
    await page.getByLabel('Last name').fill('Lee');
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByRole('heading', { name: 'You are signed in' }).waitFor();
  }

  async function signIn(page: Page, email: string, password: string): Promise<void> {
    await page.goto(`${base}/ui/login?project_id=${project.id}`);
    await page.getByLabel('E-mail address').fill(email);
    await page.keyboard.press('Enter');
    await page.getByLabel('Password', { exact: true }).waitFor();
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.keyboard.press('Enter');
  }

  it('registers, then signs in (keyboard only), with axe on every page', async () => {
    const page = await newPage();
    await register(page, 'kim@example.com');
    await expectAccessible(page);
    const cookies = await page.context().cookies();
    expect(cookies.find((c) => c.name === '__service_session')?.httpOnly).toBe(true);
    expect(await page.content()).not.toMatch(/gh_(st|ho)_/);

    const other = await newPage();
    await other.goto(`${base}/ui/login?project_id=${project.id}`);
    await expectAccessible(other);
    // The identifier field has the focus on arrival (autofocus).
    await other.keyboard.type('kim@example.com');
    await other.keyboard.press('Enter');
    await other.getByLabel('Password', { exact: true }).waitFor();
    await expectAccessible(other);
    await other.keyboard.type(PASSWORD);
    await other.keyboard.press('Enter');
    await other.getByRole('heading', { name: 'You are signed in' }).waitFor();
  });

  it('shows a wrong password as an alert tied to the field, with the focus on it', async () => {
    const page = await newPage();
    await signIn(page, 'kim@example.com', 'wrong password entirely');
    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toContain('The e-mail address or password is wrong.');
    const focused = await page.evaluate(() => {
      const active = (globalThis as unknown as { document: { activeElement: { id: string; getAttribute(n: string): string | null } } }).document.activeElement;
      return { id: active.id, describedBy: active.getAttribute('aria-describedby'), invalid: active.getAttribute('aria-invalid') };
    });
    expect(focused).toEqual({ id: 'f-password', describedBy: 'f-password-error', invalid: 'true' });
    await expectAccessible(page);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'You are signed in' }).waitFor();
  });

  it('recovers a password with the code read from a real SMTP server', async () => {
    await register(await newPage(), 'recover@example.com', false);
    const page = await newPage();
    await page.goto(`${base}/ui/login?project_id=${project.id}`);
    await page.getByRole('button', { name: 'Forgot your password?' }).click();
    await page.getByRole('heading', { name: 'Reset your password' }).waitFor();
    await expectAccessible(page);
    const before = smtp.received.length;
    await page.getByLabel('E-mail address').fill('recover@example.com');
    await page.getByRole('button', { name: 'Send code' }).click();
    await page.getByRole('heading', { name: 'Check your e-mail' }).waitFor();
    await expectAccessible(page);
    await expect.poll(() => smtp.received.length, { timeout: 10_000 }).toBeGreaterThan(before);
    const mail = smtp.received[smtp.received.length - 1];
    expect(mail.to).toEqual(['recover@example.com']);
    const code = /\b(\d{6})\b/.exec(mail.raw.replace(/=\r?\n/g, ''))![1];
    await page.getByLabel('Code').fill(code);
    await page.getByRole('button', { name: 'Verify code' }).click();
    await page.getByRole('heading', { name: 'Choose a new password' }).waitFor();
    await expectAccessible(page);
    await page.getByLabel('Password', { exact: true }).fill(`${PASSWORD} renewed`);
    await page.getByRole('button', { name: 'Save password' }).click();
    // Pivoted from login, recovery returns to the login flow; the new password signs in.
    await page.waitForURL(/\/ui\/login\?/);
    await expectAccessible(page);
    const fresh = await newPage();
    await signIn(fresh, 'recover@example.com', `${PASSWORD} renewed`);
    await fresh.getByRole('heading', { name: 'You are signed in' }).waitFor();
  });

  it('speaks German (Accept-Language, and ?lang=de)', async () => {
    const page = await newPage({ locale: 'de-DE' });
    await page.goto(`${base}/ui/login?project_id=${project.id}`);
    expect(await page.getAttribute('html', 'lang')).toBe('de');
    await page.getByLabel('E-Mail-Adresse').fill('kim@example.com');
    await page.getByRole('button', { name: 'Weiter' }).click();
    await page.getByLabel('Passwort', { exact: true }).fill('falsch falsch falsch');
    await page.getByRole('button', { name: 'Anmelden' }).click();
    expect(await page.getByRole('alert').textContent()).toContain('E-Mail-Adresse oder Passwort ist falsch.');
    await expectAccessible(page);
    const english = await newPage({ locale: 'en-US' });
    await english.goto(`${base}/ui/register?project_id=${project.id}&lang=de`);
    await english.getByRole('heading', { name: 'Konto erstellen' }).waitFor();
  });

  it('works with JavaScript disabled: register and sign in', async () => {
    const page = await newPage({ javaScriptEnabled: false });
    // axe needs script, so it runs on the same pages in the other journeys.
    await register(page, 'nojs@example.com', false);
    const other = await newPage({ javaScriptEnabled: false });
    await signIn(other, 'nojs@example.com', PASSWORD);
    await other.getByRole('heading', { name: 'You are signed in' }).waitFor();
  });

  it('solves the captcha gate with the bundled script under the strict CSP (no violations reported)', async () => {
    const schemaUri = (await t.container.schemas.defaultFor(project.id))!.uri;
    const created = await t.app.inject({
      method: 'POST',
      url: '/flow_definitions',
      headers: bearer(project.project_secret),
      payload: {
        schema_uri: schemaUri,
        flow_definition: {
          name: 'gated-register',
          purposes: { gated_register: 'register' },
          steps: [
            {
              name: 'register',
              fields: ['email', 'x-auth-methods#password'],
              gates: { captcha: {} },
              on_success: 'create_user',
              actions: [{ name: 'create', kind: 'submit', primary: true, text_key: 'action.create_account' }],
              transitions: { create: { target: 'done' } },
            },
            { name: 'done', complete: 'redirect' },
          ],
        },
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    const page = await newPage({ bypassCSP: false }); // CSP enforced
    const problems: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });
    page.on('pageerror', (error) => problems.push(error.message));
    await page.goto(`${base}/ui/register?project_id=${project.id}&purpose=gated_register`);
    await page.locator('.captcha.solved').waitFor({ timeout: 30_000 });
    expect(await page.locator('#f-captcha').inputValue()).toMatch(/^[A-Za-z0-9+/=]{40,}$/);
    await page.getByLabel('E-mail address').fill('gated@example.com');
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByRole('heading', { name: 'You are signed in' }).waitFor();
    expect(problems).toEqual([]);
  });

  it('keeps the message pages accessible too (errors, settings without a session, link, error)', async () => {
    const page = await newPage();
    for (const url of [
      '/ui/login',
      '/ui/login?project_id=proj_00000000000000000000000000',
      `/ui/login?project_id=${project.id}&flow=flow_00000000000000000000000000`,
      `/ui/settings?project_id=${project.id}`,
      `/ui/link?project_id=${project.id}`,
      '/ui/error?lang=de',
    ]) {
      const response = await page.goto(`${base}${url}`);
      expect(response!.status(), url).toBeGreaterThanOrEqual(200);
      await page.getByRole('heading').first().waitFor();
      await expectAccessible(page);
    }
  });

  it('takes screenshots of the login and register pages (phone and desktop) for docs/hosted-ui.md', async () => {
    for (const [name, options] of [['desktop', DESKTOP], ['phone', PHONE]] as const) {
      const page = await newPage(options);
      await page.goto(`${base}/ui/login?project_id=${project.id}`);
      await page.screenshot({ path: `${SCREENSHOTS}login-${name}.png` });
      await page.goto(`${base}/ui/register?project_id=${project.id}`);
      await page.screenshot({ path: `${SCREENSHOTS}register-${name}.png` });
      await page.getByRole('button', { name: 'Create account' }).click({ noWaitAfter: true }).catch(() => undefined);
    }
    const page = await newPage(DESKTOP);
    await signIn(page, 'kim@example.com', 'not the password at all');
    await page.getByRole('alert').waitFor();
    await page.screenshot({ path: `${SCREENSHOTS}login-error-desktop.png` });
  });
});
