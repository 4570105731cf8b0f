import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, errorBody, type TestApp } from '../../test/helpers/app.js';
import { basic, clientToken, oauthErrorBody, postForm, serviceKey } from './testing.js';

describe('OIDC client registration per project', () => {
  let t: TestApp;
  let project: Awaited<ReturnType<TestApp['createProject']>>;
  beforeAll(async () => {
    t = await createTestApp();
    project = await t.createProject();
  });
  afterAll(async () => t.close());

  const register = (body: Record<string, unknown>, token = project.project_secret, projectId = project.id) =>
    t.app.inject({ method: 'POST', url: `/projects/${projectId}/oauth_clients`, headers: bearer(token), payload: body });

  it('registers a confidential client: the secret is shown once and stored as a hash', async () => {
    const response = await register({ name: 'Web app', redirect_uris: ['https://app.example.com/cb', 'http://localhost:3000/cb'] });
    expect(response.statusCode, response.body).toBe(201);
    const client = response.json();
    expect(client).toMatchObject({
      client_id: expect.stringMatching(/^oc_/),
      client_secret: expect.stringMatching(/^gh_cs_/),
      project_id: project.id,
      token_endpoint_auth_method: 'client_secret_basic',
      redirect_uris: ['https://app.example.com/cb', 'http://localhost:3000/cb'],
    });
    const row = await t.container.db.selectFrom('oauth_clients').selectAll().where('id', '=', client.client_id).executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain(client.client_secret);
    const read = await t.app.inject({ method: 'GET', url: `/projects/${project.id}/oauth_clients/${client.client_id}`, headers: bearer(project.project_secret) });
    expect(read.statusCode).toBe(200);
    expect(read.json()).not.toHaveProperty('client_secret');
    expect(read.body).not.toContain(client.client_secret);
    const list = await t.app.inject({ method: 'GET', url: `/projects/${project.id}/oauth_clients`, headers: bearer(project.project_secret) });
    expect(list.json().oauth_clients.map((c: { client_id: string }) => c.client_id)).toContain(client.client_id);
    // The client authenticates at the introspection endpoint with its secret.
    const introspect = await postForm(t, '/auth/introspect', { token: 'gh_at_x' }, basic(client.client_id, client.client_secret));
    expect(introspect.json()).toEqual({ active: false });
    expect((await postForm(t, '/auth/introspect', { token: 'x' }, basic(client.client_id, 'gh_cs_wrong'))).statusCode).toBe(401);
  });

  it('registers a public client (PKCE only): no secret, and no client_credentials or token exchange', async () => {
    const client = (await register({ redirect_uris: ['com.example.app:/oauth'], token_endpoint_auth_method: 'none' })).json();
    expect(client.client_secret).toBeUndefined();
    const cc = await postForm(t, '/auth/token', { grant_type: 'client_credentials', client_id: client.client_id });
    expect(oauthErrorBody(cc)).toMatchObject({ error: 'unauthorized_client' });
    const withSecret = await postForm(t, '/auth/token', { grant_type: 'client_credentials', client_id: client.client_id, client_secret: 'anything' });
    expect(withSecret.statusCode).toBe(401);
    const exchange = await postForm(t, '/auth/token', { grant_type: 'urn:ietf:params:oauth:grant-type:token-exchange', client_id: client.client_id });
    expect(oauthErrorBody(exchange).error).toBe('unauthorized_client');
  });

  it('refuses redirect and login URIs that cannot be matched safely', async () => {
    const refused = ['/relative', 'http://app.example.com/cb', 'https://app.example.com/cb#frag', 'javascript:alert(1)', 'data:text/html,x', 'not a uri'];
    // Exact allow-lists (DESIGN §4.6a): no wildcard, no userinfo, no fragment, not even an empty one.
    refused.push('https://*.example.com/', 'https://%2A.example.com/cb', 'https://app.example.com/*', 'https://user:pw@app.example.com/cb', 'https://user@app.example.com/cb', 'https://app.example.com/cb#', 'com.example.app:/cb#x');
    for (const uri of refused) {
      const response = await register({ redirect_uris: [uri] });
      expect(response.statusCode, uri).toBe(400);
      expect(errorBody(response)).toMatchObject({ code: 'req.invalid', details: { errors: [{ path: 'body/redirect_uris/0' }] } });
    }
    const login = await register({ redirect_uris: ['https://app.example.com/cb'], login_uri: 'http://evil.example/login' });
    expect(errorBody(login).details.errors).toEqual([expect.objectContaining({ path: 'body/login_uri' })]);
    expect((await register({ redirect_uris: [] })).statusCode).toBe(400);
    expect((await register({ redirect_uris: ['https://a.example/cb'], extra: true })).statusCode).toBe(400);
  });

  it('needs project.write and hides other projects (404)', async () => {
    const key = await serviceKey(t, project, ['team.read']);
    const token = await clientToken(t, key.client_id, key.client_secret);
    expect((await register({ redirect_uris: ['https://a.example/cb'] }, token)).statusCode).toBe(403);
    const other = await t.createProject();
    const mine = (await register({ redirect_uris: ['https://a.example/cb'] })).json();
    expect((await register({ redirect_uris: ['https://a.example/cb'] }, other.project_secret)).statusCode).toBe(404);
    const read = await t.app.inject({ method: 'GET', url: `/projects/${other.id}/oauth_clients/${mine.client_id}`, headers: bearer(other.project_secret) });
    expect(errorBody(read).code).toBe('client.not_found');
    // Deleting through another project leaves the client alone; the owner's delete is idempotent.
    await t.app.inject({ method: 'DELETE', url: `/projects/${other.id}/oauth_clients/${mine.client_id}`, headers: bearer(other.project_secret) });
    expect((await t.app.inject({ method: 'GET', url: `/projects/${project.id}/oauth_clients/${mine.client_id}`, headers: bearer(project.project_secret) })).statusCode).toBe(200);
    for (let i = 0; i < 2; i++) {
      const deleted = await t.app.inject({ method: 'DELETE', url: `/projects/${project.id}/oauth_clients/${mine.client_id}`, headers: bearer(project.project_secret) });
      expect(deleted.statusCode).toBe(204);
    }
    expect((await t.app.inject({ method: 'GET', url: `/projects/${project.id}/oauth_clients/${mine.client_id}`, headers: bearer(project.project_secret) })).statusCode).toBe(404);
  });
});
