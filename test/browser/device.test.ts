import { createRemoteJWKSet, customFetch, jwtVerify } from 'jose';
import * as oauth from 'oauth4webapi';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { registerThroughFlow, STRONG_PASSWORD } from '../../src/flows/flow-test-kit.js';
import { deviceClient, type DeviceClient } from '../../src/oauth/device/device-test-kit.js';
import type { TestApp } from '../helpers/app.js';
import { describeBrowser, DESKTOP, expectAccessible, launch, startServer } from './harness.js';

/**
 * Issue 36's proof: oauth4webapi, an independent client, runs the whole device authorization grant
 * (RFC 8628) against a listening Gatehouse: discovery, device authorization, polling through
 * authorization_pending, approval by a person in Chromium on /ui/device (signing in with a
 * password, and with a passkey of a virtual authenticator), and the token response, whose ID token
 * it validates (its signature checked against the JWKS as well). Every page passes axe.
 */
describeBrowser('device authorization grant: oauth4webapi polls, a person approves in Chromium', () => {
  let browser: Browser;
  let t: TestApp;
  let base: string;
  let project: { id: string; project_secret: string };
  let tv: DeviceClient;
  let as: oauth.AuthorizationServer;
  const contexts: BrowserContext[] = [];
  // The public URL is http://localhost:<port> (WebAuthn refuses IP addresses); the server listens on 127.0.0.1.
  const http = {
    [oauth.allowInsecureRequests]: true,
    [oauth.customFetch]: (url: string, init: RequestInit) => fetch(url.replace('//localhost:', '//127.0.0.1:'), init),
  };

  beforeAll(async () => {
    ({ t, base } = await startServer({}, { publicHost: 'localhost' }));
    base = base.replace('127.0.0.1', 'localhost');
    project = await t.createProject('Living room');
    tv = await deviceClient(t, project, { name: 'Living-room TV' });
    const issuer = new URL(base);
    as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { algorithm: 'oidc', ...http }));
    browser = await launch();
  });
  afterAll(async () => {
    for (const context of contexts) await context.close();
    await browser?.close();
    await t?.close();
  });

  const client = (): oauth.Client => ({ client_id: tv.client_id });

  /** The device's side up to the first poll: codes, then authorization_pending. */
  async function startDevice(parameters: Record<string, string>): Promise<oauth.DeviceAuthorizationResponse> {
    expect(as.device_authorization_endpoint).toBe(`${base}/auth/device_authorization`);
    const codes = await oauth.processDeviceAuthorizationResponse(as, client(), await oauth.deviceAuthorizationRequest(as, client(), oauth.None(), parameters, http));
    expect(codes).toMatchObject({ verification_uri: `${base}/ui/device`, expires_in: 600, interval: 5 });
    const pending = await poll(codes).catch((error: unknown) => error);
    expect(pending).toBeInstanceOf(oauth.ResponseBodyError);
    expect((pending as oauth.ResponseBodyError).error).toBe('authorization_pending');
    return codes;
  }

  async function poll(codes: oauth.DeviceAuthorizationResponse): Promise<oauth.TokenEndpointResponse> {
    return oauth.processDeviceCodeResponse(as, client(), await oauth.deviceCodeGrantRequest(as, client(), oauth.None(), codes.device_code, http));
  }

  /** After the approval: the interval passes on the server's clock, the poll gets tokens, the ID token is checked. */
  async function tokensAfterApproval(codes: oauth.DeviceAuthorizationResponse) {
    t.clock.advance((codes.interval ?? 5) * 1000);
    const tokens = await poll(codes);
    const claims = oauth.getValidatedIdTokenClaims(tokens)!;
    expect(claims).toMatchObject({ iss: base, aud: tv.client_id });
    const jwks = createRemoteJWKSet(new URL(as.jwks_uri!), { [customFetch]: http[oauth.customFetch] });
    const verified = await jwtVerify(tokens.id_token!, jwks, { issuer: base, audience: tv.client_id, currentDate: t.clock.now() });
    expect(verified.payload.sub).toBe(claims.sub);
    // Used once: the next poll is refused.
    t.clock.advance((codes.interval ?? 5) * 1000);
    const again = await poll(codes).catch((error: unknown) => error);
    expect((again as oauth.ResponseBodyError).error).toBe('invalid_grant');
    return { tokens, claims };
  }

  async function newPage(): Promise<BrowserContext & { page: Page }> {
    const context = await browser.newContext({ ...DESKTOP, bypassCSP: true });
    contexts.push(context);
    return Object.assign(context, { page: await context.newPage() });
  }

  /** The consent: it names the TV, says a device will be signed in; approving ends on the done page. */
  async function approve(page: Page) {
    await page.getByRole('heading', { name: 'Sign in a device?' }).waitFor();
    await expectAccessible(page);
    await page.getByText('A device, not this browser, will be signed in to your account').waitFor();
    await page.getByText('Living-room TV').waitFor();
    await page.getByRole('button', { name: 'Sign in the device' }).click();
    await page.getByRole('heading', { name: 'Your device is signed in' }).waitFor();
    await expectAccessible(page);
  }

  it('with a password: the link with the code, the hosted login, the consent; tokens for the device', async () => {
    const email = 'device-password@example.com';
    await registerThroughFlow(t, project.id, email);
    const codes = await startDevice({ scope: 'openid email offline_access' });
    const { page } = await newPage();
    await page.goto(codes.verification_uri_complete!);
    expect(await page.getByLabel('Code').inputValue()).toBe(codes.user_code);
    await expectAccessible(page);
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.waitForURL(/\/ui\/login\?/);
    await page.getByLabel('E-mail address').fill(email);
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByLabel('Password', { exact: true }).fill(STRONG_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await approve(page);
    const { tokens, claims } = await tokensAfterApproval(codes);
    expect(claims).toMatchObject({ email, acr: 'urn:nist:aal:1', amr: ['pwd'] });
    expect(tokens.refresh_token).toMatch(/^gh_rt_/);
    const info = await oauth.processUserInfoResponse(as, client(), claims.sub, await oauth.userInfoRequest(as, client(), tokens.access_token, http));
    expect(info).toMatchObject({ email });
  });

  it('with a passkey (virtual authenticator), the code typed by hand in German, AAL2 asked with acr_values', async () => {
    const { page } = await newPage();
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('WebAuthn.enable');
    await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
    });
    await page.goto(`${base}/ui/register?project_id=${project.id}`);
    await page.getByLabel('E-mail address').fill('device-passkey@example.com');
    await page.getByLabel('First name').fill('Pia');
    await page.getByRole('button', { name: 'Sign up with a passkey' }).click();
    await page.getByRole('heading', { name: 'You are signed in' }).waitFor();
    await page.context().clearCookies();

    const codes = await startDevice({ scope: 'openid', acr_values: 'urn:nist:aal:2' });
    await page.goto(`${base}/ui/device?lang=de`);
    await page.getByRole('heading', { name: 'Gerät verbinden' }).waitFor();
    await expectAccessible(page);
    await page.getByLabel('Code').fill(codes.user_code.toLowerCase().replace('-', ' '));
    await page.getByRole('button', { name: 'Weiter' }).click();
    // The login page offers the passkey at once (conditional UI); the authenticator answers it.
    await page.getByRole('heading', { name: 'Ein Gerät anmelden?' }).waitFor();
    await expectAccessible(page);
    await page.getByText('Ein Gerät – nicht dieser Browser – wird mit Ihrem Konto angemeldet').waitFor();
    await page.getByRole('button', { name: 'Gerät anmelden' }).click();
    await page.getByRole('heading', { name: 'Ihr Gerät ist angemeldet' }).waitFor();
    await expectAccessible(page);
    const { claims } = await tokensAfterApproval(codes);
    expect(claims.acr).toBe('urn:nist:aal:2');
    expect(claims.amr).toEqual(expect.arrayContaining([expect.stringMatching(/^(hwk|swk)$/)]));
  });
});
