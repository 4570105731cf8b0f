import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, type TestApp } from '../../test/helpers/app.js';
import { testEngineKind } from '../../test/helpers/engine.js';
import { TestIdp } from '../flows/methods/saml/saml-test-kit.js';
import { consoleBrowser, type ConsoleBrowser } from './console-test-kit.js';

const ORIGIN = 'http://localhost';

/** The console's SAML identity providers pages (issue 35), end to end through the providers API, with a real IdP's metadata (samlify on loopback). */
describe(`console: SAML identity providers (${testEngineKind()})`, () => {
  let t: TestApp;
  let admin: ConsoleBrowser;
  let shop: Awaited<ReturnType<TestApp['createProject']>>;
  let other: Awaited<ReturnType<TestApp['createProject']>>;
  let idp: TestIdp;
  const page = () => `/console/projects/${shop.id}/saml_providers`;
  const apiGet = (url: string, secret = shop.project_secret) => t.app.inject({ method: 'GET', url, headers: bearer(secret) });
  const stored = async (id: string, project = shop) => apiGet(`/projects/${project.id}/saml_providers/${id}`, project.project_secret);

  beforeAll(async () => {
    t = await createTestApp({ publicUrl: ORIGIN });
    admin = await consoleBrowser(t, [{ role: 'instance_admin' }], ORIGIN);
    shop = await t.createProject('Shop');
    other = await t.createProject('Other');
    idp = new TestIdp(() => t.clock.now());
    await idp.start();
  });
  afterAll(async () => {
    await idp?.close();
    await t?.close();
  });

  it('adds a provider: the API\'s refusals at the form as typed, then the values to give the IdP', async () => {
    expect((await admin.get(page())).body).toContain('No SAML identity provider yet.');
    const form = { provider_id: 'corp', name: 'Corp SSO', idp_metadata_url: '', idp_metadata_xml: idp.metadata(), domains: 'Corp.example\r\nstaff.corp.example', attributes: 'name.given=firstName', link: 'verified_email', enabled: 'yes' };

    const neither = await admin.post(page(), { ...form, idp_metadata_xml: '' });
    expect(neither.statusCode).toBe(400);
    expect(neither.body).toContain('role="alert"');
    expect(neither.body).toContain('exactly one of idp_metadata_xml and idp_metadata_url');
    expect(neither.body).toMatch(/name="idp_metadata_url" value="" type="url" maxlength="2048" autocomplete="off" aria-invalid="true"/);
    expect(neither.body).toContain('value="Corp SSO"');

    const notXml = await admin.post(page(), { ...form, idp_metadata_xml: '<not-xml' });
    expect(notXml.statusCode).toBe(400);
    expect(notXml.body).toContain('<code>body/idp_metadata_xml</code>');
    expect(notXml.body).toContain('&lt;not-xml</textarea>');
    expect(notXml.body).toMatch(/id="f-saml-xml" name="idp_metadata_xml" rows="3" class="code" spellcheck="false" aria-invalid="true"/);

    const badDomain = await admin.post(page(), { ...form, domains: 'corp.example\nnot a domain' });
    expect(badDomain.statusCode).toBe(400);
    expect(badDomain.body).toContain('<code>body/domains/1</code>');
    const badMapping = await admin.post(page(), { ...form, attributes: '../x=firstName' });
    expect(badMapping.statusCode).toBe(400);
    expect(badMapping.body).toContain('body/attributes/../x');
    const badId = await admin.post(page(), { ...form, provider_id: 'Corp!' });
    expect(badId.statusCode).toBe(400);
    expect(badId.body).toContain('params/provider_id');
    expect((await apiGet(`/projects/${shop.id}/saml_providers`)).json().saml_providers).toEqual([]);

    // Metadata larger than the console's other forms take (16 KiB) goes through.
    const xml = idp.metadata().replace(/(<\/[A-Za-z:]*EntityDescriptor>)\s*$/, `${' '.repeat(40_000)}$1`);
    const created = await admin.post(page(), { ...form, idp_metadata_xml: xml });
    expect(created.statusCode, created.body.slice(0, 800)).toBe(303);
    expect(created.headers.location).toBe(`${page()}/corp?notice=created`);
    const corp = (await stored('corp')).json();
    expect(corp).toMatchObject({ name: 'Corp SSO', idp_entity_id: `${idp.base}/idp`, domains: ['corp.example', 'staff.corp.example'], attributes: { 'name.given': 'firstName' }, link: 'verified_email', enabled: true });

    const shown = await admin.get(String(created.headers.location));
    expect(shown.statusCode).toBe(200);
    expect(shown.body).toContain('Now give the IdP the values below.');
    expect(shown.body).toContain(`<a href="${corp.sp_metadata_url.replace(/&/g, '&amp;')}"><code>`);
    expect(corp.sp_metadata_url).toBe(`${ORIGIN}/saml/corp/metadata?project_id=${shop.id}`);
    expect(shown.body).toContain(`<code>${ORIGIN}/saml/${shop.id}/corp</code>`);
    expect(shown.body).toContain(`<code>${ORIGIN}/flow/saml/acs</code>`);
    expect(shown.body).toContain(`<code>${idp.base}/sso</code>`);
    // The SP metadata the page links to is the API's, and names the same ACS.
    const spMetadata = await t.app.inject({ method: 'GET', url: `/saml/corp/metadata?project_id=${shop.id}` });
    expect(spMetadata.statusCode).toBe(200);
    expect(spMetadata.body).toContain(`${ORIGIN}/flow/saml/acs`);

    // The form only adds: the same id again is refused, and the stored provider stays as it was.
    const again = await admin.post(page(), { ...form, name: 'Replaced' });
    expect(again.statusCode).toBe(400);
    expect(again.body).toContain('exists already');
    expect((await stored('corp')).json().name).toBe('Corp SSO');

    // By URL; a domain another provider holds is the API's 409 at the form.
    const byUrl = { provider_id: 'okta', name: 'Okta', idp_metadata_url: `${idp.base}/metadata`, idp_metadata_xml: '', domains: 'corp.example', link: 'none' };
    const taken = await admin.post(page(), byUrl);
    expect(taken.statusCode).toBe(409);
    expect(taken.body).toContain('role="alert"');
    expect(taken.body).toContain('corp.example');
    expect((await stored('okta')).statusCode).toBe(404);
    const okta = await admin.post(page(), { ...byUrl, domains: 'okta-users.example' });
    expect(okta.statusCode).toBe(303);
    expect((await stored('okta')).json()).toMatchObject({ idp_metadata_url: `${idp.base}/metadata`, enabled: false, link: 'none', domains: ['okta-users.example'] });
    expect((await admin.get(`${page()}/okta`)).body).toContain('Metadata fetched (UTC)');

    const listed = await admin.get(page());
    expect(listed.body).toContain(`href="${page()}/corp"`);
    expect(listed.body).toContain('<code>staff.corp.example</code>');
    // Each change is an operator's event in the project's log.
    const events = await admin.get(`/console/projects/${shop.id}/events?type=saml_provider.created`);
    expect(events.body.match(/<code>saml_provider\.created<\/code>/g)).toHaveLength(2);
    expect(events.body).toContain(`<code>operator</code><br><code>${admin.userId}</code>`);
    expect(events.body).toContain(`<a href="${page()}/corp"><code>corp</code></a>`);
  });

  it('edits a provider: the form holds what is stored, a refusal comes back at it, a change is saved', async () => {
    const edit = await admin.get(`${page()}/corp`);
    expect(edit.body).toContain('<textarea id="f-saml-domains" name="domains" rows="3" spellcheck="false">corp.example\nstaff.corp.example</textarea>');
    expect(edit.body).toContain('name.given=firstName</textarea>');
    expect(edit.body).toContain('&lt;/');
    expect(edit.body).toMatch(/<option value="verified_email" selected>/);

    const form = { name: 'Corp', idp_metadata_url: '', idp_metadata_xml: idp.metadata(), domains: 'corp.example', attributes: '', link: 'none', enabled: 'yes' };
    const both = await admin.post(`${page()}/corp`, { ...form, idp_metadata_url: `${idp.base}/metadata` });
    expect(both.statusCode).toBe(400);
    expect(both.body).toContain('exactly one of');
    expect(both.body).toContain('value="Corp"');
    const clash = await admin.post(`${page()}/corp`, { ...form, domains: 'okta-users.example' });
    expect(clash.statusCode).toBe(409);
    expect((await stored('corp')).json().name).toBe('Corp SSO');

    // From the pasted document to the URL, fewer domains, no mapping, plain linking.
    const saved = await admin.post(`${page()}/corp`, { ...form, idp_metadata_xml: '', idp_metadata_url: `${idp.base}/metadata` });
    expect(saved.statusCode, saved.body.slice(0, 800)).toBe(303);
    expect(saved.headers.location).toBe(`${page()}/corp?notice=saved`);
    const corp = (await stored('corp')).json();
    expect(corp).toMatchObject({ name: 'Corp', idp_metadata_url: `${idp.base}/metadata`, domains: ['corp.example'], attributes: {}, link: 'none', enabled: true });
    expect(corp).not.toHaveProperty('idp_metadata_xml');
    const types = (await t.app.inject({ method: 'GET', url: `/events?type=saml_provider.updated`, headers: bearer(shop.project_secret) })).json().events;
    expect(types).toHaveLength(1);
    expect(types[0]).toMatchObject({ actor: { kind: 'operator', id: admin.userId }, subject: { kind: 'saml_provider', id: 'corp' }, data: { name: 'Corp' } });

    // A provider that does not exist is not made by its edit form.
    expect((await admin.post(`${page()}/ghost`, form)).statusCode).toBe(404);
    expect((await stored('ghost')).statusCode).toBe(404);
  });

  it('deletes only with the confirmation ticked and from the console\'s own origin', async () => {
    const action = `${page()}/okta/delete`;
    const unconfirmed = await admin.post(action, {});
    expect(unconfirmed.headers.location).toBe(`${page()}/okta?notice=not_confirmed`);
    expect((await stored('okta')).statusCode).toBe(200);
    for (const headers of [{ origin: 'https://evil.example' }, { 'sec-fetch-site': 'cross-site' }]) {
      const crossSite = await t.app.inject({ method: 'POST', url: action, headers: { cookie: admin.cookie, 'content-type': 'application/x-www-form-urlencoded', ...headers }, payload: 'confirm=yes' });
      expect(crossSite.statusCode).toBe(403);
    }
    const crossSiteAdd = await t.app.inject({ method: 'POST', url: page(), headers: { cookie: admin.cookie, origin: 'https://evil.example', 'content-type': 'application/x-www-form-urlencoded' }, payload: `provider_id=evil&name=Evil&idp_metadata_url=${encodeURIComponent(`${idp.base}/metadata`)}` });
    expect(crossSiteAdd.statusCode).toBe(403);
    expect((await stored('evil')).statusCode).toBe(404);
    expect((await stored('okta')).statusCode).toBe(200);

    const deleted = await admin.post(action, { confirm: 'yes' });
    expect(deleted.statusCode).toBe(303);
    expect(deleted.headers.location).toBe(`${page()}?notice=deleted`);
    expect((await stored('okta')).statusCode).toBe(404);
    expect((await admin.get(String(deleted.headers.location))).body).toContain('Deleted.');
    // Gone: its page and a second delete are the console's 404.
    expect((await admin.get(`${page()}/okta`)).statusCode).toBe(404);
    expect((await admin.post(action, { confirm: 'yes' })).statusCode).toBe(404);
    expect((await admin.post(`${page()}/Not_A_Slug/delete`, { confirm: 'yes' })).statusCode).toBe(404);
  });

  it('keeps projects apart: another project\'s provider is a 404 on every page and form', async () => {
    const theirs = await t.app.inject({ method: 'PUT', url: `/projects/${other.id}/saml_providers/theirs`, headers: bearer(other.project_secret), payload: { name: 'Theirs', idp_metadata_xml: idp.metadata(), domains: ['other.example'] } });
    expect(theirs.statusCode).toBe(201);
    const form = { name: 'Mine now', idp_metadata_xml: idp.metadata(), domains: '', link: 'none', enabled: 'yes' };

    // Its id under this project's path: not found, and the edit form does not make one.
    expect((await admin.get(`${page()}/theirs`)).statusCode).toBe(404);
    expect((await admin.post(`${page()}/theirs`, form)).statusCode).toBe(404);
    expect((await admin.post(`${page()}/theirs/delete`, { confirm: 'yes' })).statusCode).toBe(404);
    expect((await stored('theirs')).statusCode).toBe(404);

    const pat = await consoleBrowser(t, [{ role: 'project_admin', projectId: shop.id }], ORIGIN);
    expect((await pat.get(page())).body).toContain(`href="${page()}/corp"`);
    expect((await pat.get(`${page()}/corp`)).statusCode).toBe(200);
    const theirPage = `/console/projects/${other.id}/saml_providers`;
    expect((await pat.get(theirPage)).statusCode).toBe(404);
    expect((await pat.get(`${theirPage}/theirs`)).statusCode).toBe(404);
    expect((await pat.post(`${theirPage}/theirs`, form)).statusCode).toBe(404);
    expect((await pat.post(`${theirPage}/theirs/delete`, { confirm: 'yes' })).statusCode).toBe(404);
    expect((await pat.post(theirPage, { ...form, provider_id: 'evil' })).statusCode).toBe(404);
    expect((await stored('theirs', other)).json()).toMatchObject({ name: 'Theirs', domains: ['other.example'] });
    expect((await apiGet(`/projects/${other.id}/saml_providers`, other.project_secret)).json().saml_providers.map((p: { id: string }) => p.id)).toEqual(['theirs']);
  });

  it('speaks German', async () => {
    const list = await admin.get(`${page()}?lang=de`);
    expect(list.body).toContain('<h1>SAML-Identitätsanbieter</h1>');
    expect(list.body).toContain(`action="${page()}?lang=de"`);
    expect((await admin.get(`${page()}/corp?lang=de`)).body).toContain('Diese Werte bekommt der IdP');
  });
});
