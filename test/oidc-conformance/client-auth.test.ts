import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basic, oauthErrorBody, postForm } from '../../src/oauth/testing.js';
import { bearer, createTestApp, type TestApp } from '../helpers/app.js';

/** RFC 7591 §2 `token_endpoint_auth_method`: a client authenticates the one way it registered. */
describe('OIDC conformance: token_endpoint_auth_method is enforced per client', () => {
  let t: TestApp;
  let project: { id: string; project_secret: string };
  beforeAll(async () => {
    t = await createTestApp();
    project = await t.createProject();
  });
  afterAll(async () => t.close());

  const register = async (method: string) =>
    (await t.app.inject({ method: 'POST', url: `/projects/${project.id}/oauth_clients`, headers: bearer(project.project_secret), payload: { redirect_uris: ['https://rp.example/cb'], token_endpoint_auth_method: method } })).json();
  /** A token request that gets past client authentication fails on the grant instead. */
  const tokenRequest = (form: Record<string, string>, headers: Record<string, string> = {}) =>
    postForm(t, '/auth/token', { grant_type: 'authorization_code', code: 'gh_ac_unknown', redirect_uri: 'https://rp.example/cb', code_verifier: 'v'.repeat(43), ...form }, headers);

  it('oidcc-client-secret-basic: Basic works, the same secret in the form is refused', async () => {
    const client = await register('client_secret_basic');
    expect(oauthErrorBody(await tokenRequest({}, basic(client.client_id, client.client_secret))).error).toBe('invalid_grant');
    const posted = await tokenRequest({ client_id: client.client_id, client_secret: client.client_secret });
    expect(posted.statusCode).toBe(401);
    expect(oauthErrorBody(posted).error).toBe('invalid_client');
  });

  it('oidcc-client-secret-post: the form works, Basic is refused', async () => {
    const client = await register('client_secret_post');
    expect(oauthErrorBody(await tokenRequest({ client_id: client.client_id, client_secret: client.client_secret })).error).toBe('invalid_grant');
    const viaBasic = await tokenRequest({}, basic(client.client_id, client.client_secret));
    expect(viaBasic.statusCode).toBe(401);
    expect(oauthErrorBody(viaBasic).error).toBe('invalid_client');
  });

  it('a public client (none) sends no secret; with one it is refused', async () => {
    const client = await register('none');
    expect(oauthErrorBody(await tokenRequest({ client_id: client.client_id })).error).toBe('invalid_grant');
    expect((await tokenRequest({ client_id: client.client_id, client_secret: 'anything' })).statusCode).toBe(401);
  });
});
