import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, errorBody, type TestApp } from '../../test/helpers/app.js';
import { MINUTE } from '../core/clock.js';
import { basic, clientToken, FORM, oauthErrorBody, postForm, serviceKey } from './testing.js';

describe('POST /auth/token grant_type=client_credentials', () => {
  let t: TestApp;
  let project: Awaited<ReturnType<TestApp['createProject']>>;
  let teamId: string;
  beforeAll(async () => {
    t = await createTestApp();
    project = await t.createProject();
    const team = await t.app.inject({ method: 'POST', url: `/teams?project_id=${project.id}`, headers: bearer(project.project_secret), payload: { name: 'Ops' } });
    teamId = team.json().id;
  });
  afterAll(async () => t.close());

  const readTeam = (token: string, id = teamId) => t.app.inject({ method: 'GET', url: `/teams/${id}`, headers: bearer(token) });
  const createTeam = (token: string, name: string) =>
    t.app.inject({ method: 'POST', url: `/teams?project_id=${project.id}`, headers: bearer(token), payload: { name } });

  it('issues a short-lived token to a service key (Basic) that management endpoints accept', async () => {
    const key = await serviceKey(t, project, ['team.read', 'team.write']);
    const response = await postForm(t, '/auth/token', { grant_type: 'client_credentials' }, basic(key.client_id, key.client_secret));
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    const body = response.json();
    expect(body).toEqual({ access_token: expect.stringMatching(/^gh_at_[\w-]{43}$/), token_type: 'Bearer', expires_in: 300, scope: 'team.read team.write' });
    expect((await readTeam(body.access_token)).statusCode).toBe(200);
    expect((await createTeam(body.access_token, 'Made by token')).statusCode).toBe(201);
  });

  it('accepts client_id and client_secret in the form too', async () => {
    const key = await serviceKey(t, project, ['team.read']);
    const response = await postForm(t, '/auth/token', { grant_type: 'client_credentials', client_id: key.client_id, client_secret: key.client_secret });
    expect(response.statusCode).toBe(200);
    expect(response.json().scope).toBe('team.read');
  });

  it('narrows to the requested scopes: read works, write is 403', async () => {
    const key = await serviceKey(t, project, ['team.read', 'team.write']);
    const token = await clientToken(t, key.client_id, key.client_secret, 'team.read');
    expect((await readTeam(token)).statusCode).toBe(200);
    const write = await createTeam(token, 'Not allowed');
    expect(write.statusCode).toBe(403);
    expect(errorBody(write)).toMatchObject({ code: 'auth.forbidden', details: { required_scope: 'team.write' } });
  });

  it('refuses scopes the key does not hold with invalid_scope', async () => {
    const key = await serviceKey(t, project, ['team.read']);
    for (const scope of ['team.write', 'team.read user.read', 'openid', 'bad"scope']) {
      const response = await postForm(t, '/auth/token', { grant_type: 'client_credentials', scope }, basic(key.client_id, key.client_secret));
      expect(response.statusCode).toBe(400);
      expect(oauthErrorBody(response)).toMatchObject({ error: 'invalid_scope', code: 'oauth.invalid_scope' });
    }
  });

  it('lets the root client (project id + project secret) get every project scope', async () => {
    const token = await clientToken(t, project.id, project.project_secret, 'project.write team.read');
    const read = await t.app.inject({ method: 'GET', url: `/projects/${project.id}`, headers: bearer(token) });
    expect(read.statusCode).toBe(200);
    expect((await readTeam(token)).statusCode).toBe(200);
    expect((await createTeam(token, 'Root narrowed')).statusCode).toBe(403);
    const all = (await postForm(t, '/auth/token', { grant_type: 'client_credentials' }, basic(project.id, project.project_secret))).json();
    expect(all.scope.split(' ')).toContain('session.write');
    // The secret of one project is no client secret for another project's id.
    const other = await t.createProject();
    const mixed = await postForm(t, '/auth/token', { grant_type: 'client_credentials' }, basic(other.id, project.project_secret));
    expect(mixed.statusCode).toBe(401);
  });

  it("hides another project's resources from the token (404)", async () => {
    const other = await t.createProject();
    const key = await serviceKey(t, other, ['team.read', 'project.write']);
    const token = await clientToken(t, key.client_id, key.client_secret);
    const team = await readTeam(token);
    expect(team.statusCode).toBe(404);
    expect(errorBody(team).code).toBe('team.not_found');
    const proj = await t.app.inject({ method: 'GET', url: `/projects/${project.id}`, headers: bearer(token) });
    expect(proj.statusCode).toBe(404);
    expect(errorBody(proj).code).toBe('proj.not_found');
  });

  it('expires after five minutes of the injected clock', async () => {
    const key = await serviceKey(t, project, ['team.read']);
    const token = await clientToken(t, key.client_id, key.client_secret);
    t.clock.advance(5 * MINUTE - 1000);
    expect((await readTeam(token)).statusCode).toBe(200);
    t.clock.advance(1000);
    const expired = await readTeam(token);
    expect(expired.statusCode).toBe(401);
    expect(errorBody(expired).code).toBe('auth.unauthorized');
  });

  it('stops accepting the tokens of a deleted service key at once', async () => {
    const key = await serviceKey(t, project, ['team.read']);
    const other = await serviceKey(t, project, ['team.read']);
    const token = await clientToken(t, key.client_id, key.client_secret);
    const survivor = await clientToken(t, other.client_id, other.client_secret);
    expect((await readTeam(token)).statusCode).toBe(200);
    const deleted = await t.app.inject({ method: 'DELETE', url: `/projects/${project.id}/service_keys/${key.client_id}`, headers: bearer(project.project_secret) });
    expect(deleted.statusCode).toBe(204);
    const refused = await readTeam(token);
    expect(refused.statusCode).toBe(401);
    expect(errorBody(refused).code).toBe('auth.unauthorized');
    expect((await readTeam(survivor)).statusCode).toBe(200);
  });

  it('stores only a hash of the token', async () => {
    const key = await serviceKey(t, project, ['team.read']);
    const token = await clientToken(t, key.client_id, key.client_secret);
    const rows = await t.container.db.selectFrom('oauth_tokens').selectAll().where('client_id', '=', key.client_id).execute();
    expect(rows).toHaveLength(1);
    expect(JSON.stringify(rows)).not.toContain(token);
    expect(rows[0]).toMatchObject({ kind: 'access', project_id: project.id, user_id: null, session_id: null, scopes: ['team.read'] });
  });

  it('answers invalid_client with 401 and a Basic challenge for bad credentials', async () => {
    const key = await serviceKey(t, project, ['team.read']);
    const cases = [
      basic(key.client_id, 'gh_sk_wrong'),
      basic('key_doesnotexist000000000000', key.client_secret),
      basic(key.client_id, ''),
      { authorization: 'Basic !!!' },
      { authorization: 'Basic bm9jb2xvbg==' },
    ];
    for (const headers of cases) {
      const response = await postForm(t, '/auth/token', { grant_type: 'client_credentials' }, headers);
      expect(response.statusCode).toBe(401);
      expect(response.headers['www-authenticate']).toMatch(/^Basic/);
      expect(oauthErrorBody(response)).toMatchObject({ error: 'invalid_client', code: 'oauth.invalid_client' });
    }
    const none = await postForm(t, '/auth/token', { grant_type: 'client_credentials' });
    expect(oauthErrorBody(none).error).toBe('invalid_client');
  });

  it('reads Basic credentials in canonical base64 only: texts the lenient decoder reads as the same credentials answer as garbage does', async () => {
    const key = await serviceKey(t, project, ['team.read']);
    const good = basic(key.client_id, key.client_secret).authorization.slice('Basic '.length);
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
    const data = good.replace(/=+$/, '');
    const twin = data.slice(0, -1) + alphabet[alphabet.indexOf(data.at(-1)!) ^ 1] + good.slice(data.length);
    const variants = [data, `${good}A`, `${good}====`, twin].filter((text) => text !== good && Buffer.from(text, 'base64').equals(Buffer.from(good, 'base64')));
    expect(variants.length).toBeGreaterThanOrEqual(2);
    for (const text of variants) {
      const response = await postForm(t, '/auth/token', { grant_type: 'client_credentials' }, { authorization: `Basic ${text}` });
      expect(response.statusCode, text).toBe(401);
      expect(oauthErrorBody(response)).toMatchObject({ error: 'invalid_client', code: 'oauth.invalid_client' });
    }
    expect((await postForm(t, '/auth/token', { grant_type: 'client_credentials' }, { authorization: `Basic ${good}` })).statusCode).toBe(200);
  });

  it('answers the RFC 6749 §5.2 errors for malformed requests, never a 500', async () => {
    const key = await serviceKey(t, project, ['team.read']);
    const auth = basic(key.client_id, key.client_secret);
    const expectError = async (response: Awaited<ReturnType<typeof postForm>>, error: string, status = 400) => {
      expect(response.statusCode, response.body).toBe(status);
      expect(oauthErrorBody(response).error).toBe(error);
    };
    await expectError(await postForm(t, '/auth/token', {}, auth), 'invalid_request');
    await expectError(await postForm(t, '/auth/token', { grant_type: 'password' }, auth), 'unsupported_grant_type');
    await expectError(await postForm(t, '/auth/token', { grant_type: 'toString' }, auth), 'unsupported_grant_type');
    await expectError(await postForm(t, '/auth/token', { grant_type: '__proto__' }, auth), 'unsupported_grant_type');
    await expectError(
      await postForm(t, '/auth/token', { grant_type: 'client_credentials', client_secret: key.client_secret }, auth),
      'invalid_request',
    );
    const repeated = await t.app.inject({
      method: 'POST', url: '/auth/token', headers: { ...FORM, ...auth }, payload: 'grant_type=client_credentials&grant_type=client_credentials',
    });
    await expectError(repeated, 'invalid_request');
    const json = await t.app.inject({ method: 'POST', url: '/auth/token', headers: auth, payload: { grant_type: 'client_credentials' } });
    await expectError(json, 'invalid_request');
    const huge = await t.app.inject({ method: 'POST', url: '/auth/token', headers: { ...FORM, ...auth }, payload: `grant_type=${'x'.repeat(70_000)}` });
    expect(huge.statusCode).toBe(413);
    expect(oauthErrorBody(huge).code).toBe('req.too_large');
    const garbage = await t.app.inject({ method: 'POST', url: '/auth/token', headers: { ...FORM, ...auth }, payload: '%%%&&&=%ZZ' });
    expect(garbage.statusCode).toBeLessThan(500);
  });

  it('no longer accepts tokens of a deleted project (its rows cascade)', async () => {
    const doomed = await t.createProject();
    const key = await serviceKey(t, doomed, ['project.write']);
    const token = await clientToken(t, key.client_id, key.client_secret);
    await t.container.db.deleteFrom('projects').where('id', '=', doomed.id).execute();
    const response = await t.app.inject({ method: 'GET', url: `/projects/${doomed.id}`, headers: bearer(token) });
    expect(response.statusCode).toBe(401);
  });
});

describe('hostile values at the /auth endpoints', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t.close());

  it('answers NUL bytes and odd encodings with 4xx, never 500', async () => {
    const project = await t.createProject();
    const key = await serviceKey(t, project, ['team.read']);
    const forms: Array<Record<string, string>> = [
      { grant_type: 'client_credentials', client_id: 'key_\u0000', client_secret: 'x' },
      { grant_type: 'client_credentials', client_id: key.client_id, client_secret: '\u0000' },
      { grant_type: 'refresh_token', refresh_token: 'gh_rt_\u0000', client_id: project.id, client_secret: project.project_secret },
      { grant_type: 'authorization_code', code: 'gh_ac_\u0000', redirect_uri: 'x', code_verifier: 'y', client_id: project.id, client_secret: project.project_secret },
    ];
    for (const form of forms) {
      const response = await postForm(t, '/auth/token', form);
      expect(response.statusCode, JSON.stringify(form)).toBeLessThan(500);
      oauthErrorBody(response);
    }
    const basicNul = await postForm(t, '/auth/token', { grant_type: 'client_credentials' }, basic('oc_\u0000', 'x'));
    expect(basicNul.statusCode).toBeLessThan(500);
    const authorize = await t.app.inject({ method: 'GET', url: '/auth/authorize?client_id=oc_%00&state=%00' });
    expect(authorize.statusCode).toBeLessThan(500);
    const resume = await postForm(t, '/auth/authorize/resume', { authorization_id: 'authz_\u0000', handoff_token: '\u0000' });
    expect(resume.statusCode).toBeLessThan(500);
    const introspect = await postForm(t, '/auth/introspect', { token: 'gh_at_\u0000' }, basic(project.id, project.project_secret));
    expect(introspect.statusCode).toBe(200);
  });
});
