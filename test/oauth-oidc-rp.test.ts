import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createListeningTestApp, type TestApp } from './helpers/app.js';
import { eventsOf } from '../src/events/test-kit.js';
import { registerThroughFlow, STRONG_PASSWORD } from '../src/flows/flow-test-kit.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

/** A browser over real HTTP: keeps cookies, never follows redirects by itself. */
class Browser {
  readonly cookies = new Map<string, string>();
  async fetch(url: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    if (this.cookies.size > 0) headers.set('cookie', [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; '));
    const response = await fetch(url, { ...init, headers, redirect: 'manual' });
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const index = pair.indexOf('=');
      const name = pair.slice(0, index);
      const value = pair.slice(index + 1);
      if (value === '' || /max-age=0/i.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return response;
  }
}

describe('OpenID Connect with openid-client as the relying party (real HTTP)', () => {
  let t: TestApp;
  let base: string;
  let project: { id: string; project_secret: string };
  let rp: { client_id: string; client_secret: string };
  let config: oidc.Configuration;
  const email = 'rp-user@example.com';
  const redirectUri = 'http://127.0.0.1:9/callback';
  const loginUri = 'http://127.0.0.1:9/login';

  beforeAll(async () => {
    const listening = await createListeningTestApp();
    t = listening;
    base = listening.base;
    project = await t.createProject('RP project');
    const registered = await registerThroughFlow(t, project.id, email);
    if (registered.statusCode !== 200) throw new Error(registered.body);
    const created = await fetch(`${base}/projects/${project.id}/oauth_clients`, {
      method: 'POST',
      headers: { authorization: `Bearer ${project.project_secret}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Node app', redirect_uris: [redirectUri], login_uri: loginUri }),
    });
    expect(created.status).toBe(201);
    rp = (await created.json()) as typeof rp;
    config = await oidc.discovery(new URL(base), rp.client_id, rp.client_secret, oidc.ClientSecretBasic(rp.client_secret), {
      execute: [oidc.allowInsecureRequests],
    });
  });
  afterAll(async () => t.close());

  /** authorize -> login frontend (the Gatehouse login flow) -> resume -> callback URL with the code. */
  async function signIn(browser: Browser, params: Record<string, string>): Promise<{ callback: URL; verifier: string; state: string; nonce: string }> {
    const verifier = oidc.randomPKCECodeVerifier();
    const state = oidc.randomState();
    const nonce = oidc.randomNonce();
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: redirectUri,
      scope: 'openid profile email',
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state,
      nonce,
      ...params,
    });
    const authorize = await browser.fetch(url.href);
    expect(authorize.status).toBe(302);
    const location = new URL(authorize.headers.get('location')!);
    if (location.href.startsWith(redirectUri)) return { callback: location, verifier, state, nonce };
    expect(location.origin + location.pathname).toBe(loginUri);
    const resumeUri = location.searchParams.get('resume_uri')!;
    const authorizationId = location.searchParams.get('authorization_id')!;
    expect(location.searchParams.get('project_id')).toBe(project.id);

    // The login frontend runs the Gatehouse login flow over the /flow API.
    const json = { 'content-type': 'application/json' };
    const started: Json = await (await browser.fetch(`${base}/flow`, { method: 'POST', headers: json, body: JSON.stringify({ project_id: project.id, purpose: 'login' }) })).json();
    const identified: Json = await (
      await browser.fetch(`${base}/flow/${started.id}/submit`, { method: 'POST', headers: json, body: JSON.stringify({ action: 'continue', fields: { email } }) })
    ).json();
    const done: Json = await (
      await browser.fetch(`${base}/flow/${identified.id}/submit`, { method: 'POST', headers: json, body: JSON.stringify({ action: 'sign_in', fields: { password: STRONG_PASSWORD } }) })
    ).json();
    expect(done.step.type).toBe('complete');
    const resumed = await browser.fetch(resumeUri, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ authorization_id: authorizationId, handoff_token: done.handoff_token }).toString(),
    });
    expect(resumed.status, await resumed.clone().text()).toBe(303);
    return { callback: new URL(resumed.headers.get('location')!), verifier, state, nonce };
  }

  it('discovers the provider', () => {
    const metadata = config.serverMetadata();
    expect(metadata.issuer).toBe(base);
    expect(metadata.authorization_endpoint).toBe(`${base}/auth/authorize`);
    expect(metadata.code_challenge_methods_supported).toEqual(['S256']);
  });

  it('signs in with authorization code + PKCE through the password flow, then reads userinfo', async () => {
    const browser = new Browser();
    const { callback, verifier, state, nonce } = await signIn(browser, {});
    expect(callback.searchParams.get('iss')).toBe(base);
    const tokens = await oidc.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier, expectedState: state, expectedNonce: nonce });
    const claims = tokens.claims()!;
    expect(claims).toMatchObject({ iss: base, aud: rp.client_id, email, nonce });
    expect(claims.sid).toMatch(/^sess_/);
    expect(tokens.refresh_token).toMatch(/^gh_rt_/);
    const info = await oidc.fetchUserInfo(config, tokens.access_token, claims.sub);
    expect(info).toMatchObject({ sub: claims.sub, email, given_name: 'Ann' });
  });

  it('rotates refresh tokens; reusing the old one revokes the family', async () => {
    const { callback, verifier, state, nonce } = await signIn(new Browser(), {});
    const first = await oidc.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier, expectedState: state, expectedNonce: nonce });
    const second = await oidc.refreshTokenGrant(config, first.refresh_token!);
    expect(second.refresh_token).not.toBe(first.refresh_token);
    await oidc.fetchUserInfo(config, second.access_token, oidc.skipSubjectCheck);
    await expect(oidc.refreshTokenGrant(config, first.refresh_token!)).rejects.toMatchObject({ error: 'invalid_grant' });
    await expect(oidc.fetchUserInfo(config, second.access_token, oidc.skipSubjectCheck)).rejects.toBeInstanceOf(oidc.WWWAuthenticateChallengeError);
    await expect(oidc.refreshTokenGrant(config, second.refresh_token!)).rejects.toMatchObject({ error: 'invalid_grant' });
  });

  it('revokes, after which userinfo answers 401 invalid_token', async () => {
    const { callback, verifier, state, nonce } = await signIn(new Browser(), {});
    const tokens = await oidc.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier, expectedState: state, expectedNonce: nonce });
    await oidc.tokenRevocation(config, tokens.access_token);
    const error = await oidc.fetchUserInfo(config, tokens.access_token, oidc.skipSubjectCheck).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(oidc.WWWAuthenticateChallengeError);
    expect((error as oidc.WWWAuthenticateChallengeError).cause[0]).toMatchObject({ scheme: 'bearer', parameters: { error: 'invalid_token' } });
    expect((error as oidc.WWWAuthenticateChallengeError).status).toBe(401);
  });

  it('signs in again without a flow while the Gatehouse session lives (prompt=login forces the flow)', async () => {
    const browser = new Browser();
    await signIn(browser, {});
    expect(browser.cookies.has('__service_session')).toBe(true);
    const again = await signIn(browser, {});
    expect(again.callback.searchParams.get('code')).toMatch(/^gh_ac_/);
    const tokens = await oidc.authorizationCodeGrant(config, again.callback, { pkceCodeVerifier: again.verifier, expectedState: again.state, expectedNonce: again.nonce });
    expect(tokens.claims()!.email).toBe(email);
    const forced = await browser.fetch(
      oidc.buildAuthorizationUrl(config, { redirect_uri: redirectUri, scope: 'openid', code_challenge: await oidc.calculatePKCECodeChallenge(oidc.randomPKCECodeVerifier()), code_challenge_method: 'S256', prompt: 'login' }).href,
    );
    expect(forced.headers.get('location')).toContain(loginUri);
    const silent = await new Browser().fetch(
      oidc.buildAuthorizationUrl(config, { redirect_uri: redirectUri, scope: 'openid', code_challenge: await oidc.calculatePKCECodeChallenge(oidc.randomPKCECodeVerifier()), code_challenge_method: 'S256', prompt: 'none', state: 's1' }).href,
    );
    const location = new URL(silent.headers.get('location')!);
    expect(location.searchParams.get('error')).toBe('login_required');
    expect(location.searchParams.get('state')).toBe('s1');
  });

  it('refuses PKCE downgrades: plain, a missing challenge, a missing or wrong verifier', async () => {
    const verifier = oidc.randomPKCECodeVerifier();
    for (const params of [
      { code_challenge: verifier, code_challenge_method: 'plain' },
      { code_challenge: await oidc.calculatePKCECodeChallenge(verifier) },
      {},
    ]) {
      const url = new URL(`${base}/auth/authorize`);
      for (const [name, value] of Object.entries({ response_type: 'code', client_id: rp.client_id, redirect_uri: redirectUri, scope: 'openid', state: 'st', ...params })) {
        url.searchParams.set(name, value);
      }
      const response = await fetch(url, { redirect: 'manual' });
      expect(response.status).toBe(302);
      const location = new URL(response.headers.get('location')!);
      expect(location.href.startsWith(redirectUri)).toBe(true);
      expect(location.searchParams.get('error')).toBe('invalid_request');
      expect(location.searchParams.get('state')).toBe('st');
      expect(location.searchParams.get('code')).toBeNull();
    }
    const { callback, state, nonce } = await signIn(new Browser(), {});
    await expect(oidc.authorizationCodeGrant(config, callback, { pkceCodeVerifier: oidc.randomPKCECodeVerifier(), expectedState: state, expectedNonce: nonce })).rejects.toMatchObject({
      error: 'invalid_grant',
    });
    const noVerifier = await fetch(`${base}/auth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${Buffer.from(`${rp.client_id}:${rp.client_secret}`).toString('base64')}` },
      body: new URLSearchParams({ grant_type: 'authorization_code', code: callback.searchParams.get('code')!, redirect_uri: redirectUri }),
    });
    expect(noVerifier.status).toBe(400);
    expect(await noVerifier.json()).toMatchObject({ error: 'invalid_request', code: 'oauth.invalid_request' });
  });

  it('matches redirect URIs exactly and shows (never redirects) errors about them', async () => {
    for (const uri of [`${redirectUri}/`, `${redirectUri}?x=1`, 'http://127.0.0.1:9/CALLBACK', 'https://evil.example/callback']) {
      const url = oidc.buildAuthorizationUrl(config, { redirect_uri: uri, scope: 'openid', code_challenge: 'x'.repeat(43), code_challenge_method: 'S256' });
      const response = await fetch(url, { redirect: 'manual' });
      expect(response.status).toBe(400);
      expect(response.headers.get('location')).toBeNull();
      expect(await response.json()).toMatchObject({ error: 'invalid_request', code: 'oauth.invalid_request', details: { parameter: 'redirect_uri' } });
    }
  });

  it('refuses a replayed code and revokes what the first redemption bought', async () => {
    const { callback, verifier, state, nonce } = await signIn(new Browser(), {});
    const tokens = await oidc.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier, expectedState: state, expectedNonce: nonce });
    await expect(oidc.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier, expectedState: state, expectedNonce: nonce })).rejects.toMatchObject({
      error: 'invalid_grant',
    });
    await expect(oidc.fetchUserInfo(config, tokens.access_token, oidc.skipSubjectCheck)).rejects.toBeInstanceOf(oidc.WWWAuthenticateChallengeError);
    // The replay is in the project's log: Gatehouse revoked the grant the code bought.
    const [revoked] = await eventsOf(t, project.id, { type: 'oauth.token_revoked' });
    expect(revoked).toMatchObject({ actor: { kind: 'system', id: null }, data: { token_type: 'authorization_code', reason: 'reuse_detected' } });
  });

  it('gets client-credentials tokens for the root client with scope narrowing, and invalid_scope beyond it', async () => {
    const root = await oidc.discovery(new URL(base), project.id, project.project_secret, undefined, { execute: [oidc.allowInsecureRequests] });
    const tokens = await oidc.clientCredentialsGrant(root, { scope: 'user.read' });
    expect(tokens.scope).toBe('user.read');
    const users = await fetch(`${base}/users?project_id=${project.id}`, { headers: { authorization: `Bearer ${tokens.access_token}` } });
    expect(users.status).toBe(200);
    const key: Json = await (await fetch(`${base}/projects/${project.id}/service_keys`, {
      method: 'POST',
      headers: { authorization: `Bearer ${project.project_secret}`, 'content-type': 'application/json' },
      body: JSON.stringify({ scopes: ['user.read'] }),
    })).json();
    const keyConfig = await oidc.discovery(new URL(base), key.client_id, key.client_secret, undefined, { execute: [oidc.allowInsecureRequests] });
    await expect(oidc.clientCredentialsGrant(keyConfig, { scope: 'user.write' })).rejects.toMatchObject({ error: 'invalid_scope' });
    // Another project's client sees this project's tokens as inactive.
    const other = await t.createProject();
    const otherConfig = await oidc.discovery(new URL(base), other.id, other.project_secret, undefined, { execute: [oidc.allowInsecureRequests] });
    expect(await oidc.tokenIntrospection(otherConfig, tokens.access_token)).toMatchObject({ active: false });
    expect(await oidc.tokenIntrospection(root, tokens.access_token)).toMatchObject({ active: true, scope: 'user.read' });
  });
});
