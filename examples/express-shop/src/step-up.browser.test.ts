import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeBrowser, DESKTOP, expectAccessible } from '../../../test/browser/harness.js';
import { shopKit, type ShopKit } from './shop-test-kit.js';

const SCREENSHOTS = new URL('../../../docs/images/', import.meta.url).pathname;

/**
 * Issue 39: a password-only shopper opens "Change e-mail" (AAL2). The hosted page says why it asks
 * again and offers no new account; the password alone falls short, and instead of a silent loop
 * back through the shop the page says which methods would do and links to the settings page.
 */
describeBrowser('examples/express-shop in Chromium: a step-up that explains itself', () => {
  let kit: ShopKit;
  let gatehouseUrl: string;
  let shopUrl: string;

  beforeAll(async () => {
    kit = await shopKit();
    ({ gatehouseUrl, shopUrl } = kit);
  });
  afterAll(async () => kit?.close());

  it('a password-only shopper clicks "Change e-mail": told why, no "Create an account", then which methods would do and the settings link', async () => {
    // bypassCSP lets axe-core in; the pages' own CSP is tested elsewhere.
    const context = await kit.newContext({ ...DESKTOP, bypassCSP: true });
    const page = await context.newPage();

    await page.goto(shopUrl);
    await page.getByRole('link', { name: 'Create an account' }).click();
    await page.getByLabel('E-mail address').fill('plain@example.com');
    await page.getByLabel('First name').fill('Pat');
    await page.getByLabel('Password').fill('correct horse battery staple 42');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByRole('heading', { name: 'Your account', exact: true }).waitFor();
    expect(await page.locator('header').innerText()).not.toContain('urn:nist:aal:2');
    const sessionId = await page.locator('main code').textContent();

    await page.getByRole('link', { name: 'Change e-mail' }).click();
    await page.waitForURL(`${gatehouseUrl}/ui/login?**`);
    const asked = new URL(page.url()).searchParams;
    expect(asked.get('aal')).toBe('2');
    expect(asked.get('session_id')).toBe(sessionId);
    expect(await page.getByRole('status').innerText()).toContain("Confirm it's you with a stronger method.");
    expect(await page.getByText('Create an account').count()).toBe(0);
    await expectAccessible(page);
    await page.screenshot({ path: `${SCREENSHOTS}step-up-desktop.png` });

    await page.getByLabel('E-mail address').fill('plain@example.com');
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByLabel('Password', { exact: true }).fill('correct horse battery staple 42');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('heading', { name: 'This sign-in is not strong enough' }).waitFor();
    expect(page.url()).toMatch(new RegExp(`^${gatehouseUrl}/ui/login\\?`));
    expect(await page.getByRole('alert').innerText()).toContain('Add a passkey or an authenticator app to your account');
    const settings = page.getByRole('link', { name: 'Manage sign-in methods' });
    expect(await settings.getAttribute('href')).toBe(`${gatehouseUrl}/ui/settings?project_id=${asked.get('project_id')}`);
    expect(await page.getByRole('link', { name: 'Try again' }).count()).toBe(1);
    await expectAccessible(page);
    await page.screenshot({ path: `${SCREENSHOTS}step-up-short-desktop.png` });

    // The shop's session is as it was: still AAL1, still the same session.
    await page.goto(`${shopUrl}/account`);
    expect(await page.locator('main code').textContent()).toBe(sessionId);
    expect(await page.locator('header').innerText()).not.toContain('urn:nist:aal:2');
  });
});
