import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, type TestApp } from '../../test/helpers/app.js';
import { PageClient } from '../ui/page-test-kit.js';
import { consoleBrowser, type ConsoleBrowser } from './console-test-kit.js';

const ORIGIN = 'http://localhost';

describe('console: mail templates and branding', () => {
  let t: TestApp;
  let admin: ConsoleBrowser;
  let shop: { id: string; project_secret: string };
  beforeAll(async () => {
    t = await createTestApp({ publicUrl: ORIGIN });
    admin = await consoleBrowser(t, [{ role: 'instance_admin' }], ORIGIN);
    shop = await t.createProject('Shop');
  });
  afterAll(async () => t.close());

  /** The API's own view, with the project's secret: what the console's writes really did. */
  const api = async (url: string) => {
    const answer = await t.app.inject({ method: 'GET', url, headers: bearer(shop.project_secret) });
    expect(answer.statusCode, answer.body).toBe(200);
    return answer.json();
  };
  const templatesUrl = () => `/console/projects/${shop.id}/mail_templates`;

  it('previews every message in English and German side by side, the edit form filled with the built-in text', async () => {
    const page = await admin.get(templatesUrl());
    expect(page.statusCode, page.body).toBe(200);
    for (const rendered of ['Your recovery code for Example', 'Ihr Wiederherstellungscode für Example', 'Your sign-in code for Example', 'Ihr Anmeldecode für Example', 'Sign in to Example', 'Anmeldung bei Example']) {
      expect(page.body).toContain(rendered);
    }
    expect(page.body).toContain('<div lang="de">');
    expect(page.body).toMatch(/<pre class="snippet" tabindex="0"><code>Your recovery code is:\n\n123456\n/);
    // Without a choice the form edits the first message in the page's language, as built in; nothing to reset.
    expect(page.body).toContain('value="Your recovery code for {{ project_name }}"');
    expect(page.body).not.toContain('/reset"');
    const german = await admin.get(`${templatesUrl()}?lang=de&template=magic_link`);
    expect(german.body).toContain('<h1>Mail-Vorlagen</h1>');
    expect(german.body).toContain('value="Anmeldung bei {{ project_name }}"');
    expect(german.body).toContain(`action="/console/projects/${shop.id}/mail_templates/magic_link/de?lang=de"`);
  });

  it('shows the API\'s 400 for a Liquid syntax error at the form, with the text as typed, and stores nothing', async () => {
    const refused = await admin.post(`${templatesUrl()}/magic_link/en`, { subject: 'Hi {{ code', text: 'Your code: {{ code }}' });
    expect(refused.statusCode).toBe(400);
    expect(refused.body).toContain('role="alert"');
    expect(refused.body).toContain('The mail template cannot be parsed.');
    expect(refused.body).toContain('<code>body/subject</code>');
    expect(refused.body).toContain('value="Hi {{ code"');
    expect(refused.body).toContain('Your code: {{ code }}</textarea>');
    expect(await api(`/projects/${shop.id}/mail_templates`)).toEqual({ mail_templates: [] });
    const empty = await admin.post(`${templatesUrl()}/magic_link/en`, { subject: '', text: 'x' });
    expect(empty.statusCode).toBe(400);
    expect(empty.body).toContain('<code>body/subject</code>');
  });

  it('saves an override through the API (PRG), previews it in its language only, and resets it', async () => {
    const saved = await admin.post(`${templatesUrl()}/magic_link/de`, { subject: 'Hallo {{ email }}', text: 'Ihr Code:\r\n{{ code }}\r\n{{ link }}\r\n', html: '' });
    expect(saved.statusCode, saved.body).toBe(303);
    expect(saved.headers.location).toBe(`${templatesUrl()}?template=magic_link&language=de&notice=saved`);
    expect((await api(`/projects/${shop.id}/mail_templates`)).mail_templates).toMatchObject([{ template: 'magic_link', language: 'de', subject: 'Hallo {{ email }}', text: 'Ihr Code:\n{{ code }}\n{{ link }}\n' }]);
    expect((await api(`/projects/${shop.id}/mail_templates`)).mail_templates[0].html).toBeUndefined();

    const page = await admin.get(String(saved.headers.location));
    expect(page.body).toContain('The template is saved.');
    expect(page.body).toContain('Hallo ann@example.com');
    expect(page.body).toContain('Sign in to Example');
    expect(page.body).not.toContain('Anmeldung bei Example');
    expect(page.body).toContain('value="Hallo {{ email }}"');
    expect(page.body).toContain(`action="${templatesUrl()}/magic_link/de/reset"`);

    const reset = await admin.post(`${templatesUrl()}/magic_link/de/reset`);
    expect(reset.statusCode).toBe(303);
    expect(reset.headers.location).toBe(`${templatesUrl()}?template=magic_link&language=de&notice=reset`);
    expect(await api(`/projects/${shop.id}/mail_templates`)).toEqual({ mail_templates: [] });
    expect((await admin.get(String(reset.headers.location))).body).toContain('Anmeldung bei Example');
  });

  it('refuses a message or language the API does not list, and a cross-site post', async () => {
    expect((await admin.post(`${templatesUrl()}/nope/en`, { subject: 'x', text: 'y' })).statusCode).toBe(404);
    expect((await admin.post(`${templatesUrl()}/magic_link/fr`, { subject: 'x', text: 'y' })).statusCode).toBe(404);
    expect((await admin.post(`${templatesUrl()}/magic_link/de/reset`.replace('magic_link', 'magic%20link'))).statusCode).toBe(404);
    const crossSite = await t.app.inject({ method: 'POST', url: `${templatesUrl()}/magic_link/en`, headers: { cookie: admin.cookie, origin: 'https://evil.example', 'content-type': 'application/x-www-form-urlencoded' }, payload: 'subject=x&text=y' });
    expect(crossSite.statusCode).toBe(403);
    expect(await api(`/projects/${shop.id}/mail_templates`)).toEqual({ mail_templates: [] });
  });

  it('edits the branding: the API\'s 400 at the form, then saved and visible on the hosted sign-in page', async () => {
    const url = `/console/projects/${shop.id}/branding`;
    const page = await admin.get(url);
    expect(page.statusCode, page.body).toBe(200);
    expect(page.body).toContain('<option value="centered" selected>');
    expect(page.body).toContain(`href="/ui/login?project_id=${shop.id}" target="_blank" rel="noopener"`);

    const broken = await admin.post(url, { layout: 'split', logo_url: '', hero_url: '', font_url: '', liquid_template: '<main>{% if %}{{ content }}</main>' });
    expect(broken.statusCode).toBe(400);
    expect(broken.body).toContain('The liquid template cannot be parsed.');
    expect(broken.body).toContain('<code>body/liquid_template</code>');
    expect(broken.body).toContain('&lt;main&gt;{% if %}{{ content }}&lt;/main&gt;</textarea>');
    expect(broken.body).toContain('<option value="split" selected>');
    const badUrl = await admin.post(url, { layout: 'wide', logo_url: 'javascript:alert(1)', liquid_template: '' });
    expect(badUrl.statusCode).toBe(400);
    expect(badUrl.body).toMatch(/<code>[^<]*logo_url<\/code>/);
    expect(await api(`/projects/${shop.id}/branding`)).toEqual({ layout: 'centered', liquid_template: '' });

    const template = '<div class="shop-brand"><img src="{{ logo_url }}" alt="">{{ content }}</div>';
    const saved = await admin.post(url, { layout: 'split', logo_url: 'https://cdn.example/logo.png', hero_url: '', font_url: '', liquid_template: template });
    expect(saved.statusCode, saved.body).toBe(303);
    expect(saved.headers.location).toBe(`${url}?notice=saved`);
    expect(await api(`/projects/${shop.id}/branding`)).toEqual({ layout: 'split', logo_url: 'https://cdn.example/logo.png', liquid_template: template });
    const again = await admin.get(String(saved.headers.location));
    expect(again.body).toContain('The branding is saved.');
    expect(again.body).toContain('value="https://cdn.example/logo.png"');
    // What the preview link opens: the hosted page in the saved look.
    const hosted = await new PageClient(t).open(`/ui/login?project_id=${shop.id}`);
    expect(hosted.body).toContain('<div class="shop-brand"><img src="https://cdn.example/logo.png" alt="">');
    expect(hosted.body).toContain('class="layout-split page-login"');

    // An address emptied in the form is gone from the branding (PUT replaces it).
    expect((await admin.post(url, { layout: 'split', logo_url: '', liquid_template: template })).statusCode).toBe(303);
    expect((await api(`/projects/${shop.id}/branding`)).logo_url).toBeUndefined();
  });

  it('a project admin works on their project and gets 404 for another project\'s pages', async () => {
    const other = await t.createProject('Other');
    const projectAdmin = await consoleBrowser(t, [{ role: 'project_admin', projectId: shop.id }], ORIGIN);
    expect((await projectAdmin.get(templatesUrl())).statusCode).toBe(200);
    expect((await projectAdmin.get(`/console/projects/${shop.id}/branding`)).statusCode).toBe(200);
    expect((await projectAdmin.post(`${templatesUrl()}/sign_in_code/en`, { subject: 'Code {{ code }}', text: '{{ code }}' })).statusCode).toBe(303);
    expect((await api(`/projects/${shop.id}/mail_templates`)).mail_templates).toMatchObject([{ template: 'sign_in_code', language: 'en' }]);
    for (const url of [`/console/projects/${other.id}/mail_templates`, `/console/projects/${other.id}/branding`]) {
      expect((await projectAdmin.get(url)).statusCode, url).toBe(404);
    }
    expect((await projectAdmin.post(`/console/projects/${other.id}/mail_templates/sign_in_code/en`, { subject: 'x', text: 'y' })).statusCode).toBe(404);
    expect((await projectAdmin.post(`/console/projects/${other.id}/branding`, { layout: 'wide', liquid_template: '' })).statusCode).toBe(404);
    const untouched = await t.app.inject({ method: 'GET', url: `/projects/${other.id}/mail_templates`, headers: bearer(t.adminToken) });
    expect(untouched.json()).toEqual({ mail_templates: [] });
  });
});
