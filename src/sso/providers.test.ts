import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, errorBody, type TestApp } from '../../test/helpers/app.js';
import { SECOND } from '../core/clock.js';

/** PUT/GET/DELETE /projects/{id}/sso_providers (DESIGN §4.14): configuration of upstream providers. */
describe('upstream identity provider configuration', () => {
  let t: TestApp;
  let project: Awaited<ReturnType<TestApp['createProject']>>;
  let other: Awaited<ReturnType<TestApp['createProject']>>;
  beforeAll(async () => {
    t = await createTestApp();
    project = await t.createProject();
    other = await t.createProject();
  });
  afterAll(async () => t.close());

  const url = (id: string, projectId = project.id) => `/projects/${projectId}/sso_providers/${id}`;
  const put = (id: string, body: Record<string, unknown>, token = project.project_secret, projectId = project.id) =>
    t.app.inject({ method: 'PUT', url: url(id, projectId), headers: bearer(token), payload: body });
  const get = (id: string, token = project.project_secret, projectId = project.id) => t.app.inject({ method: 'GET', url: url(id, projectId), headers: bearer(token) });
  const refusedField = async (id: string, body: Record<string, unknown>) => {
    const response = await put(id, body);
    expect(response.statusCode, response.body).toBe(400);
    expect(errorBody(response).code).toBe('req.invalid');
    return (errorBody(response).details.errors as Array<{ path: string }>).map((error) => error.path);
  };

  it('creates a generic OIDC provider with one request: defaults filled in, the secret sealed and never shown', async () => {
    const created = await put('acme', { name: 'Acme ID', template: 'oidc', issuer: 'https://id.acme.example', client_id: 'gatehouse', client_secret: 'upstream-secret-1' });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json()).toEqual({
      id: 'acme',
      project_id: project.id,
      name: 'Acme ID',
      template: 'oidc',
      issuer: 'https://id.acme.example',
      client_id: 'gatehouse',
      client_secret_set: true,
      scopes: ['openid', 'email', 'profile'],
      claims: { email: 'email', 'name.given': 'given_name', 'name.family': 'family_name' },
      link: 'none',
      enabled: true,
      // On the public URL (the test configuration's http://localhost), never on the request's Host.
      redirect_uri: 'http://localhost/flow/sso/callback',
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const row = await t.container.db.selectFrom('sso_providers').selectAll().where('id', '=', 'acme').executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain('upstream-secret-1');
    for (const response of [await get('acme'), await t.app.inject({ method: 'GET', url: `/projects/${project.id}/sso_providers`, headers: bearer(project.project_secret) })]) {
      expect(response.statusCode).toBe(200);
      expect(response.body).not.toContain('upstream-secret-1');
    }
    // The flow side opens it.
    expect((await t.container.ssoProviders.enabledProvider(project.id, 'acme'))?.client_secret).toBe('upstream-secret-1');
  });

  it('replaces with 200: created_at stays, an omitted secret stays, null removes it', async () => {
    await put('replaced', { name: 'One', template: 'oidc', issuer: 'https://one.example', client_id: 'c1', client_secret: 'kept-secret' });
    const before = (await get('replaced')).json();
    t.clock.advance(5 * SECOND);
    const replaced = await put('replaced', { name: 'Two', template: 'oidc', issuer: 'https://two.example', client_id: 'c2', enabled: false, link: 'verified_email' });
    expect(replaced.statusCode, replaced.body).toBe(200);
    expect(replaced.json()).toMatchObject({ name: 'Two', issuer: 'https://two.example', client_id: 'c2', client_secret_set: true, enabled: false, link: 'verified_email', created_at: before.created_at });
    expect(replaced.json().updated_at).not.toBe(before.updated_at);
    // Disabled: the flow side does not see it.
    expect(await t.container.ssoProviders.enabledProvider(project.id, 'replaced')).toBeUndefined();
    await put('replaced', { name: 'Two', template: 'oidc', issuer: 'https://two.example', client_id: 'c2' });
    expect((await t.container.ssoProviders.enabledProvider(project.id, 'replaced'))?.client_secret).toBe('kept-secret');
    const cleared = await put('replaced', { name: 'Two', template: 'oidc', issuer: 'https://two.example', client_id: 'c2', client_secret: null });
    expect(cleared.json().client_secret_set).toBe(false);
  });

  it('with If-None-Match: * creates only: of 20 concurrent creates of one id exactly one wins, the others are 412 and change nothing', async () => {
    const create = (i: number) =>
      t.app.inject({ method: 'PUT', url: url('raced'), headers: { ...bearer(project.project_secret), 'if-none-match': '*' }, payload: { name: `Racer ${i}`, template: 'oidc', issuer: 'https://race.example', client_id: `c${i}`, client_secret: `secret-${i}` } });
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => create(i)));
    const statuses = answers.map((answer) => answer.statusCode).sort();
    expect(statuses).toEqual([201, ...Array<number>(19).fill(412)]);
    const winner = answers.find((answer) => answer.statusCode === 201)!.json();
    expect(answers.find((answer) => answer.statusCode === 412)!.json()).toMatchObject({ code: 'req.precondition_failed', details: { provider_id: 'raced' } });
    expect((await get('raced')).json()).toMatchObject({ name: winner.name, client_id: winner.client_id });
    expect((await t.container.ssoProviders.enabledProvider(project.id, 'raced'))?.client_secret).toBe(`secret-${winner.client_id.slice(1)}`);
  });

  it('fills each template in: preset issuers and scopes, a tenant issuer for microsoft, no issuer for github', async () => {
    expect((await put('google', { name: 'Google', template: 'google', client_id: 'g', client_secret: 's' })).json()).toMatchObject({ issuer: 'https://accounts.google.com', scopes: ['openid', 'email', 'profile'] });
    expect((await put('apple', { name: 'Apple', template: 'apple', client_id: 'a', client_secret: 's' })).json()).toMatchObject({ issuer: 'https://appleid.apple.com', scopes: ['openid', 'email', 'name'] });
    expect((await put('gitlab', { name: 'GitLab', template: 'gitlab', client_id: 'l' })).json()).toMatchObject({ issuer: 'https://gitlab.com' });
    expect((await put('gitlab-self', { name: 'Our GitLab', template: 'gitlab', issuer: 'https://git.acme.example', client_id: 'l' })).json()).toMatchObject({ issuer: 'https://git.acme.example' });
    const tenant = 'https://login.microsoftonline.com/0b7c6b7e-1111-4a4a-9999-123456789abc/v2.0';
    expect((await put('entra', { name: 'Entra', template: 'microsoft', issuer: tenant, client_id: 'm', client_secret: 's' })).json()).toMatchObject({ issuer: tenant });
    const github = (await put('github', { name: 'GitHub', template: 'github', client_id: 'h', client_secret: 's' })).json();
    expect(github).toMatchObject({ template: 'github', scopes: ['read:user', 'user:email'] });
    expect(github).not.toHaveProperty('issuer');
    const named = (await put('github-named', { name: 'GitHub', template: 'github', issuer: 'https://github.com/', client_id: 'h', client_secret: 's' })).json();
    expect(named).not.toHaveProperty('issuer');
  });

  it('refuses what a template cannot use, naming the field, and writes nothing', async () => {
    expect(await refusedField('bad-oidc', { name: 'x', template: 'oidc', client_id: 'c' })).toEqual(['body/issuer']);
    expect(await refusedField('bad-ms', { name: 'x', template: 'microsoft', issuer: 'https://login.microsoftonline.com/common', client_id: 'c' })).toEqual(['body/issuer']);
    expect(await refusedField('bad-google', { name: 'x', template: 'google', issuer: 'https://evil.example', client_id: 'c' })).toEqual(['body/issuer']);
    // An issuer names a GitHub Enterprise Server (sso.github.test.ts); it is checked as any issuer.
    expect(await refusedField('bad-github', { name: 'x', template: 'github', issuer: 'http://github.example.com', client_id: 'c', client_secret: 's' })).toEqual(['body/issuer']);
    expect(await refusedField('bad-github', { name: 'x', template: 'github', issuer: 'https://github.example.com/?x=1', client_id: 'c', client_secret: 's' })).toEqual(['body/issuer']);
    expect(await refusedField('bad-github', { name: 'x', template: 'github', client_id: 'c' })).toEqual(['body/client_secret']);
    expect(await refusedField('bad-github', { name: 'x', template: 'github', client_id: 'c', client_secret: null })).toEqual(['body/client_secret']);
    for (const id of ['bad-oidc', 'bad-ms', 'bad-google', 'bad-github']) expect((await get(id)).statusCode).toBe(404);
  });

  it('takes https issuers, http only on loopback, never with credentials, query or fragment', async () => {
    const base = { name: 'x', template: 'oidc', client_id: 'c' };
    for (const issuer of ['http://id.acme.example', 'https://user:pw@id.acme.example', 'https://id.acme.example/?tenant=1', 'https://id.acme.example/#x', 'not a url', 'ftp://id.acme.example']) {
      expect(await refusedField('issuers', { ...base, issuer }), issuer).toEqual(['body/issuer']);
    }
    for (const issuer of ['http://127.0.0.1:4000', 'http://localhost:4000/realm', 'http://[::1]:4000']) {
      expect((await put('loopback', { ...base, issuer })).statusCode, issuer).toBeLessThan(300);
    }
  });

  it('refuses an issuer the outbound policy never reaches, in production: private, loopback and link-local IP hosts, plain http', async () => {
    const production = await createTestApp({ publicUrl: 'https://id.example.com' });
    try {
      const p = await production.createProject();
      const put = (id: string, issuer: string, template = 'oidc') =>
        production.app.inject({ method: 'PUT', url: `/projects/${p.id}/sso_providers/${id}`, headers: bearer(p.project_secret), payload: { name: 'x', template, issuer, client_id: 'c', client_secret: 's' } });
      const cases: Array<[string, RegExp]> = [
        ['https://10.0.0.1', /^is refused by the outbound policy: private_address: 10\.0\.0\.1 is not a public address$/],
        ['https://169.254.169.254/', /private_address: 169\.254\.169\.254/],
        ['https://[::ffff:192.168.1.1]/realm', /private_address: .* is not a public address/],
        ['https://127.0.0.1:4000', /private_address/],
        ['https://[::1]:4000', /private_address/],
        ['https://[fd12::1]', /private_address/],
        ['http://127.0.0.1:4000', /https_required/],
        ['http://localhost:4000/realm', /https_required/],
        ['http://id.acme.example', /must be https/],
      ];
      for (const [issuer, message] of cases) {
        const refused = await put('private', issuer);
        expect(refused.statusCode, issuer).toBe(400);
        expect(errorBody(refused), issuer).toMatchObject({ code: 'req.invalid', details: { errors: [{ path: 'body/issuer', message: expect.stringMatching(message) }] } });
      }
      // A GitHub Enterprise Server and a self-managed GitLab name their issuer too.
      expect((await put('ghe', 'https://192.168.1.10', 'github')).statusCode).toBe(400);
      expect((await put('gl', 'https://10.1.2.3', 'gitlab')).statusCode).toBe(400);
      expect((await production.app.inject({ method: 'GET', url: `/projects/${p.id}/sso_providers/private`, headers: bearer(p.project_secret) })).statusCode).toBe(404);
      // Names are resolved only when a flow calls the provider (a private answer is refused then); public addresses are fine.
      for (const issuer of ['https://id.acme.example', 'https://sso.internal.acme.example', 'https://93.184.215.14']) {
        expect((await put('public', issuer)).statusCode, issuer).toBeLessThan(300);
      }
      for (const issuer of ['https://[::1', 'https://%00', `https://${'a'.repeat(2100)}.example`, 'https://0x7f.1', 'https://2130706433', 'https://[::]']) {
        const response = await put('odd', issuer);
        expect(response.statusCode, issuer).toBe(400);
        expect(errorBody(response).code).toBe('req.invalid');
      }
    } finally {
      await production.close();
    }
  });

  it('takes a private issuer with the operator opt-in; on a development machine loopback only', async () => {
    const optedIn = await createTestApp({ publicUrl: 'https://id.example.com', outboundAllowPrivate: true });
    try {
      const p = await optedIn.createProject();
      for (const issuer of ['https://10.0.0.1', 'https://169.254.169.254', 'http://127.0.0.1:4000', 'https://[::ffff:192.168.1.1]']) {
        const response = await optedIn.app.inject({ method: 'PUT', url: `/projects/${p.id}/sso_providers/opt-in`, headers: bearer(p.project_secret), payload: { name: 'x', template: 'oidc', issuer, client_id: 'c' } });
        expect(response.statusCode, issuer).toBeLessThan(300);
      }
    } finally {
      await optedIn.close();
    }
    // This suite's app has a loopback public URL: http on loopback is taken (above), the private network is not.
    const base = { name: 'x', template: 'oidc', client_id: 'c' };
    expect(errorBody(await put('dev-private', { ...base, issuer: 'https://10.0.0.1' })).details.errors).toEqual([
      { path: 'body/issuer', message: 'is refused by the outbound policy: private_address: 10.0.0.1 is not a public address' },
    ]);
  });

  it('refuses scopes without openid, malformed scopes and claims that are no property paths, naming each', async () => {
    const base = { name: 'x', template: 'oidc', issuer: 'https://id.acme.example', client_id: 'c' };
    expect(await refusedField('scopes', { ...base, scopes: ['email'] })).toEqual(['body/scopes']);
    expect(await refusedField('scopes', { ...base, scopes: ['openid', 'bad scope'] })).toEqual(['body/scopes/1']);
    expect(await refusedField('claims', { ...base, claims: { 'name..given': 'given_name' } })).toEqual(['body/claims/name..given']);
    const mapped = await put('claims', { ...base, claims: { email: 'mail', 'name.given': 'first_name' }, scopes: ['openid', 'openid', 'email'] });
    expect(mapped.json()).toMatchObject({ claims: { email: 'mail', 'name.given': 'first_name' }, scopes: ['openid', 'email'] });
  });

  it('answers malformed ids and bodies with 400, and another project with 404', async () => {
    for (const id of ['Acme', '1acme', 'a'.repeat(65), 'ac_me']) {
      const response = await put(id, { name: 'x', template: 'oidc', issuer: 'https://id.acme.example', client_id: 'c' });
      expect(response.statusCode, id).toBe(400);
    }
    for (const body of [{ name: 'x', template: 'saml', client_id: 'c' }, { name: 'x', template: 'oidc', issuer: 'https://a.example', client_id: 'c', extra: 1 }, { template: 'oidc' }]) {
      expect((await put('shape', body)).statusCode, JSON.stringify(body)).toBe(400);
    }
    await put('mine', { name: 'Mine', template: 'oidc', issuer: 'https://id.acme.example', client_id: 'c', client_secret: 'mine-secret' });
    // Another project's secret reaches neither this project's providers nor their secret.
    expect((await get('mine', other.project_secret)).statusCode).toBe(404);
    expect((await get('mine', other.project_secret, other.id)).statusCode).toBe(404);
    expect(errorBody(await get('mine', other.project_secret, other.id)).code).toBe('sso.not_found');
    const overwrite = await put('mine', { name: 'Theirs', template: 'oidc', issuer: 'https://evil.example', client_id: 'c' }, other.project_secret);
    expect(overwrite.statusCode).toBe(404);
    const deleted = await t.app.inject({ method: 'DELETE', url: url('mine', other.id), headers: bearer(other.project_secret) });
    expect(deleted.statusCode).toBe(204);
    expect((await get('mine')).json()).toMatchObject({ name: 'Mine', issuer: 'https://id.acme.example' });
  });

  it('shows the callback on GATEHOUSE_PUBLIC_URL when it is set', async () => {
    const hosted = await createTestApp({ publicUrl: 'https://id.example.com' });
    try {
      const own = await hosted.createProject();
      const response = await hosted.app.inject({ method: 'PUT', url: `/projects/${own.id}/sso_providers/acme`, headers: bearer(own.project_secret), payload: { name: 'Acme', template: 'google', client_id: 'c' } });
      expect(response.json().redirect_uri).toBe('https://id.example.com/flow/sso/callback');
    } finally {
      await hosted.close();
    }
  });

  it('deletes idempotently and lists with cursor pages', async () => {
    const many = await t.createProject();
    for (const id of ['p-a', 'p-b', 'p-c']) {
      await put(id, { name: id, template: 'oidc', issuer: 'https://id.acme.example', client_id: 'c' }, many.project_secret, many.id);
      t.clock.advance(SECOND);
    }
    const list = (query: string) => t.app.inject({ method: 'GET', url: `/projects/${many.id}/sso_providers${query}`, headers: bearer(many.project_secret) });
    const first = (await list('?limit=2')).json();
    expect(first.sso_providers.map((p: { id: string }) => p.id)).toEqual(['p-a', 'p-b']);
    const second = (await list(`?limit=2&page_token=${first.next_page_token}`)).json();
    expect(second.sso_providers.map((p: { id: string }) => p.id)).toEqual(['p-c']);
    expect(second).not.toHaveProperty('next_page_token');
    expect((await list('?page_token=tampered')).statusCode).toBe(400);
    for (let i = 0; i < 2; i++) {
      expect((await t.app.inject({ method: 'DELETE', url: url('p-b', many.id), headers: bearer(many.project_secret) })).statusCode).toBe(204);
    }
    expect((await list('')).json().sso_providers.map((p: { id: string }) => p.id)).toEqual(['p-a', 'p-c']);
  });
});
