import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, type TestApp } from '../../test/helpers/app.js';
import { consoleBrowser, type ConsoleBrowser } from './console-test-kit.js';

const ORIGIN = 'http://localhost';

/** The console's OAuth clients and SSO providers pages, end to end through the management API (inject). */
describe('console: OAuth clients and SSO providers', () => {
  let t: TestApp;
  let admin: ConsoleBrowser;
  let shop: Awaited<ReturnType<TestApp['createProject']>>;
  beforeAll(async () => {
    t = await createTestApp({ publicUrl: ORIGIN });
    admin = await consoleBrowser(t, [{ role: 'instance_admin' }], ORIGIN);
    shop = await t.createProject('Shop');
  });
  afterAll(async () => t.close());

  /** What the management API itself says, with the project's own secret. */
  const apiGet = async (url: string) => t.app.inject({ method: 'GET', url, headers: bearer(shop.project_secret) });
  const clientsOf = async (projectId = shop.id) => (await t.app.inject({ method: 'GET', url: `/projects/${projectId}/oauth_clients`, headers: bearer(t.adminToken) })).json().oauth_clients as Array<Record<string, unknown>>;

  it('registers an OAuth client: a 400 at the form with its field paths, then the secret shown once and never on the list', async () => {
    const page = `/console/projects/${shop.id}/oauth_clients`;
    const empty = await admin.get(page);
    expect(empty.statusCode).toBe(200);
    expect(empty.body).toContain('No OAuth client yet.');

    const refused = await admin.post(page, { name: 'Shop web', redirect_uris: 'https://shop.example/cb\nnot a uri', token_endpoint_auth_method: 'client_secret_post', backchannel_logout_uri: 'ftp://shop.example/bc' });
    expect(refused.statusCode).toBe(400);
    expect(refused.body).toContain('role="alert"');
    expect(refused.body).toContain('body/redirect_uris/1');
    expect(refused.body).toContain('body/backchannel_logout_uri');
    // The form comes back as typed.
    expect(refused.body).toContain('not a uri');
    expect(refused.body).toMatch(/<option value="client_secret_post" selected>/);
    expect(await clientsOf()).toEqual([]);

    const created = await admin.post(page, {
      name: 'Shop web',
      redirect_uris: ' https://shop.example/cb \r\n\r\nhttps://shop.example/cb2',
      token_endpoint_auth_method: 'client_secret_post',
      login_uri: '',
      post_logout_redirect_uris: 'https://shop.example/',
      backchannel_logout_uri: 'https://shop.example/bc',
    });
    expect(created.statusCode, created.body.slice(0, 500)).toBe(201);
    const secret = /gh_cs_[A-Za-z0-9_-]+/.exec(created.body)?.[0];
    expect(secret).toBeDefined();
    const [client] = await clientsOf();
    expect(client).toMatchObject({ name: 'Shop web', redirect_uris: ['https://shop.example/cb', 'https://shop.example/cb2'], token_endpoint_auth_method: 'client_secret_post', post_logout_redirect_uris: ['https://shop.example/'], backchannel_logout_uri: 'https://shop.example/bc' });
    expect(client).not.toHaveProperty('login_uri');
    expect(created.body).toContain(String(client.client_id));
    // The secret shown is the client's real one.
    expect(await t.container.oauth.oidcClients.verify(String(client.client_id), secret, 'client_secret_post')).toBeDefined();

    const listed = await admin.get(page);
    expect(listed.body).toContain(String(client.client_id));
    expect(listed.body).toContain('https://shop.example/cb2');
    expect(listed.body).not.toContain(secret!);
    expect(listed.body).not.toContain('gh_cs_');

    // A public client has no secret: the usual redirect with a notice.
    const spa = await admin.post(page, { name: 'Shop SPA', redirect_uris: 'https://spa.shop.example/cb', token_endpoint_auth_method: 'none' });
    expect(spa.statusCode).toBe(303);
    expect(spa.headers.location).toBe(`${page}?notice=created`);
    expect((await clientsOf()).find((c) => c.name === 'Shop SPA')).toMatchObject({ token_endpoint_auth_method: 'none', redirect_uris: ['https://spa.shop.example/cb'] });
    expect((await admin.get(String(spa.headers.location))).body).toContain('Shop SPA');
  });

  it('chooses a client\'s grant types: the default ticked, a device-only client without redirect URIs, the API\'s 400 at the form', async () => {
    const page = `/console/projects/${shop.id}/oauth_clients`;
    const form = (await admin.get(page)).body;
    expect(form).toContain('<input type="hidden" name="grant_types_shown" value="1">');
    expect(form).toMatch(/name="grant_types" value="authorization_code" checked>/);
    expect(form).toMatch(/name="grant_types" value="refresh_token" checked>/);
    expect(form).toMatch(/name="grant_types" value="urn:ietf:params:oauth:grant-type:device_code">/);
    const device = 'urn:ietf:params:oauth:grant-type:device_code';

    // Nothing ticked is the API's 400 (minItems), at the form; a browser-sign-in grant without a redirect URI too.
    const none = await admin.post(page, { name: 'TV', redirect_uris: '', token_endpoint_auth_method: 'none', grant_types_shown: '1' });
    expect(none.statusCode).toBe(400);
    expect(none.body).toContain('<code>body/grant_types</code>');
    const noRedirect = await admin.post(page, { name: 'TV', redirect_uris: '', token_endpoint_auth_method: 'none', grant_types_shown: '1', grant_types: ['authorization_code', device] });
    expect(noRedirect.statusCode).toBe(400);
    expect(noRedirect.body).toContain('role="alert"');
    // What was ticked stays ticked.
    expect(noRedirect.body).toMatch(/name="grant_types" value="authorization_code" checked>/);
    expect(noRedirect.body).toMatch(/name="grant_types" value="refresh_token">/);
    expect(noRedirect.body).toMatch(/name="grant_types" value="urn:ietf:params:oauth:grant-type:device_code" checked>/);
    expect((await clientsOf()).map((c) => c.name)).not.toContain('TV');

    const tv = await admin.post(page, { name: 'TV', redirect_uris: '', token_endpoint_auth_method: 'none', grant_types_shown: '1', grant_types: device });
    expect(tv.statusCode, tv.body.slice(0, 500)).toBe(303);
    const stored = (await clientsOf()).find((c) => c.name === 'TV')!;
    expect(stored).toMatchObject({ grant_types: [device], redirect_uris: [], token_endpoint_auth_method: 'none' });
    // The device authorization endpoint takes it: the grant is real, not a label.
    const authorization = await t.app.inject({ method: 'POST', url: '/auth/device_authorization', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: `client_id=${String(stored.client_id)}` });
    expect(authorization.statusCode, authorization.body).toBe(200);
    expect((await admin.get(page)).body).toContain(`<code>${device}</code>`);
  });

  it('deletes an OAuth client only with the confirmation ticked, and refuses a cross-site post', async () => {
    const page = `/console/projects/${shop.id}/oauth_clients`;
    const client = (await clientsOf()).find((c) => c.name === 'Shop web')!;
    const action = `${page}/${String(client.client_id)}/delete`;
    const unconfirmed = await admin.post(action, {});
    expect(unconfirmed.headers.location).toBe(`${page}?notice=not_confirmed`);
    expect((await clientsOf()).map((c) => c.client_id)).toContain(client.client_id);
    const crossSite = await t.app.inject({ method: 'POST', url: action, headers: { cookie: admin.cookie, origin: 'https://evil.example', 'content-type': 'application/x-www-form-urlencoded' }, payload: 'confirm=yes' });
    expect(crossSite.statusCode).toBe(403);
    expect((await clientsOf()).map((c) => c.client_id)).toContain(client.client_id);

    const deleted = await admin.post(action, { confirm: 'yes' });
    expect(deleted.statusCode).toBe(303);
    expect(deleted.headers.location).toBe(`${page}?notice=deleted`);
    expect((await clientsOf()).map((c) => c.client_id)).not.toContain(client.client_id);
    expect((await admin.get(String(deleted.headers.location))).body).toContain('Deleted.');
  });

  it('adds an SSO provider: the secret write-only, the redirect URI to register shown, a 400 at the form', async () => {
    const page = `/console/projects/${shop.id}/sso_providers`;
    expect((await admin.get(page)).body).toContain('No SSO provider yet.');
    const form = { provider_id: 'acme-id', name: 'Acme ID', template: 'oidc', issuer: '', client_id: 'gatehouse', client_secret: 'upstream-secret-1', scopes: 'openid  email', claims: 'email=email\nname.given = given_name', link: 'verified_email', enabled: 'yes' };

    // oidc needs an issuer: the API's field error at the form, the typed secret not put back.
    const refused = await admin.post(page, form);
    expect(refused.statusCode).toBe(400);
    expect(refused.body).toContain('body/issuer');
    expect(refused.body).toContain('Acme ID');
    expect(refused.body).not.toContain('upstream-secret-1');
    expect((await apiGet(`/projects/${shop.id}/sso_providers`)).json().sso_providers).toEqual([]);

    const badId = await admin.post(page, { ...form, provider_id: '../Acme' });
    expect(badId.statusCode).toBe(400);
    expect(badId.body).toContain('params/provider_id');

    const created = await admin.post(page, { ...form, issuer: 'https://id.acme.example' });
    expect(created.statusCode, created.body.slice(0, 500)).toBe(303);
    expect(created.headers.location).toBe(`${page}?notice=sso_created`);
    const stored = (await apiGet(`/projects/${shop.id}/sso_providers/acme-id`)).json();
    expect(stored).toMatchObject({ name: 'Acme ID', template: 'oidc', issuer: 'https://id.acme.example', client_id: 'gatehouse', client_secret_set: true, scopes: ['openid', 'email'], claims: { email: 'email', 'name.given': 'given_name' }, link: 'verified_email', enabled: true });
    expect((await t.container.ssoProviders.enabledProvider(shop.id, 'acme-id'))?.client_secret).toBe('upstream-secret-1');

    const listed = await admin.get(String(created.headers.location));
    expect(listed.body).toContain('Register the redirect URI');
    expect(listed.body).toContain(`<code>${stored.redirect_uri}</code>`);
    expect(stored.redirect_uri).toBe(`${ORIGIN}/flow/sso/callback`);
    expect(listed.body).not.toContain('upstream-secret-1');

    // The form only adds: the same id again is refused, and the stored provider stays as it was.
    const again = await admin.post(page, { ...form, issuer: 'https://other.example', name: 'Replaced' });
    expect(again.statusCode).toBe(400);
    expect(again.body).toContain('exists already');
    expect((await apiGet(`/projects/${shop.id}/sso_providers/acme-id`)).json().name).toBe('Acme ID');

    // Unticked "enabled" is a disabled provider; the template's defaults fill the rest.
    const google = await admin.post(page, { provider_id: 'google', name: 'Google', template: 'google', client_id: 'g-client', client_secret: 'g-secret', link: 'none' });
    expect(google.statusCode).toBe(303);
    expect((await apiGet(`/projects/${shop.id}/sso_providers/google`)).json()).toMatchObject({ enabled: false, issuer: 'https://accounts.google.com', scopes: ['openid', 'email', 'profile'], link: 'none' });
  });

  it('deletes an SSO provider only with the confirmation ticked', async () => {
    const page = `/console/projects/${shop.id}/sso_providers`;
    expect((await admin.post(`${page}/google/delete`, {})).headers.location).toBe(`${page}?notice=not_confirmed`);
    expect((await apiGet(`/projects/${shop.id}/sso_providers/google`)).statusCode).toBe(200);
    const deleted = await admin.post(`${page}/google/delete`, { confirm: 'yes' });
    expect(deleted.headers.location).toBe(`${page}?notice=deleted`);
    expect((await apiGet(`/projects/${shop.id}/sso_providers/google`)).statusCode).toBe(404);
    expect((await admin.post(`${page}/Not_A_Slug/delete`, { confirm: 'yes' })).statusCode).toBe(404);
  });

  it('gives a project admin their project\'s pages and a 404 for every other project\'s', async () => {
    const other = await t.createProject('Other');
    const theirs = await t.app.inject({ method: 'POST', url: `/projects/${other.id}/oauth_clients`, headers: bearer(other.project_secret), payload: { name: 'Theirs', redirect_uris: ['https://other.example/cb'] } });
    expect(theirs.statusCode).toBe(201);
    const pat = await consoleBrowser(t, [{ role: 'project_admin', projectId: shop.id }], ORIGIN);

    const own = await pat.get(`/console/projects/${shop.id}/oauth_clients`);
    expect(own.statusCode).toBe(200);
    expect(own.body).toContain('Shop SPA');
    expect((await pat.get(`/console/projects/${shop.id}/sso_providers`)).body).toContain('acme-id');

    expect((await pat.get(`/console/projects/${other.id}/oauth_clients`)).statusCode).toBe(404);
    expect((await pat.get(`/console/projects/${other.id}/sso_providers`)).statusCode).toBe(404);
    expect((await pat.post(`/console/projects/${other.id}/oauth_clients`, { redirect_uris: 'https://evil.example/cb' })).statusCode).toBe(404);
    expect((await pat.post(`/console/projects/${other.id}/oauth_clients/${theirs.json().client_id}/delete`, { confirm: 'yes' })).statusCode).toBe(404);
    expect((await pat.post(`/console/projects/${other.id}/sso_providers`, { provider_id: 'evil', name: 'Evil', template: 'google', client_id: 'x', enabled: 'yes' })).statusCode).toBe(404);
    expect((await clientsOf(other.id)).map((c) => c.name)).toEqual(['Theirs']);
    expect((await t.app.inject({ method: 'GET', url: `/projects/${other.id}/sso_providers`, headers: bearer(other.project_secret) })).json().sso_providers).toEqual([]);
  });

  it('speaks German', async () => {
    const page = await admin.get(`/console/projects/${shop.id}/sso_providers?lang=de`);
    expect(page.body).toContain('<h1>SSO-Anbieter</h1>');
    expect(page.body).toContain(`action="/console/projects/${shop.id}/sso_providers?lang=de"`);
    expect((await admin.get(`/console/projects/${shop.id}/oauth_clients?lang=de`)).body).toContain('OAuth-Client registrieren');
  });
});
