import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as oidc from 'openid-client';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { TestApp } from '../helpers/app.js';
import { describeBrowser, DESKTOP, expectAccessible, launch, startServer } from './harness.js';

const PASSWORD = 'correct horse battery staple 42';

describeBrowser('hosted UI in Chromium: an OIDC client\'s code flow with no app code for sign-in', () => {
  let browser: Browser;
  let t: TestApp;
  let base: string;
  let app: Server;
  let callbackBase: string;

  beforeAll(async () => {
    ({ t, base } = await startServer());
    // The relying party's own web server: its callback page is all it serves.
    app = createServer((_request, response) => response.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>App</title><h1>App callback</h1>'));
    await new Promise<void>((resolve) => app.listen(0, '127.0.0.1', resolve));
    callbackBase = `http://127.0.0.1:${(app.address() as AddressInfo).port}`;
    browser = await launch();
  });
  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => app?.close(resolve));
    await t?.close();
  });

  it('authorize -> /ui/login (the default login_uri) -> resume -> the client\'s callback with a code -> tokens', async () => {
    const project = await t.createProject('OIDC');
    const redirectUri = `${callbackBase}/callback`;
    const created = await fetch(`${base}/projects/${project.id}/oauth_clients`, {
      method: 'POST',
      headers: { authorization: `Bearer ${project.project_secret}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Web app', redirect_uris: [redirectUri] }),
    });
    expect(created.status).toBe(201);
    const rp = (await created.json()) as { client_id: string; client_secret: string };
    const config = await oidc.discovery(new URL(base), rp.client_id, rp.client_secret, oidc.ClientSecretBasic(rp.client_secret), { execute: [oidc.allowInsecureRequests] });

    const context = await browser.newContext({ ...DESKTOP, bypassCSP: true });
    const page = await context.newPage();
    // The user has an account: registered on the hosted register page.
    await page.goto(`${base}/ui/register?project_id=${project.id}`);
    await page.getByLabel('E-mail address').fill('oidc@example.com');
    await page.getByLabel('First name').fill('Olli');
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByRole('heading', { name: 'You are signed in' }).waitFor();
    await context.clearCookies();

    const verifier = oidc.randomPKCECodeVerifier();
    const state = oidc.randomState();
    const nonce = oidc.randomNonce();
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: redirectUri,
      scope: 'openid email profile',
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state,
      nonce,
    });
    await page.goto(url.href);
    expect(new URL(page.url()).pathname).toBe('/ui/login');
    await expectAccessible(page);
    await page.getByLabel('E-mail address').fill('oidc@example.com');
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${redirectUri}?**`);
    const callback = new URL(page.url());
    expect(callback.searchParams.get('handoff_token')).toBeNull();
    const tokens = await oidc.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier, expectedState: state, expectedNonce: nonce });
    expect(tokens.claims()).toMatchObject({ iss: base, aud: rp.client_id, email: 'oidc@example.com', nonce });
    const info = await oidc.fetchUserInfo(config, tokens.access_token, tokens.claims()!.sub);
    expect(info).toMatchObject({ email: 'oidc@example.com', given_name: 'Olli' });

    // RP-initiated logout without an id_token_hint asks first; both pages pass axe.
    const sessionBefore = (await context.cookies()).find((c) => c.name === '__service_session');
    expect(sessionBefore).toBeDefined();
    await page.goto(oidc.buildEndSessionUrl(config, {}).href);
    await page.getByRole('heading', { name: 'Sign out?' }).waitFor();
    await expectAccessible(page);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'You are signed out' }).waitFor();
    await expectAccessible(page);
    const me = await t.app.inject({ method: 'GET', url: '/sessions/me', cookies: { __service_session: sessionBefore!.value } });
    expect(me.statusCode).toBe(401);
    await context.close();
  });
});
