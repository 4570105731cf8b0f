import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { PROVIDER, SCHEMA_ID, samlSchema, TestIdp } from '../../src/flows/methods/saml/saml-test-kit.js';
import { bearer, type TestApp } from '../helpers/app.js';
import { describeBrowser, DESKTOP, expectAccessible, launch, PHONE, startServer } from './harness.js';

const SCREENSHOTS = new URL('../../docs/images/', import.meta.url).pathname;

/** The hosted login: an e-mail first (home-realm discovery screens it), a password next, and the SAML button. */
const WEB_LOGIN = {
  name: 'web_login',
  user_schema: SCHEMA_ID,
  purposes: { web_login: 'identify' },
  steps: [
    {
      name: 'identify',
      fields: ['email'],
      actions: [
        { name: 'continue', kind: 'submit', primary: true },
        { name: 'sso', kind: 'sso' },
      ],
      sso_providers: ['*'],
      transitions: { continue: { target: 'password' }, callback: { target: 'done' } },
    },
    { name: 'password', fields: ['x-auth-methods#password'], actions: [{ name: 'sign_in', kind: 'submit', primary: true }], transitions: { sign_in: { target: 'done' } } },
    { name: 'done', complete: 'redirect' },
  ],
};

describeBrowser('hosted UI in Chromium: sign in at a SAML IdP (samlify on loopback)', () => {
  let browser: Browser;
  let t: TestApp;
  let base: string;
  let idp: TestIdp;
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
    idp = new TestIdp(() => t.clock.now());
    await idp.start();
    project = await t.createProject('Corp Portal');
    for (const [method, url, payload] of [
      ['POST', `/schemas?project_id=${project.id}`, samlSchema()],
      ['PUT', `/projects/${project.id}/saml_providers/${PROVIDER}`, { name: 'Corp', idp_metadata_url: `${idp.base}/metadata`, domains: ['corp.example'], link: 'verified_email' }],
      ['POST', '/flow_definitions', { project_id: project.id, schema_uri: SCHEMA_ID, flow_definition: WEB_LOGIN }],
    ] as const) {
      const response = await api(method, url, payload);
      if (response.statusCode >= 300) throw new Error(`${url}: ${response.body}`);
    }
    idp.register((await t.app.inject({ method: 'GET', url: `/saml/${PROVIDER}/metadata?project_id=${project.id}` })).body);
    browser = await launch();
  });
  afterAll(async () => {
    for (const context of contexts) await context.close();
    await browser?.close();
    await idp?.close();
    await t?.close();
  });

  const loginUrl = () => `${base}/ui/login?project_id=${project.id}&purpose=web_login`;
  const open = async (javaScriptEnabled: boolean, options = DESKTOP) => {
    const context = await browser.newContext({ ...options, bypassCSP: true, javaScriptEnabled });
    contexts.push(context);
    return { context, page: await context.newPage() };
  };

  it('signs a new user in with one click on "Continue with Corp", with JavaScript off too', async () => {
    for (const javaScriptEnabled of [true, false]) {
      const who = javaScriptEnabled ? 'ada' : 'noa';
      idp.user = { nameId: `p-${who}`, attributes: { email: `${who}@partner.example`, givenName: who } };
      const { context, page } = await open(javaScriptEnabled);
      await page.goto(loginUrl());
      const button = page.getByRole('button', { name: 'Continue with Corp' });
      await button.waitFor();
      if (javaScriptEnabled) {
        await expectAccessible(page);
        await page.screenshot({ path: `${SCREENSHOTS}saml-login-desktop.png` });
      }
      await button.click();
      // The IdP answers with the HTTP-POST binding's form: its script posts it, or the user presses Continue.
      if (!javaScriptEnabled) await page.getByRole('button', { name: 'Continue' }).click();
      await page.getByRole('heading', { name: 'You are signed in' }).waitFor();
      expect(new URL(page.url()).pathname).toBe('/ui/login');
      const cookies = await context.cookies();
      expect(cookies.some((c) => c.name === '__service_session')).toBe(true);
      expect(cookies.some((c) => c.name === '_zsaml')).toBe(false);
      expect(await methodsOf(`${who}@partner.example`)).toEqual(['saml']);
    }
  });

  it('sends a company address to its IdP instead of asking for a password (home-realm discovery), with JavaScript off too', async () => {
    for (const javaScriptEnabled of [true, false]) {
      const who = javaScriptEnabled ? 'walker' : 'keys';
      idp.user = { nameId: `p-${who}`, attributes: { email: `${who}@corp.example` } };
      const { page } = await open(javaScriptEnabled, javaScriptEnabled ? PHONE : DESKTOP);
      await page.goto(loginUrl());
      await page.getByLabel('E-mail address').fill(`${who}@corp.example`);
      await page.getByRole('button', { name: 'Continue', exact: true }).click();
      if (!javaScriptEnabled) await page.getByRole('button', { name: 'Continue', exact: true }).click();
      await page.getByRole('heading', { name: 'You are signed in' }).waitFor();
      expect(await methodsOf(`${who}@corp.example`)).toEqual(['saml']);
    }
  });

  it('asks other addresses for their password', async () => {
    const { page } = await open(true);
    await page.goto(loginUrl());
    await page.getByLabel('E-mail address').fill('someone@elsewhere.example');
    await page.getByRole('button', { name: 'Continue', exact: true }).click();
    await page.locator('input[type="password"]').waitFor();
    expect(new URL(page.url()).origin).toBe(base);
  });
});
