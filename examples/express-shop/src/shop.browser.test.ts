import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeBrowser, DESKTOP } from '../../../test/browser/harness.js';
import type { TestApp } from '../../../test/helpers/app.js';
import { shopKit, type ShopKit } from './shop-test-kit.js';

/**
 * The example shop in Chromium beside a real Gatehouse: sign up with a passkey on the hosted page,
 * see the protected account page, lose AAL2 as time passes, step the same session up, change the
 * e-mail address, sign out. Both run on `localhost` (passkeys refuse IP addresses).
 */
describeBrowser('examples/express-shop in Chromium', () => {
  let kit: ShopKit;
  let t: TestApp;
  let gatehouseUrl: string;
  let shopUrl: string;

  beforeAll(async () => {
    kit = await shopKit();
    ({ t, gatehouseUrl, shopUrl } = kit);
  });
  afterAll(async () => kit?.close());

  it('signs up with a passkey, sees the account, steps up for "change e-mail" after AAL2 lapsed, changes it, signs out', async () => {
    const context = await kit.newContext(DESKTOP);
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('WebAuthn.enable');
    await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
    });

    await page.goto(shopUrl);
    await page.getByRole('link', { name: 'Create an account' }).click();
    await page.waitForURL(`${gatehouseUrl}/ui/register?**`);
    await page.getByLabel('E-mail address').fill('shopper@example.com');
    await page.getByLabel('First name').fill('Sam');
    await page.getByRole('button', { name: 'Sign up with a passkey' }).click();
    await page.getByRole('heading', { name: 'Your account', exact: true }).waitFor();
    expect(page.url()).toBe(`${shopUrl}/account`);
    const sessionText = await page.locator('main code').textContent();
    expect(await page.locator('header').innerText()).toContain('urn:nist:aal:2');

    // Twelve hours later the passkey no longer counts for AAL2: the page asks Gatehouse for a step-up
    // of the same session, and the autofill passkey request on the login page answers it.
    t.clock.advance(12 * 3600_000 + 60_000);
    const visited: string[] = [];
    page.on('framenavigated', (frame) => visited.push(frame.url()));
    await page.goto(`${shopUrl}/account/email`);
    await page.getByRole('heading', { name: 'Change e-mail', exact: true }).waitFor();
    expect(page.url()).toBe(`${shopUrl}/account/email`);
    const stepUp = visited.find((url) => url.startsWith(`${gatehouseUrl}/ui/login?`));
    expect(stepUp, visited.join('\n')).toBeDefined();
    expect(new URL(stepUp!).searchParams.get('session_id')).toBe(sessionText);
    await page.goto(`${shopUrl}/account`);
    expect(await page.locator('main code').textContent()).toBe(sessionText);

    await page.goto(`${shopUrl}/account/email`);
    await page.getByLabel('New e-mail address').fill('sam@example.com');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('heading', { name: 'E-mail changed', exact: true }).waitFor();
    expect(await page.locator('main').innerText()).toContain('Your e-mail address is now sam@example.com');
    await page.goto(`${shopUrl}/account`);
    expect(await page.locator('header').innerText()).toContain('Signed in as sam@example.com');

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('link', { name: 'Sign in' }).waitFor();
    await page.goto(`${shopUrl}/account`);
    await page.waitForURL(`${gatehouseUrl}/ui/login?**`);
  });
});
