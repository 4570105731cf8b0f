import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, type TestApp } from '../../../test/helpers/app.js';
import { MINUTE, SECOND } from '../../core/clock.js';
import { sha256Hex } from '../../core/crypto.js';
import { basic, oauthErrorBody, postForm } from '../testing.js';
import { answer, DEVICE_GRANT, deviceClient, deviceCodes, poll, registerClient, requestCodes, signedIn, type DeviceClient, type Project } from './device-test-kit.js';

/**
 * RFC 8628 at the endpoints (DESIGN §4.19, issue 36): clients opt in with `grant_types`; the
 * device authorization answer; every token endpoint error (authorization_pending, slow_down with
 * the interval remembered per code, access_denied, expired_token by the injected clock); one token
 * set however many polls race; tokens carry the approving session, with acr/amr and refresh
 * tokens as the client's grant types say.
 */
describe('device authorization grant: endpoints and polling', () => {
  let t: TestApp;
  let project: Project;
  let client: DeviceClient;

  beforeAll(async () => {
    t = await createTestApp();
    project = await t.createProject('Devices');
    client = await deviceClient(t, project);
  });
  afterAll(async () => t.close());

  it('registers clients with grant_types: the default, a device-only client without redirect URIs, and refusals', async () => {
    const web = await registerClient(t, project, { redirect_uris: ['https://app.example.com/cb'] });
    expect(web.json().grant_types).toEqual(['authorization_code', 'refresh_token']);
    expect(client.grant_types).toEqual([DEVICE_GRANT, 'refresh_token']);
    const read = await t.app.inject({ method: 'GET', url: `/projects/${project.id}/oauth_clients/${client.client_id}`, headers: bearer(project.project_secret) });
    expect(read.json()).toMatchObject({ redirect_uris: [], grant_types: [DEVICE_GRANT, 'refresh_token'] });
    const noRedirect = await registerClient(t, project, { grant_types: ['authorization_code'] });
    expect(noRedirect.statusCode).toBe(400);
    expect(noRedirect.json().details.errors[0].path).toBe('body/redirect_uris');
    expect((await registerClient(t, project, { grant_types: ['refresh_token'] })).statusCode).toBe(400);
    expect((await registerClient(t, project, { grant_types: ['implicit'] })).statusCode).toBe(400);
  });

  it('discovery lists the endpoint and the grant type', async () => {
    const metadata = (await t.app.inject({ method: 'GET', url: '/.well-known/openid-configuration' })).json();
    expect(metadata.device_authorization_endpoint).toBe(`${metadata.issuer}/auth/device_authorization`);
    expect(metadata.grant_types_supported).toContain(DEVICE_GRANT);
  });

  it('answers the codes as RFC 8628 §3.2 says, and keeps only a hash of each', async () => {
    const codes = await deviceCodes(t, client, { scope: 'openid email' });
    expect(codes).toMatchObject({ expires_in: 600, interval: 5 });
    expect(codes.user_code).toMatch(/^[BCDFGHJKLMNPQRSTVWXZ]{4}-[BCDFGHJKLMNPQRSTVWXZ]{4}$/);
    expect(codes.device_code).toMatch(/^gh_dc_/);
    expect(codes.verification_uri).toMatch(/\/ui\/device$/);
    expect(codes.verification_uri_complete).toBe(`${codes.verification_uri}?user_code=${codes.user_code}`);
    const rows = await t.container.db.selectFrom('oauth_device_codes').selectAll().where('client_id', '=', client.client_id).execute();
    const row = rows.find((r) => r.device_code_hash === sha256Hex(codes.device_code));
    expect(row).toMatchObject({ status: 'pending', scopes: ['openid', 'email'], interval_seconds: 5 });
    expect(JSON.stringify(rows)).not.toContain(codes.device_code);
    expect(JSON.stringify(rows)).not.toContain(codes.user_code.replace('-', ''));
  });

  it('refuses clients not allowed the grant (400 unauthorized_client), unknown clients (401) and unknown scopes', async () => {
    const web = (await registerClient(t, project, { redirect_uris: ['https://app.example.com/cb'], token_endpoint_auth_method: 'none' })).json();
    const asWeb = await postForm(t, '/auth/device_authorization', { client_id: web.client_id });
    expect(asWeb.statusCode).toBe(400);
    expect(oauthErrorBody(asWeb)).toMatchObject({ error: 'unauthorized_client', code: 'oauth.unauthorized_client' });
    // The project's root client and service keys are not registered clients: neither may use it.
    const root = await postForm(t, '/auth/device_authorization', {}, basic(project.id, project.project_secret));
    expect(oauthErrorBody(root).error).toBe('unauthorized_client');
    const codes = await deviceCodes(t, client);
    const pollAsWeb = await postForm(t, '/auth/token', { grant_type: DEVICE_GRANT, device_code: codes.device_code, client_id: web.client_id });
    expect(pollAsWeb.statusCode).toBe(400);
    expect(oauthErrorBody(pollAsWeb).error).toBe('unauthorized_client');
    const unknown = await postForm(t, '/auth/device_authorization', { client_id: 'oc_00000000000000000000000000' });
    expect(unknown.statusCode).toBe(401);
    expect(oauthErrorBody(unknown).error).toBe('invalid_client');
    const scope = await requestCodes(t, client, { scope: 'openid user.write' });
    expect(oauthErrorBody(scope)).toMatchObject({ error: 'invalid_scope', details: { refused_scopes: ['user.write'] } });
    // A device-only client has no code flow: its authorize requests are refused, never redirected.
    const authorize = await t.app.inject({ method: 'GET', url: `/auth/authorize?client_id=${client.client_id}&redirect_uri=https%3A%2F%2Fapp.example.com%2Fcb&response_type=code` });
    expect(authorize.statusCode).toBe(400);
  });

  it('confidential clients authenticate; the device code is bound to its client', async () => {
    const confidential = await deviceClient(t, project, { confidential: true });
    expect(confidential.client_secret).toMatch(/^gh_cs_/);
    const noSecret = await postForm(t, '/auth/device_authorization', { client_id: confidential.client_id });
    expect(noSecret.statusCode).toBe(401);
    const codes = await deviceCodes(t, confidential);
    expect(oauthErrorBody(await poll(t, confidential, codes.device_code)).error).toBe('authorization_pending');
    expect(oauthErrorBody(await poll(t, client, codes.device_code))).toMatchObject({ error: 'invalid_grant' });
    expect(oauthErrorBody(await poll(t, client, 'gh_dc_unknown')).error).toBe('invalid_grant');
    const missing = await postForm(t, '/auth/token', { grant_type: DEVICE_GRANT, client_id: client.client_id });
    expect(oauthErrorBody(missing)).toMatchObject({ error: 'invalid_request', details: { parameter: 'device_code' } });
  });

  it('authorization_pending, then slow_down when polled faster than the interval (+5 s each time, remembered), then pending again', async () => {
    const codes = await deviceCodes(t, client);
    const first = await poll(t, client, codes.device_code);
    expect(first.statusCode).toBe(400);
    expect(oauthErrorBody(first)).toMatchObject({ error: 'authorization_pending', code: 'oauth.authorization_pending' });
    expect(oauthErrorBody(await poll(t, client, codes.device_code))).toMatchObject({ error: 'slow_down', details: { interval: 10 } });
    t.clock.advance(5 * SECOND);
    expect(oauthErrorBody(await poll(t, client, codes.device_code))).toMatchObject({ error: 'slow_down', details: { interval: 15 } });
    t.clock.advance(15 * SECOND);
    expect(oauthErrorBody(await poll(t, client, codes.device_code))).toMatchObject({ error: 'authorization_pending', details: { interval: 15 } });
    t.clock.advance(14 * SECOND);
    expect(oauthErrorBody(await poll(t, client, codes.device_code)).error).toBe('slow_down');
  });

  it('an approved code yields tokens once: access, refresh and an ID token of the approving session, with acr and amr', async () => {
    const codes = await deviceCodes(t, client, { scope: 'openid email offline_access' });
    const user = await signedIn(t, project, [{ method: 'password' }, { method: 'totp' }]);
    expect((await answer(t, codes.user_code, user.sessionToken)).statusCode).toBe(200);
    const issued = await poll(t, client, codes.device_code);
    expect(issued.statusCode, issued.body).toBe(200);
    expect(issued.headers['cache-control']).toBe('no-store');
    const tokens = issued.json();
    expect(tokens).toMatchObject({ token_type: 'Bearer', scope: 'openid email offline_access', refresh_token: expect.stringMatching(/^gh_rt_/) });
    const claims = decodeJwt(tokens.id_token);
    expect(claims).toMatchObject({ sub: user.userId, aud: client.client_id, sid: user.sessionId, acr: 'urn:nist:aal:2' });
    expect(claims.amr).toEqual(['mfa', 'otp', 'pwd']);
    const introspected = await postForm(t, '/auth/introspect', { token: tokens.access_token }, basic(project.id, project.project_secret));
    expect(introspected.json()).toMatchObject({ active: true, sid: user.sessionId, sub: user.userId, client_id: client.client_id });
    // Used: a second poll gets nothing, and the first tokens stay good.
    t.clock.advance(10 * SECOND);
    expect(oauthErrorBody(await poll(t, client, codes.device_code)).error).toBe('invalid_grant');
    const refreshed = await postForm(t, '/auth/token', { grant_type: 'refresh_token', refresh_token: tokens.refresh_token, client_id: client.client_id });
    expect(refreshed.statusCode, refreshed.body).toBe(200);
    // The tokens die with the session.
    await t.app.inject({ method: 'DELETE', url: `/sessions/${user.sessionId}`, headers: bearer(project.project_secret) });
    expect((await postForm(t, '/auth/introspect', { token: refreshed.json().access_token }, basic(project.id, project.project_secret))).json().active).toBe(false);
  });

  it('20 concurrent polls of an approved code: exactly one token set', async () => {
    const codes = await deviceCodes(t, client);
    const user = await signedIn(t, project);
    await answer(t, codes.user_code, user.sessionToken);
    const answers = await Promise.all(Array.from({ length: 20 }, () => poll(t, client, codes.device_code)));
    const ok = answers.filter((response) => response.statusCode === 200);
    expect(ok).toHaveLength(1);
    for (const refused of answers.filter((response) => response.statusCode !== 200)) expect(oauthErrorBody(refused).error).toBe('invalid_grant');
    const row = await t.container.db.selectFrom('oauth_device_codes').select('id').where('device_code_hash', '=', sha256Hex(codes.device_code)).executeTakeFirstOrThrow();
    const family = await t.container.db.selectFrom('oauth_tokens').select('kind').where('family_id', '=', row.id).execute();
    expect(family.map((token) => token.kind).sort()).toEqual(['access', 'refresh']);
  });

  it('a denied code answers access_denied; an expired one expired_token (injected clock)', async () => {
    const denied = await deviceCodes(t, client);
    const user = await signedIn(t, project);
    expect((await answer(t, denied.user_code, user.sessionToken, 'deny')).statusCode).toBe(200);
    expect(oauthErrorBody(await poll(t, client, denied.device_code))).toMatchObject({ error: 'access_denied', code: 'oauth.access_denied' });

    const late = await deviceCodes(t, client);
    t.clock.advance(10 * MINUTE - SECOND);
    expect(oauthErrorBody(await poll(t, client, late.device_code)).error).toBe('authorization_pending');
    t.clock.advance(SECOND);
    const expired = await poll(t, client, late.device_code);
    expect(expired.statusCode).toBe(400);
    expect(oauthErrorBody(expired)).toMatchObject({ error: 'expired_token', code: 'oauth.expired_token' });
    expect(await t.container.oauth.sweeper.sweep()).toMatchObject({ device_codes: expect.any(Number) });
  });

  it('device authorization requests take the per-IP budget of /auth/authorize (ip_authorizations_per_minute)', async () => {
    const limited = await t.createProject('Limited');
    const rule = await t.app.inject({ method: 'PUT', url: `/projects/${limited.id}/flow_settings`, headers: bearer(limited.project_secret), payload: { risk: { ip_authorizations_per_minute: 2 } } });
    expect(rule.statusCode, rule.body).toBe(200);
    const kiosk = await deviceClient(t, limited);
    const ask = (remoteAddress: string) =>
      t.app.inject({ method: 'POST', url: '/auth/device_authorization', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: `client_id=${kiosk.client_id}`, remoteAddress });
    expect((await ask('203.0.113.5')).statusCode).toBe(200);
    expect((await ask('203.0.113.5')).statusCode).toBe(200);
    const refused = await ask('203.0.113.5');
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toMatch(/^\d+$/);
    expect(oauthErrorBody(refused)).toMatchObject({ error: 'temporarily_unavailable', code: 'auth.rate_limited' });
    expect((await ask('203.0.113.6')).statusCode).toBe(200);
    const stored = await t.container.db.selectFrom('oauth_device_codes').select('id').where('client_id', '=', kiosk.client_id).execute();
    expect(stored).toHaveLength(3);
  });

  it('refresh tokens only when the client names refresh_token; its refresh grant is refused otherwise', async () => {
    const bare = await deviceClient(t, project, { grantTypes: [DEVICE_GRANT] });
    const codes = await deviceCodes(t, bare);
    await answer(t, codes.user_code, (await signedIn(t, project)).sessionToken);
    const tokens = (await poll(t, bare, codes.device_code)).json();
    expect(tokens.access_token).toMatch(/^gh_at_/);
    expect(tokens).not.toHaveProperty('refresh_token');
    const refresh = await postForm(t, '/auth/token', { grant_type: 'refresh_token', refresh_token: 'gh_rt_x', client_id: bare.client_id });
    expect(oauthErrorBody(refresh).error).toBe('unauthorized_client');
  });
});
