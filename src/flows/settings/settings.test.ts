import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, errorBody, type TestApp } from '../../../test/helpers/app.js';
import { FlowClient } from '../flow-test-kit.js';

describe('branding and flow settings', () => {
  let t: TestApp;
  let project: { id: string; project_secret: string };
  let other: { id: string; project_secret: string };
  beforeAll(async () => {
    t = await createTestApp();
    project = await t.createProject();
    other = await t.createProject();
  });
  afterAll(async () => t.close());

  const put = (url: string, payload: unknown, token = project.project_secret) =>
    t.app.inject({ method: 'PUT', url, headers: bearer(token), payload: payload as Record<string, unknown> });

  it('stores branding validated by liquidjs and returns it in every flow response', async () => {
    const branding = {
      layout: 'split',
      liquid_template: '<main>{% if logo_url %}<img src="{{ logo_url }}">{% endif %}{{ content }}</main>',
      logo_url: 'https://cdn.example/logo.svg',
      font_url: 'https://cdn.example/font.woff2',
      hero_url: 'https://cdn.example/hero.jpg',
    };
    const saved = await put(`/projects/${project.id}/branding`, branding);
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toEqual(branding);
    const read = await t.app.inject({ method: 'GET', url: `/projects/${project.id}/branding`, headers: bearer(project.project_secret) });
    expect(read.json()).toEqual(branding);
    const client = new FlowClient(t);
    const started = (await client.start({ project_id: project.id, purpose: 'login' })).json();
    expect(started.branding).toEqual(branding);
    const submitted = await client.submit(started.id, 'continue', { email: 'x@example.com' });
    expect(submitted.json().branding).toEqual(branding);
  });

  it('refuses templates that do not parse, bad URLs and unknown fields', async () => {
    for (const template of ['{% if x %}never closed', '{{ unclosed', '{% nosuchtag %}']) {
      const response = await put(`/projects/${project.id}/branding`, { liquid_template: template });
      expect(response.statusCode).toBe(400);
      expect(errorBody(response)).toMatchObject({ code: 'req.invalid', details: { errors: [{ path: 'body/liquid_template' }] } });
    }
    for (const payload of [{ logo_url: 'javascript:alert(1)' }, { layout: 'Has Spaces' }, { colour: 'red' }]) {
      expect(errorBody(await put(`/projects/${project.id}/branding`, payload)).code).toBe('req.invalid');
    }
    const kept = await t.app.inject({ method: 'GET', url: `/projects/${project.id}/branding`, headers: bearer(project.project_secret) });
    expect(kept.json().layout).toBe('split');
  });

  it('flow settings: redirect allow-list and risk rules, merged over defaults', async () => {
    const saved = await put(`/projects/${project.id}/flow_settings`, { redirect_uris: ['https://app.example/cb'], risk: { ip_block_after: 50 } });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().redirect_uris).toEqual(['https://app.example/cb']);
    expect(saved.json().risk).toMatchObject({ ip_block_after: 50, ip_captcha_after: 20, account_lock_seconds: 10 });
    const again = await put(`/projects/${project.id}/flow_settings`, { risk: { ip_captcha_after: 5 } });
    expect(again.json()).toMatchObject({ redirect_uris: ['https://app.example/cb'], risk: { ip_block_after: 50, ip_captcha_after: 5 } });
    expect(errorBody(await put(`/projects/${project.id}/flow_settings`, { risk: { unknown_rule: 1 } })).code).toBe('req.invalid');
    expect(errorBody(await put(`/projects/${project.id}/flow_settings`, { redirect_uris: ['not a url'] })).code).toBe('req.invalid');
  });

  it('hides other projects and needs a credential', async () => {
    expect(errorBody(await put(`/projects/${project.id}/branding`, { layout: 'x' }, other.project_secret)).code).toBe('proj.not_found');
    const anonymous = await t.app.inject({ method: 'GET', url: `/projects/${project.id}/flow_settings` });
    expect(anonymous.statusCode).toBe(401);
  });
});
