import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { TestIdp } from '../../src/flows/methods/saml/saml-test-kit.js';
import { receiver } from '../../src/webhooks/webhooks-test-kit.js';
import type { TestApp } from '../helpers/app.js';
import { BrowserPages, describeBrowser, expectAccessible, startServer } from './harness.js';

const SCREENSHOTS = new URL('../../docs/images/', import.meta.url).pathname;
const PASSWORD = 'correct horse battery staple 42';
const NEW_PASSWORD = 'a brand new passphrase for Sam 1776';

/**
 * The admin console (issue 33) in Chromium, from the printed set-up link: the first operator signs
 * up with a passkey (Chromium's virtual authenticator) and creates a project; a user registers on
 * that project's hosted page; the operator finds them in the console and revokes their session,
 * and the app's next session check answers 401. Then every section in English and German under
 * axe, and a second operator (passkey, project admin) who sees only their project. Screenshots.
 */
describeBrowser('the admin console in Chromium: from the set-up link to a revoked session', () => {
  let pages: BrowserPages;
  let t: TestApp;
  let base: string;

  beforeAll(async () => {
    // WebAuthn refuses IP addresses as relying parties: the pages are opened on localhost.
    // The webhooks page delivers to a receiver on loopback.
    ({ t, base } = await startServer({ outboundAllowPrivate: true }, { publicHost: 'localhost' }));
    base = base.replace('127.0.0.1', 'localhost');
    pages = await BrowserPages.launch();
  });
  afterAll(async () => {
    await pages?.close();
    await t?.close();
  });
  const newPage = () => pages.newPage();

  // The whole first hour of an operator, in one journey: minutes of browser work on a busy machine.
  it('sets up the first operator with a passkey, creates a project, finds its new user, revokes their session and sends a recovery mail that sets a new password', async () => {
    const link = await t.container.consoleAccess.setupLink();
    expect(link).toMatch(new RegExp(`^${base}/console/setup\\?token=gh_setup_`));

    const operator = await newPage();
    const cdp = await operator.context().newCDPSession(operator);
    await cdp.send('WebAuthn.enable');
    await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
    });
    await operator.goto(link!);
    await operator.getByRole('heading', { name: 'Set up Gatehouse' }).waitFor();
    await expectAccessible(operator);
    await operator.screenshot({ path: `${SCREENSHOTS}console-setup-desktop.png` });
    await operator.getByRole('button', { name: 'Create the operator account' }).click();

    // The hosted registration page of the system project.
    await operator.waitForURL(/\/ui\/register\?/);
    await operator.getByLabel('E-mail address').fill('ops@example.com');
    await operator.getByLabel('First name').fill('Olga');
    await operator.getByRole('button', { name: 'Sign up with a passkey' }).click();
    await operator.waitForURL(/\/console\?welcome=1/);
    await operator.getByRole('heading', { name: 'Projects' }).waitFor();
    expect(await operator.getByRole('status').textContent()).toContain('You are the first operator');
    await expectAccessible(operator);

    await operator.getByLabel('Name').fill('Coffee shop');
    await operator.getByRole('button', { name: 'Create project' }).click();
    await operator.getByRole('heading', { name: 'Project Coffee shop' }).waitFor();
    expect(await operator.locator('.secret-value').textContent()).toMatch(/^gh_ps_/);
    await expectAccessible(operator);
    await operator.screenshot({ path: `${SCREENSHOTS}console-project-desktop.png`, fullPage: true });
    const registerLink = await operator.getByRole('link', { name: 'Registration page' }).getAttribute('href');

    // Someone signs up on the project's hosted page; their browser holds the session cookie.
    const shopper = await newPage();
    await shopper.goto(registerLink!);
    await shopper.getByLabel('E-mail address').fill('sam@example.com');
    await shopper.getByLabel('First name').fill('Sam');
    await shopper.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await shopper.getByRole('button', { name: 'Create account' }).click();
    await shopper.getByRole('heading', { name: 'You are signed in' }).waitFor();
    const sessionCookie = (await shopper.context().cookies()).filter((c) => c.name === '__service_session').map((c) => `${c.name}=${c.value}`).join('; ');
    const check = () => t.app.inject({ method: 'GET', url: '/sessions/me', headers: { cookie: sessionCookie } });
    expect((await check()).statusCode).toBe(200);

    // The operator finds them and ends the session.
    await operator.getByRole('link', { name: 'Users' }).click();
    await operator.getByRole('heading', { name: 'Users' }).waitFor();
    await expectAccessible(operator);
    await operator.getByLabel('Find a user by e-mail address or username').fill('SAM@example.com');
    await operator.getByRole('button', { name: 'Search' }).click();
    await operator.getByRole('link', { name: 'sam@example.com' }).click();
    await operator.getByRole('heading', { level: 1, name: 'User' }).waitFor();
    await expectAccessible(operator);
    await operator.screenshot({ path: `${SCREENSHOTS}console-user-desktop.png`, fullPage: true });
    await operator.getByRole('button', { name: 'Revoke' }).click();
    await operator.getByRole('status').filter({ hasText: 'The session was revoked' }).waitFor();
    expect((await check()).statusCode).toBe(401);

    // Sam has forgotten the password: the operator sends a recovery mail, Sam opens its link,
    // lands in the account settings signed in, and sets a new password that then signs in.
    await operator.getByLabel('Language of the mail').selectOption('en');
    await operator.getByRole('button', { name: 'Send a recovery mail' }).click();
    await operator.getByRole('status').filter({ hasText: 'The recovery mail is on its way' }).waitFor();
    await expectAccessible(operator);
    await t.container.flows.courier.flush();
    const [mail] = await t.container.flows.courier.outboxFor('sam@example.com');
    const recoveryLink = /^(http\S+\/ui\/recover\S+)$/m.exec(mail.body ?? '')![1];
    const lost = await newPage();
    await lost.goto(recoveryLink);
    await lost.getByRole('heading', { name: 'Get back into your account' }).waitFor();
    await expectAccessible(lost);
    await lost.getByRole('button', { name: 'Continue' }).click();
    await lost.getByRole('heading', { name: 'Sign-in and security' }).waitFor();
    await lost.getByRole('button', { name: 'Change password' }).click();
    await lost.getByLabel('Password', { exact: true }).fill(NEW_PASSWORD);
    await lost.keyboard.press('Enter');
    await lost.getByRole('heading', { name: 'Sign-in and security' }).waitFor();
    const again = await newPage();
    await again.goto(registerLink!.replace('/ui/register', '/ui/login'));
    await again.getByLabel('E-mail address').fill('sam@example.com');
    await again.keyboard.press('Enter');
    await again.getByLabel('Password', { exact: true }).fill(NEW_PASSWORD);
    await again.keyboard.press('Enter');
    await again.getByRole('heading', { name: 'You are signed in' }).waitFor();

    // The project's settings, the development outbox, and the pages in German.
    await operator.goto(`${base}/console`);
    await operator.getByRole('link', { name: 'Coffee shop' }).click();
    await operator.getByRole('link', { name: 'Settings' }).click();
    await operator.getByLabel('Allowed redirect URIs').fill('https://shop.example.com/callback');
    await operator.getByRole('button', { name: 'Save' }).nth(1).click();
    await operator.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    await expectAccessible(operator);
    await operator.screenshot({ path: `${SCREENSHOTS}console-settings-desktop.png`, fullPage: true });
    await operator.getByRole('link', { name: 'Back to the project' }).click();
    await operator.getByRole('link', { name: 'Service keys' }).click();
    await operator.getByRole('button', { name: 'Create a service key' }).click();
    await operator.getByText(/GATEHOUSE_KEY_SECRET=/).waitFor();
    await expectAccessible(operator);
    await operator.screenshot({ path: `${SCREENSHOTS}console-keys-desktop.png`, fullPage: true });
    await operator.getByRole('link', { name: 'Back to the project' }).click();
    await operator.getByRole('link', { name: 'Flow definitions' }).click();
    await operator.getByRole('heading', { name: 'Flow definitions' }).waitFor();
    await expectAccessible(operator);
    await operator.getByRole('link', { name: 'login', exact: true }).first().click();
    await operator.locator('svg[role="img"]').waitFor();
    await expectAccessible(operator);
    await operator.screenshot({ path: `${SCREENSHOTS}console-flow-desktop.png`, fullPage: true });
    await operator.getByRole('link', { name: 'Operators' }).click();
    await operator.getByRole('heading', { name: 'Operators' }).waitFor();
    await expectAccessible(operator);
    await operator.goto(`${base}/console`);
    await operator.getByRole('link', { name: 'Coffee shop' }).click();
    await operator.getByRole('link', { name: 'Outbox' }).click();
    await operator.getByRole('heading', { name: 'Outbox' }).waitFor();
    await expectAccessible(operator);
    await operator.getByRole('link', { name: 'Deutsch' }).click();
    await operator.getByRole('heading', { name: 'Postausgang' }).waitFor();
    expect(await operator.getAttribute('html', 'lang')).toBe('de');
    await operator.goto(`${base}/console?lang=de`);
    await operator.getByRole('heading', { name: 'Projekte' }).waitFor();
    await expectAccessible(operator);
    await operator.screenshot({ path: `${SCREENSHOTS}console-projects-de-desktop.png` });
    shop = { page: operator, id: new URL(registerLink!).searchParams.get('project_id')! };
  }, 240_000);

  /** The first test's operator tab and project. */
  let shop: { page: Page; id: string };

  it('every section of a project is axe-clean in English and German', async () => {
    const { page } = shop;
    for (const [path, heading] of [
      ['users', 'Users'], ['keys', 'Service keys'], ['settings', 'Settings of Coffee shop'], ['oauth_clients', 'OAuth clients'], ['sso_providers', 'SSO providers'],
      ['mail_templates', 'Mail templates'], ['branding', 'Branding'], ['teams', 'Teams'], ['schemas', 'User schemas'], ['flows', 'Flow definitions'],
      ['saml_providers', 'SAML identity providers'], ['webhooks', 'Webhooks'], ['events', 'Event log'],
    ]) {
      await page.goto(`${base}/console/projects/${shop.id}/${path}`);
      await page.getByRole('heading', { level: 1, name: heading }).waitFor();
      await expectAccessible(page);
      await page.goto(`${base}/console/projects/${shop.id}/${path}?lang=de`);
      expect(await page.getAttribute('html', 'lang'), path).toBe('de');
      await expectAccessible(page);
    }
  });

  it('adds a SAML identity provider by its metadata URL, and reads what happened in the event log', async () => {
    const { page } = shop;
    // A real IdP (samlify) on loopback publishes the metadata the console's form names.
    const idp = new TestIdp(() => t.clock.now());
    await idp.start();
    try {
      await page.goto(`${base}/console/projects/${shop.id}`);
      await page.getByRole('link', { name: 'SAML identity providers' }).click();
      await page.getByRole('heading', { level: 1, name: 'SAML identity providers' }).waitFor();
      await page.getByLabel('Provider ID').fill('corp');
      await page.getByLabel('Name', { exact: true }).fill('Corp SSO');
      await page.getByLabel('IdP metadata URL (https)').fill(`${idp.base}/metadata`);
      await page.getByLabel(/^E-mail domains/).fill('corp.example');
      await page.getByRole('button', { name: 'Add a SAML identity provider' }).click();
      await page.getByRole('heading', { level: 1, name: 'SAML identity provider Corp SSO' }).waitFor();
      await page.getByRole('status').filter({ hasText: 'Now give the IdP the values below.' }).waitFor();
      expect(await page.getByText(`${base}/flow/saml/acs`).count()).toBe(1);
      expect(await page.getByText(`${idp.base}/sso`).count()).toBe(1);
      await expectAccessible(page);
      await page.screenshot({ path: `${SCREENSHOTS}console-saml-desktop.png`, fullPage: true });

      // A refused edit comes back at the form: a domain that is none.
      await page.getByLabel(/^E-mail domains/).fill('corp.example\nnot a domain');
      await page.getByRole('button', { name: 'Save' }).click();
      await page.getByRole('alert').filter({ hasText: 'body/domains/1' }).waitFor();
      expect(await page.getByLabel(/^E-mail domains/).getAttribute('aria-invalid')).toBe('true');
      await expectAccessible(page);
    } finally {
      await idp.close();
    }

    await page.getByRole('link', { name: 'Back to the SAML identity providers' }).click();
    await page.getByRole('link', { name: 'Back to the project' }).click();
    await page.getByRole('link', { name: 'Event log' }).click();
    await page.getByRole('heading', { level: 1, name: 'Event log' }).waitFor();
    const eventRows = (type: string) => page.getByRole('row').filter({ has: page.getByRole('link', { name: type, exact: true }) });
    expect(await eventRows('saml_provider.created').count()).toBe(1);
    // The operator's change, in full behind its disclosure under the row.
    const added = page.locator('details').filter({ hasText: '"type": "saml_provider.created"' });
    await added.getByText('Details').click();
    await added.getByText('"name": "Corp SSO"').waitFor();
    await expectAccessible(page);
    await page.screenshot({ path: `${SCREENSHOTS}console-events-desktop.png`, fullPage: true });

    // Filter to the session the first test revoked, then follow its subject to the user's page.
    await page.getByLabel('Type', { exact: true }).fill('session.revoked');
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.waitForURL(/type=session.revoked/);
    expect(await eventRows('session.revoked').count()).toBe(1);
    expect(await page.getByRole('row').count()).toBe(3);
    await expectAccessible(page);
  });

  it('adds a webhook endpoint (its secret shown once), reads its delivery and sends it again', async () => {
    const { page } = shop;
    const hook = await receiver();
    try {
      await page.goto(`${base}/console/projects/${shop.id}`);
      await page.getByRole('link', { name: 'Webhooks' }).click();
      await page.getByRole('heading', { level: 1, name: 'Webhooks' }).waitFor();
      // An unknown type is refused at the form, with the types the API knows.
      await page.getByLabel('URL (https, a public address)').fill(hook.url);
      await page.getByLabel(/^Event types/).fill('user.created, user.nope');
      await page.getByRole('button', { name: 'Add an endpoint' }).click();
      await page.getByRole('alert').filter({ hasText: 'unknown event type "user.nope"' }).waitFor();
      expect(await page.getByLabel(/^Event types/).getAttribute('aria-invalid')).toBe('true');
      await expectAccessible(page);

      await page.getByLabel(/^Event types/).fill('*');
      await page.getByLabel('Description (optional)').fill('Shop sync');
      await page.getByRole('button', { name: 'Add an endpoint' }).click();
      await page.getByRole('status').filter({ hasText: 'it is shown only this once' }).waitFor();
      expect(await page.locator('code.secret-value').textContent()).toMatch(/^whsec_/);
      await expectAccessible(page);

      // Subscribed to every type, the endpoint's own webhook.created is its first delivery.
      expect(await t.container.webhooks.worker.drain()).toBe(1);
      expect(hook.received).toHaveLength(1);
      await page.getByRole('link', { name: /^Webhook endpoint wh_/ }).click();
      await page.getByRole('heading', { level: 2, name: 'Deliveries' }).waitFor();
      expect(await page.getByRole('cell', { name: 'delivered', exact: false }).count()).toBe(1);
      expect(await page.locator('code.secret-value').count()).toBe(0);
      await page.getByRole('button', { name: /^Send again/ }).click();
      await page.getByRole('status').filter({ hasText: 'The delivery is being sent again.' }).waitFor();
      expect(await t.container.webhooks.worker.drain()).toBe(1);
      expect(hook.received).toHaveLength(2);
      await page.reload();
      await expectAccessible(page);
      await page.screenshot({ path: `${SCREENSHOTS}console-webhooks-desktop.png`, fullPage: true });
      await page.goto(`${page.url().split('?')[0]}?lang=de`);
      await page.getByRole('heading', { level: 2, name: 'Zustellungen' }).waitFor();
      await expectAccessible(page);

      // The event's link opens the event log at that one event.
      await page.goto(page.url().split('?')[0]);
      await page.getByRole('link', { name: 'webhook.created', exact: true }).click();
      await page.getByRole('heading', { level: 1, name: 'Event log' }).waitFor();
      expect(await page.locator('tr.event').count()).toBe(1);
    } finally {
      await hook.close();
    }
  });

  it('a project admin who signed up with a passkey sees only their project (404 elsewhere)', async () => {
    const hidden = await t.createProject('Hidden');
    // The new operator signs up on the system project's registration page that the Operators page shows.
    const { page: admin } = shop;
    await admin.goto(`${base}/console/operators`);
    const signUp = await admin.locator('p.description a[href*="/ui/register"]').getAttribute('href');
    const pat = await newPage();
    const cdp = await pat.context().newCDPSession(pat);
    await cdp.send('WebAuthn.enable');
    await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
    });
    await pat.goto(signUp!);
    await pat.getByLabel('E-mail address').fill('pat@example.com');
    await pat.getByLabel('First name').fill('Pat');
    await pat.getByRole('button', { name: 'Sign up with a passkey' }).click();
    await pat.getByRole('heading', { name: 'You are signed in' }).waitFor();

    // The instance admin makes them project admin of the coffee shop.
    await admin.getByLabel('E-mail address of a system-project user').fill('pat@example.com');
    await admin.getByLabel('Role').selectOption(shop.id);
    await admin.getByRole('button', { name: 'Grant a role' }).click();
    await admin.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();

    await pat.goto(`${base}/console`);
    await pat.getByRole('heading', { name: 'Projects' }).waitFor();
    expect(await pat.getByRole('link', { name: 'Coffee shop' }).count()).toBe(1);
    expect(await pat.getByRole('link', { name: 'Hidden' }).count()).toBe(0);
    expect(await pat.getByRole('button', { name: 'Create project' }).count()).toBe(0);
    expect(await pat.getByRole('link', { name: 'Operators' }).count()).toBe(0);
    for (const url of [`/console/projects/${hidden.id}`, `/console/projects/${hidden.id}/users`, '/console/operators']) {
      expect((await pat.goto(`${base}${url}`))!.status(), url).toBe(404);
    }
    expect((await pat.goto(`${base}/console/projects/${shop.id}/users`))!.status()).toBe(200);
  });
});
