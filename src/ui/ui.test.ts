import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, type TestApp } from '../../test/helpers/app.js';
import { formAction, PageClient } from './page-test-kit.js';

let t: TestApp;
let project: { id: string; project_secret: string };
const password = 'correct horse battery staple 42';

beforeAll(async () => {
  t = await createTestApp();
  project = await t.createProject('UI');
});
afterAll(async () => t.close());

async function register(client: PageClient, email: string) {
  const page = await client.open(`/ui/register?project_id=${project.id}`);
  expect(page.statusCode).toBe(200);
  return client.submit(page, 'create', { email, 'name.given': 'Kim', 'name.family': 'Lee', password });
}

describe('hosted pages: journeys over real HTTP handling (inject)', () => {
  it('starts a flow with a 303 to the page of its id, then renders the step with labels and strict headers', async () => {
    const client = new PageClient(t);
    const start = await client.get(`/ui/login?project_id=${project.id}`);
    expect(start.statusCode).toBe(303);
    expect(start.headers.location).toMatch(new RegExp(`^/ui/login\\?project_id=${project.id}&flow=flow_`));
    const page = await client.get(String(start.headers.location));
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    expect(page.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(page.headers['content-security-policy']).not.toContain('unsafe-inline');
    expect(page.headers['referrer-policy']).toBe('no-referrer');
    expect(page.headers['x-content-type-options']).toBe('nosniff');
    expect(page.headers['cache-control']).toBe('no-store');
    expect(page.body).toContain('<label for="f-email">E-mail address</label>');
    expect(page.body).toMatch(/<input id="f-email" name="f.email" required autofocus type="email" autocomplete="username webauthn"/);
    expect(page.body).not.toMatch(/<script(?![^>]*(type="module" src="\/ui\/assets\/|type="application\/json"))/);
    expect(page.body).not.toContain('gh_st_'); // the anonymous session token never reaches a page
  });

  it('registers (signed in: __service_session set, no token in the page), then signs in with the password', async () => {
    const client = new PageClient(t);
    const done = await register(client, 'kim@example.com');
    expect(done.statusCode).toBe(200);
    expect(done.body).toContain('You are signed in');
    expect(client.cookies.get('__service_session')).toMatch(/^gh_st_/);
    expect(done.body).not.toMatch(/gh_(st|ho)_/);
    const me = await t.app.inject({ method: 'GET', url: '/sessions/me', cookies: { __service_session: client.cookies.get('__service_session')! } });
    expect(me.json()).toMatchObject({ state: 'active' });

    const other = new PageClient(t);
    const identify = await other.open(`/ui/login?project_id=${project.id}`);
    const passwordPage = await other.submit(identify, 'continue', { email: 'kim@example.com' });
    expect(passwordPage.body).toContain('autocomplete="current-password"');
    const signedIn = await other.submit(passwordPage, 'sign_in', { password });
    expect(signedIn.body).toContain('You are signed in');
  });

  it('shows a wrong password as an announced error tied to the field, focused, with status 400', async () => {
    const client = new PageClient(t);
    const identify = await client.open(`/ui/login?project_id=${project.id}`);
    const passwordPage = await client.submit(identify, 'continue', { email: 'kim@example.com' });
    const wrong = await client.submit(passwordPage, 'sign_in', { password: 'not the password' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.body).toContain('role="alert"');
    expect(wrong.body).toMatch(/<input id="f-password" name="f.password" required aria-invalid="true" aria-describedby="f-password-error" autofocus/);
    expect(wrong.body).toContain('<p class="field-error" id="f-password-error">The e-mail address or password is wrong.</p>');
    expect(wrong.body).not.toContain('not the password');
    // The same flow goes on: the right password still works.
    expect((await client.submit(wrong, 'sign_in', { password })).body).toContain('You are signed in');
  });

  it('keeps typed values (not passwords) when a register form is refused', async () => {
    const client = new PageClient(t);
    const page = await client.open(`/ui/register?project_id=${project.id}`);
    const refused = await client.submit(page, 'create', { email: 'not-an-email', 'name.given': 'K<b>im', password });
    expect(refused.statusCode).toBe(400);
    expect(refused.body).toContain('value="not-an-email"');
    expect(refused.body).toContain('value="K&lt;b&gt;im"');
    expect(refused.body).not.toContain(password);
    expect(refused.body).toContain('Enter a valid e-mail address.');
  });

  it('completes to an allowed redirect_uri with the handoff token in the Location only', async () => {
    await t.app.inject({ method: 'PUT', url: `/projects/${project.id}/flow_settings`, headers: bearer(project.project_secret), payload: { redirect_uris: ['https://app.example/cb'] } });
    const client = new PageClient(t);
    const page = await client.open(`/ui/register?project_id=${project.id}&redirect_uri=${encodeURIComponent('https://app.example/cb')}`);
    expect(formAction(page.body)).toContain('redirect_uri=https%3A%2F%2Fapp.example%2Fcb');
    const done = await client.post(formAction(page.body), { action: 'create', 'f.email': 'redirect@example.com', 'f.password': password });
    expect(done.statusCode).toBe(303);
    const location = new URL(String(done.headers.location));
    expect(location.origin + location.pathname).toBe('https://app.example/cb');
    expect(location.searchParams.get('handoff_token')).toMatch(/^gh_ho_/);
    expect(done.headers['referrer-policy']).toBe('no-referrer');
  });

  it('translates by Accept-Language and ?lang=, unknown languages fall back to English, with project overrides', async () => {
    const de = await new PageClient(t, { 'accept-language': 'fr-FR, de;q=0.8, en;q=0.5' }).open(`/ui/login?project_id=${project.id}`);
    expect(de.body).toContain('<html lang="de">');
    expect(de.body).toContain('E-Mail-Adresse');
    const en = await new PageClient(t, { 'accept-language': 'de' }).open(`/ui/login?project_id=${project.id}&lang=xx`);
    expect(en.body).toContain('<html lang="en">');
    const patched = await t.app.inject({
      method: 'PATCH',
      url: `/projects/${project.id}/settings`,
      headers: bearer(project.project_secret),
      payload: { ui: { texts: { de: { 'step.identify.title': 'Willkommen <zurück>' } } } },
    });
    expect(patched.statusCode).toBe(200);
    expect(patched.json().ui).toEqual({ texts: { de: { 'step.identify.title': 'Willkommen <zurück>' } } });
    const overridden = await new PageClient(t).open(`/ui/login?project_id=${project.id}&lang=de`);
    expect(overridden.body).toContain('<h1 id="step-title">Willkommen &lt;zurück&gt;</h1>');
    expect(formAction(overridden.body)).toContain('lang=de');
    await t.app.inject({ method: 'PATCH', url: `/projects/${project.id}/settings`, headers: bearer(project.project_secret), payload: { ui: { texts: {} } } });
  });

  it('wraps the markup in the project\'s liquid template without double escaping, user values escaped', async () => {
    const branded = await t.createProject('Branded');
    const template = '<div class="brand">{{ title }} [{{ lang }}] {{ content }}</div>';
    const put = await t.app.inject({ method: 'PUT', url: `/projects/${branded.id}/branding`, headers: bearer(branded.project_secret), payload: { layout: 'split', liquid_template: template, logo_url: 'https://cdn.example/logo.png' } });
    expect(put.statusCode).toBe(200);
    const client = new PageClient(t);
    const page = await client.open(`/ui/register?project_id=${branded.id}`);
    expect(page.body).toContain('<div class="brand">Create your account [en] <h1 id="step-title">');
    expect(page.body).toContain('<body class="layout-split page-register">');
    expect(page.headers['content-security-policy']).toContain('img-src \'self\' data: https://cdn.example');
    const refused = await client.submit(page, 'create', { email: '"><script>alert(1)</script>', password });
    expect(refused.body).not.toContain('<script>alert(1)</script>');
    expect(refused.body).toContain('&quot;&gt;&lt;script&gt;');
  });

  it('serves the assets with long-lived caching and keeps the page weight small', async () => {
    const client = new PageClient(t);
    const page = await client.open(`/ui/login?project_id=${project.id}`);
    const urls = [...page.body.matchAll(/(?:href|src)="(\/ui\/assets\/[^"]+)"/g)].map((m) => m[1]);
    expect(urls).toHaveLength(2);
    let weight = Buffer.byteLength(page.body);
    for (const url of urls) {
      const asset = await t.app.inject({ method: 'GET', url });
      expect(asset.statusCode).toBe(200);
      expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      weight += asset.rawPayload.length;
    }
    console.log(`hosted UI page weight (login, uncompressed): ${weight} bytes (HTML ${Buffer.byteLength(page.body)})`);
    expect(weight).toBeLessThan(40_000);
    expect((await t.app.inject({ method: 'GET', url: '/ui/assets/ui.000000000000.js' })).statusCode).toBe(404);
  });
});
