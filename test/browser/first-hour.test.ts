import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createLogger } from '../../src/http/log-redaction.js';
import { createListeningTestApp, type TestApp } from '../helpers/app.js';
import { BrowserPages, describeBrowser, expectAccessible } from './harness.js';

const PASSWORD = 'correct horse battery staple 42';

/**
 * The first hour of a new user (issue 39) in Chromium: recovery pages that lead back and end on a
 * sign-in page that says the password changed; the signed-in page without an app; an app wired
 * in the four steps of docs/sdk.md; the 400 page of a callback missing from the allow-list.
 */
describeBrowser('hosted UI in Chromium: the first hour (issue 39)', () => {
  let pages: BrowserPages;
  let t: TestApp & { base: string };
  let project: { id: string; project_secret: string };
  let log = '';

  beforeAll(async () => {
    const sink = new Writable({ write: (chunk, _encoding, done) => ((log += String(chunk)), done()) });
    t = await createListeningTestApp({}, { logger: createLogger('info', sink) });
    project = await t.createProject('First hour');
    pages = await BrowserPages.launch();
  });
  afterAll(async () => {
    await pages?.close();
    await t?.close();
  });
  const newPage = () => pages.newPage();

  async function register(page: Page, email: string, query = ''): Promise<void> {
    await page.goto(`${t.base}/ui/register?project_id=${project.id}${query}`);
    await page.getByLabel('E-mail address').fill(email);
    await page.getByLabel('First name').fill('Kim');
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Create account' }).click();
  }

  /** The code the embedded courier kept (no SMTP_URL): what `gatehouse mail list` prints. */
  async function mailedCode(email: string): Promise<string> {
    await t.container.flows.courier.flush();
    const [latest] = await t.container.flows.courier.outboxFor(email);
    return /^(\d{6})$/m.exec(latest.body!)![1];
  }

  it('recovery pivoted from sign-in: every step links back to sign-in; afterwards the sign-in page says the password changed', async () => {
    await register(await newPage(), 'pivot@example.com');
    const page = await newPage();
    await page.goto(`${t.base}/ui/login?project_id=${project.id}`);
    await page.getByRole('button', { name: 'Forgot your password?' }).click();
    for (const title of ['Reset your password', 'Check your e-mail', 'Choose a new password']) {
      await page.getByRole('heading', { name: title }).waitFor();
      const back = page.getByRole('link', { name: 'Back to sign in' });
      expect(await back.getAttribute('href'), title).toBe(`/ui/login?project_id=${project.id}`);
      await expectAccessible(page);
      if (title === 'Reset your password') {
        await page.getByLabel('E-mail address').fill('pivot@example.com');
        await page.getByRole('button', { name: 'Send code' }).click();
      } else if (title === 'Check your e-mail') {
        await page.getByLabel('Code').fill(await mailedCode('pivot@example.com'));
        await page.getByRole('button', { name: 'Verify code' }).click();
      }
    }
    await page.getByLabel('Password', { exact: true }).fill(`${PASSWORD} renewed`);
    await page.getByRole('button', { name: 'Save password' }).click();
    await page.waitForURL(/\/ui\/login\?.*notice=password_changed/);
    expect(await page.getByRole('status').textContent()).toBe('Your password was changed. Sign in with your new password.');
    expect(await page.getByRole('link', { name: 'Back to sign in' }).count()).toBe(0);
    await expectAccessible(page);
    // The page offers the sign-in: the login flow goes on there, with the new password.
    if (await page.getByLabel('E-mail address').count()) {
      await page.getByLabel('E-mail address').fill('pivot@example.com');
      await page.keyboard.press('Enter');
    }
    await page.getByLabel('Password', { exact: true }).fill(`${PASSWORD} renewed`);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'You are signed in' }).waitFor();
    // The note was for the page right after the recovery only.
    expect(page.url()).not.toContain('notice=');
  });

  it('recovery opened directly, in German: the way back works, and the end is the sign-in page with the note', async () => {
    await register(await newPage(), 'direkt@example.com');
    const page = await newPage();
    await page.goto(`${t.base}/ui/recovery?project_id=${project.id}&lang=de`);
    await page.getByRole('link', { name: 'Zurück zur Anmeldung' }).click();
    await page.waitForURL(/\/ui\/login\?/);
    expect(await page.getAttribute('html', 'lang')).toBe('de');
    await page.goto(`${t.base}/ui/recovery?project_id=${project.id}&lang=de`);
    await page.getByLabel('E-Mail-Adresse').fill('direkt@example.com');
    await page.keyboard.press('Enter');
    await page.getByRole('link', { name: 'Zurück zur Anmeldung' }).waitFor();
    await page.getByLabel('Code').fill(await mailedCode('direkt@example.com'));
    await page.keyboard.press('Enter');
    await page.getByLabel('Passwort', { exact: true }).fill(`${PASSWORD} neu`);
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/ui\/login\?.*notice=password_changed/);
    expect(await page.getByRole('status').textContent()).toBe('Ihr Passwort wurde geändert. Melden Sie sich mit Ihrem neuen Passwort an.');
    await expectAccessible(page);
  });

  it('the signed-in page without an app says what to do next and shows the account menu (settings, sign out)', async () => {
    const page = await newPage();
    await register(page, 'noapp@example.com');
    await page.getByRole('heading', { name: 'You are signed in' }).waitFor();
    const text = await page.locator('main, body').first().textContent();
    expect(text).toContain('Connect an application: docs/sdk.md');
    expect(text).not.toContain('return to the application');
    const menu = page.getByRole('navigation', { name: 'Your account' });
    expect(await menu.getByRole('link', { name: 'Manage sign-in methods' }).getAttribute('href')).toBe(`/ui/settings?project_id=${project.id}`);
    await expectAccessible(page);
    await menu.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'You are signed out' }).waitFor();
  });

  it('wires an app in the four steps of docs/sdk.md; a callback not on the list gets a 400 page naming the setting and a log line naming the URI', async () => {
    const handoffs: string[] = [];
    const app: Server = createServer((request, response) => {
      const url = new URL(request.url!, 'http://app');
      // The browser asks for /favicon.ico too.
      if (url.pathname === '/auth/callback') handoffs.push(url.searchParams.get('handoff_token') ?? '');
      response.end('back in the app');
    });
    await new Promise<void>((resolve) => app.listen(0, '127.0.0.1', resolve));
    const callback = `http://127.0.0.1:${(app.address() as AddressInfo).port}/auth/callback`;
    const asOwner = { authorization: `Bearer ${project.project_secret}`, 'content-type': 'application/json' };
    try {
      // 1. A service key with the scope the exchange needs.
      const key = (await (await fetch(`${t.base}/projects/${project.id}/service_keys`, { method: 'POST', headers: asOwner, body: JSON.stringify({ name: 'my-app', scopes: ['session.write'] }) })).json()) as { client_id: string; client_secret: string };

      // Before step 2 the callback is refused, and the page and the log say what to change.
      const page = await newPage();
      const link = `${t.base}/ui/login?project_id=${project.id}&redirect_uri=${encodeURIComponent(`${callback}?code=planted-s3cret`)}`;
      const refused = await page.goto(link);
      expect(refused?.status()).toBe(400);
      expect(await page.getByRole('alert').textContent()).toContain("flow_settings.redirect_uris");
      await expectAccessible(page);
      const line = log.split('\n').find((entry) => entry.includes('redirect_uri refused'));
      expect(JSON.parse(line!)).toMatchObject({ level: 40, refused_redirect_uri: callback, setting: 'flow_settings.redirect_uris' });
      expect(log.includes('planted-s3cret'), 'the refused URI\'s query reached the log').toBe(false);

      // 2. The callback on the allow-list.
      expect((await fetch(`${t.base}/projects/${project.id}/flow_settings`, { method: 'PUT', headers: asOwner, body: JSON.stringify({ redirect_uris: [callback] }) })).status).toBe(200);
      // 3. The link to the hosted sign-in page.
      await register(await newPage(), 'wired@example.com');
      await page.goto(`${t.base}/ui/login?project_id=${project.id}&redirect_uri=${encodeURIComponent(callback)}`);
      await page.getByLabel('E-mail address').fill('wired@example.com');
      await page.keyboard.press('Enter');
      await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
      await page.keyboard.press('Enter');
      await page.getByText('back in the app').waitFor();
      expect(handoffs).toHaveLength(1);
      expect(handoffs[0]).toMatch(/^gh_ho_/);

      // 4. The exchange, with the service key's access token.
      const basic = Buffer.from(`${key.client_id}:${key.client_secret}`).toString('base64');
      const token = (await (await fetch(`${t.base}/auth/token`, { method: 'POST', headers: { authorization: `Basic ${basic}`, 'content-type': 'application/x-www-form-urlencoded' }, body: 'grant_type=client_credentials' })).json()) as { access_token: string };
      const exchanged = await fetch(`${t.base}/sessions/exchange?project_id=${project.id}`, { method: 'POST', headers: { authorization: `Bearer ${token.access_token}`, 'content-type': 'application/json' }, body: JSON.stringify({ handoff_token: handoffs[0] }) });
      expect(exchanged.status, await exchanged.clone().text()).toBe(200);
      const { session_token: sessionToken } = (await exchanged.json()) as { session_token: string };
      const me = await fetch(`${t.base}/sessions/me`, { headers: { authorization: `Bearer ${sessionToken}` } });
      expect(me.status).toBe(200);
    } finally {
      app.close();
    }
  });
});
