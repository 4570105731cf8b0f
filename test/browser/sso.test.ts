import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { linkStep, PROVIDER, SCHEMA_ID, ssoSchema } from '../../src/flows/methods/sso/sso-test-kit.js';
import { bearer, type TestApp } from '../helpers/app.js';
import { startUpstreamIdp, type UpstreamIdp } from '../helpers/upstream-idp.js';
import { describeBrowser, DESKTOP, expectAccessible, launch, PHONE, startServer } from './harness.js';

const PASSWORD = 'correct horse battery staple 42';
const SCREENSHOTS = new URL('../../docs/images/', import.meta.url).pathname;

/** The hosted login page with a password form and a "Continue with Acme" button. */
const WEB_LOGIN = {
  name: 'web_login',
  user_schema: SCHEMA_ID,
  purposes: { web_login: 'identify' },
  steps: [
    {
      name: 'identify',
      fields: ['email', 'x-auth-methods#password'],
      actions: [
        { name: 'sign_in', kind: 'submit', primary: true },
        { name: 'sso', kind: 'sso' },
      ],
      sso_providers: [PROVIDER],
      transitions: { sign_in: { target: 'done' }, callback: { target: 'done' }, link_account: { target: 'link_account' } },
    },
    linkStep,
    { name: 'done', complete: 'redirect' },
  ],
};

describeBrowser('hosted UI in Chromium: sign in with an upstream OpenID provider', () => {
  let browser: Browser;
  let t: TestApp;
  let base: string;
  let upstream: UpstreamIdp;
  let project: { id: string; project_secret: string };
  const contexts: BrowserContext[] = [];

  const api = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) => t.app.inject({ method, url, headers: bearer(project.project_secret), ...(payload ? { payload } : {}) });
  const methodsOf = async (email: string) => {
    const user = await t.container.users.findByIdentifier(project.id, undefined, email);
    if (!user) return [];
    return (await api('GET', `/users/${user.id}/credentials`)).json().credentials.map((c: { method: string }) => c.method).sort();
  };

  beforeAll(async () => {
    ({ t, base } = await startServer());
    base = base.replace('localhost', '127.0.0.1');
    upstream = await startUpstreamIdp(`${base}/flow/sso/callback`);
    project = await t.createProject('Acme Shop');
    for (const [method, url, payload] of [
      ['POST', `/schemas?project_id=${project.id}`, ssoSchema()],
      ['PUT', `/projects/${project.id}/sso_providers/${PROVIDER}`, { name: 'Acme ID', template: 'oidc', issuer: upstream.issuer, client_id: upstream.clientId, client_secret: upstream.clientSecret }],
      ['POST', '/flow_definitions', { project_id: project.id, schema_uri: SCHEMA_ID, flow_definition: WEB_LOGIN }],
    ] as const) {
      const response = await api(method, url, payload);
      if (response.statusCode >= 300) throw new Error(`${url}: ${response.body}`);
    }
    browser = await launch();
  });
  afterAll(async () => {
    for (const context of contexts) await context.close();
    await browser?.close();
    await upstream?.close();
    await t?.close();
  });

  async function newPage(options = DESKTOP): Promise<Page> {
    const context = await browser.newContext({ ...options, bypassCSP: true });
    contexts.push(context);
    return context.newPage();
  }
  const loginUrl = () => `${base}/ui/login?project_id=${project.id}&purpose=web_login`;

  it('signs a new user up with one click on "Continue with Acme ID", with JavaScript off too', async () => {
    upstream.accounts.set('ui-new', { email: 'ui.new@example.com', email_verified: true, given_name: 'Uma', family_name: 'New' });
    for (const javaScriptEnabled of [true, false]) {
      if (!javaScriptEnabled) upstream.accounts.set('ui-nojs', { email: 'ui.nojs@example.com', email_verified: true, given_name: 'Noa' });
      upstream.signInAs(javaScriptEnabled ? 'ui-new' : 'ui-nojs');
      const context = await browser.newContext({ ...DESKTOP, bypassCSP: true, javaScriptEnabled });
      contexts.push(context);
      const page = await context.newPage();
      await page.goto(loginUrl());
      await page.getByRole('button', { name: 'Continue with Acme ID' }).waitFor();
      if (javaScriptEnabled) {
        await expectAccessible(page);
        await page.screenshot({ path: `${SCREENSHOTS}sso-login-desktop.png` });
      }
      await page.getByRole('button', { name: 'Continue with Acme ID' }).click();
      await page.getByRole('heading', { name: 'You are signed in' }).waitFor();
      expect(new URL(page.url()).pathname).toBe('/ui/login');
      expect((await context.cookies()).some((c) => c.name === '__service_session')).toBe(true);
      expect((await context.cookies()).some((c) => c.name === '_zsso')).toBe(false);
    }
    expect(await methodsOf('ui.new@example.com')).toEqual(['sso']);
    expect(await methodsOf('ui.nojs@example.com')).toEqual(['sso']);
  });

  it('connects an existing account after its password, then signs in with the provider alone', async () => {
    const created = await api('POST', `/users?project_id=${project.id}`, { schema: SCHEMA_ID, attributes: { email: 'ui.owner@example.com' } });
    await api('PUT', `/users/${created.json().id}/password`, { password: PASSWORD });
    upstream.accounts.set('ui-owner', { email: 'ui.owner@example.com', email_verified: true });
    upstream.signInAs('ui-owner');
    const page = await newPage(PHONE);
    await page.goto(loginUrl());
    await page.getByRole('button', { name: 'Continue with Acme ID' }).click();
    await page.getByRole('heading', { name: 'Connect your account' }).waitFor();
    await expectAccessible(page);
    await page.screenshot({ path: `${SCREENSHOTS}sso-link-account-phone.png` });
    await page.getByLabel('Password', { exact: true }).fill('not the password at all');
    await page.getByRole('button', { name: 'Confirm' }).click();
    await page.getByRole('alert').waitFor();
    expect(await methodsOf('ui.owner@example.com')).toEqual(['password']);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Confirm' }).click();
    await page.getByRole('heading', { name: 'You are signed in' }).waitFor();
    expect(await methodsOf('ui.owner@example.com')).toEqual(['password', 'sso']);

    const again = await newPage();
    await again.goto(loginUrl());
    await again.getByRole('button', { name: 'Continue with Acme ID' }).click();
    await again.getByRole('heading', { name: 'You are signed in' }).waitFor();
  });

  it('shows why on the same page when the user cancels at the provider', async () => {
    upstream.signInAs(undefined);
    const page = await newPage();
    await page.goto(loginUrl());
    await page.getByRole('button', { name: 'Continue with Acme ID' }).click();
    await page.getByText('Signing in with that provider did not work').waitFor();
    expect(await page.getByRole('alert').textContent()).toContain('Signing in with that provider did not work');
    await expectAccessible(page);
    await page.screenshot({ path: `${SCREENSHOTS}sso-failed-desktop.png` });
  });
});
