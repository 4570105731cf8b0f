import * as oauth from 'oauth4webapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerThroughFlow, STRONG_PASSWORD } from '../../src/flows/flow-test-kit.js';
import { createListeningTestApp, type TestApp } from '../helpers/app.js';

/**
 * The second relying-party library (issue 16): oauth4webapi discovers Gatehouse, sends the browser
 * through the authorization endpoint and a login flow, checks the callback (state, `iss`), redeems
 * the code with PKCE, validates the ID token (signature from the JWKS, issuer, audience, nonce,
 * `at_hash`...) and reads userinfo, over real HTTP.
 */
describe('OpenID Connect with oauth4webapi as the relying party (real HTTP)', () => {
  let t: TestApp;
  let base: string;
  let as: oauth.AuthorizationServer;
  let client: oauth.Client;
  let clientAuth: oauth.ClientAuth;
  let project: { id: string; project_secret: string };
  const email = 'o4w@example.com';
  const redirectUri = 'http://127.0.0.1:9/cb';
  const http = { [oauth.allowInsecureRequests]: true };

  beforeAll(async () => {
    const listening = await createListeningTestApp();
    t = listening;
    base = listening.base;
    project = await t.createProject('oauth4webapi');
    await registerThroughFlow(t, project.id, email);
    const created = await fetch(`${base}/projects/${project.id}/oauth_clients`, {
      method: 'POST',
      headers: { authorization: `Bearer ${project.project_secret}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'o4w', redirect_uris: [redirectUri] }),
    });
    const registered = (await created.json()) as { client_id: string; client_secret: string };
    const issuer = new URL(base);
    as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { algorithm: 'oidc', ...http }));
    client = { client_id: registered.client_id };
    clientAuth = oauth.ClientSecretBasic(registered.client_secret);
  });
  afterAll(async () => t.close());

  it('signs in: authorize -> login flow -> resume -> callback, code + PKCE, ID token checked, userinfo', async () => {
    const verifier = oauth.generateRandomCodeVerifier();
    const state = oauth.generateRandomState();
    const nonce = oauth.generateRandomNonce();
    const url = new URL(as.authorization_endpoint!);
    url.search = new URLSearchParams({
      client_id: client.client_id, redirect_uri: redirectUri, response_type: 'code', scope: 'openid email profile', state, nonce,
      code_challenge: await oauth.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256',
    }).toString();

    // The browser: cookies kept, redirects read by hand.
    const cookies = new Map<string, string>();
    const browse = async (target: string, init: RequestInit = {}) => {
      const headers = new Headers(init.headers);
      if (cookies.size > 0) headers.set('cookie', [...cookies].map(([k, v]) => `${k}=${v}`).join('; '));
      const response = await fetch(target, { ...init, headers, redirect: 'manual' });
      for (const line of response.headers.getSetCookie()) {
        const [pair] = line.split(';');
        const at = pair.indexOf('=');
        if (/max-age=0/i.test(line)) cookies.delete(pair.slice(0, at));
        else cookies.set(pair.slice(0, at), pair.slice(at + 1));
      }
      return response;
    };
    const login = new URL((await browse(url.href)).headers.get('location')!);
    expect(login.pathname).toBe('/ui/login');
    const json = { 'content-type': 'application/json' };
    const started = (await (await browse(`${base}/flow`, { method: 'POST', headers: json, body: JSON.stringify({ project_id: project.id, purpose: 'login' }) })).json()) as { id: string };
    const identified = (await (await browse(`${base}/flow/${started.id}/submit`, { method: 'POST', headers: json, body: JSON.stringify({ action: 'continue', fields: { email } }) })).json()) as { id: string };
    const done = (await (await browse(`${base}/flow/${identified.id}/submit`, { method: 'POST', headers: json, body: JSON.stringify({ action: 'sign_in', fields: { password: STRONG_PASSWORD } }) })).json()) as { handoff_token: string };
    const resumed = await browse(login.searchParams.get('resume_uri')!, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ authorization_id: login.searchParams.get('authorization_id')!, handoff_token: done.handoff_token }).toString(),
    });
    const callback = new URL(resumed.headers.get('location')!);

    const params = oauth.validateAuthResponse(as, client, callback, state);
    const response = await oauth.authorizationCodeGrantRequest(as, client, clientAuth, params, redirectUri, verifier, http);
    const tokens = await oauth.processAuthorizationCodeResponse(as, client, response, { expectedNonce: nonce, requireIdToken: true });
    const claims = oauth.getValidatedIdTokenClaims(tokens)!;
    expect(claims).toMatchObject({ iss: base, aud: client.client_id, nonce, acr: 'urn:nist:aal:1', amr: ['pwd'] });
    expect(typeof claims.auth_time).toBe('number');

    const info = await oauth.processUserInfoResponse(as, client, claims.sub, await oauth.userInfoRequest(as, client, tokens.access_token, http));
    expect(info).toMatchObject({ sub: claims.sub, email });

    // A state that does not match is refused by the library before any code is redeemed.
    expect(() => oauth.validateAuthResponse(as, client, callback, 'another-state')).toThrow();
  });
});
