import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FlowClient } from '../src/flows/flow-test-kit.js';
import { otpKit, type OtpKit } from '../src/flows/methods/otp/otp-flow-test-kit.js';
import { sessionCookie } from '../src/sessions/test-fixtures.js';
import { bearer, createTestApp, errorBody, type TestApp } from './helpers/app.js';

/**
 * Issue 31 item 1, DESIGN §4.8: every absolute URL Gatehouse builds comes from its public URL
 * (GATEHOUSE_PUBLIC_URL, here the test configuration's default `http://localhost`), never from a
 * request's `Host` or `X-Forwarded-*`. A request naming another host must change nothing a victim
 * would see: not the link mailed to them, not the issuer, not the SSO callback, not which origin
 * may write with their cookies.
 */
const ATTACKER = 'attacker.example';
const hostile = { host: ATTACKER, 'x-forwarded-host': ATTACKER, 'x-forwarded-proto': 'https' };

describe('the public URL is never taken from a request', () => {
  let kit: OtpKit;
  let t: TestApp;
  // A Gatehouse that trusts the client as a proxy: even forwarded headers build no URL.
  let proxied: TestApp;

  beforeAll(async () => {
    kit = await otpKit({ defaultPublicUrl: true });
    t = kit.t;
    proxied = await createTestApp({ trustedProxies: ['127.0.0.1'] });
  });
  afterAll(async () => {
    await kit?.close();
    await proxied?.close();
  });

  it('mails the magic link on the public URL, whatever Host started and submitted the flow', async () => {
    await kit.createUser('victim@example.com');
    const client = new FlowClient(t);
    const started = await client.start({ project_id: kit.project.id, purpose: 'code_login' }, hostile);
    expect(started.statusCode, started.body).toBe(200);
    const sent = await client.submit(started.json().id, 'send_code', { email: 'victim@example.com' }, {}, hostile);
    expect(sent.statusCode, sent.body).toBe(200);
    const { link, text } = await kit.codeFor('victim@example.com');
    expect(link).toBeDefined();
    expect(new URL(link!).origin).toBe('http://localhost');
    expect(new URL(link!).pathname).toBe('/ui/link');
    expect(text).not.toContain(ATTACKER);
  });

  it('names the public URL as the OIDC issuer and in every discovery endpoint', async () => {
    for (const app of [t.app, proxied.app]) {
      const discovery = await app.inject({ method: 'GET', url: '/.well-known/openid-configuration', headers: hostile, remoteAddress: '127.0.0.1' });
      expect(discovery.statusCode).toBe(200);
      const document = discovery.json();
      expect(document.issuer).toBe('http://localhost');
      expect(discovery.body).not.toContain(ATTACKER);
      for (const [key, value] of Object.entries(document)) {
        if (typeof value === 'string' && /^https?:/.test(value)) expect(new URL(value).origin, key).toBe('http://localhost');
      }
    }
  });

  it('shows the SSO callback on the public URL', async () => {
    const put = await t.app.inject({
      method: 'PUT',
      url: `/projects/${kit.project.id}/sso_providers/acme`,
      headers: { ...bearer(kit.project.project_secret), ...hostile },
      payload: { name: 'Acme', template: 'google', client_id: 'c', client_secret: 's' },
    });
    expect(put.statusCode, put.body).toBe(201);
    expect(put.json().redirect_uri).toBe('http://localhost/flow/sso/callback');
    const list = await t.app.inject({ method: 'GET', url: `/projects/${kit.project.id}/sso_providers`, headers: { ...bearer(kit.project.project_secret), ...hostile } });
    expect(list.body).not.toContain(ATTACKER);
  });

  it('refuses a passkey ceremony from the origin a Host header names', async () => {
    const client = new FlowClient(t);
    const started = await client.start({ project_id: kit.project.id, purpose: 'login' }, { host: ATTACKER, origin: `http://${ATTACKER}` });
    expect(started.statusCode, started.body).toBe(200);
    // Without a relying party of its own the answer carries no challenge for the attacker's origin.
    expect(started.json().step?.challenge).toBeUndefined();
    const submitted = await client.submit(started.json().id, 'passkey', {}, {}, { host: ATTACKER, origin: `http://${ATTACKER}` });
    expect(submitted.statusCode, submitted.body).toBe(403);
    expect(errorBody(submitted).code).toBe('auth.csrf_invalid');
  });

  it('refuses cookie-authenticated writes from the origin a Host header names', async () => {
    const shell = await t.app.inject({ method: 'POST', url: '/sessions', headers: bearer(kit.project.project_secret), payload: { project_id: kit.project.id } });
    const logout = await t.app.inject({
      method: 'DELETE',
      url: '/sessions/me',
      headers: { ...sessionCookie(shell.json().session_token), host: ATTACKER, origin: `http://${ATTACKER}` },
    });
    expect(logout.statusCode, logout.body).toBe(403);
    expect(errorBody(logout).code).toBe('auth.csrf_invalid');
    const flow = await new FlowClient(t).start({ project_id: kit.project.id, purpose: 'login' });
    const submit = await t.app.inject({
      method: 'POST',
      url: `/flow/${flow.json().id}/submit`,
      headers: { cookie: flow.headers['set-cookie'] as string, host: ATTACKER, origin: `http://${ATTACKER}` },
      payload: { action: 'next', fields: { identifier: 'x@example.com' } },
    });
    expect(submit.statusCode, submit.body).toBe(403);
  });

  it('accepts cookie-authenticated writes from the other loopback spellings of a loopback public URL', async () => {
    const local = await createTestApp({ publicUrl: 'http://localhost:8080' });
    try {
      const project = await local.createProject();
      for (const origin of ['http://localhost:8080', 'http://127.0.0.1:8080', 'http://[::1]:8080']) {
        const shell = await local.app.inject({ method: 'POST', url: '/sessions', headers: bearer(project.project_secret), payload: { project_id: project.id } });
        const logout = await local.app.inject({ method: 'DELETE', url: '/sessions/me', headers: { ...sessionCookie(shell.json().session_token), origin } });
        expect(logout.statusCode, `${origin}: ${logout.body}`).toBe(204);
      }
      for (const origin of ['http://localhost:9090', 'https://localhost:8080', 'http://127.0.0.2.nip.io:8080']) {
        const shell = await local.app.inject({ method: 'POST', url: '/sessions', headers: bearer(project.project_secret), payload: { project_id: project.id } });
        const logout = await local.app.inject({ method: 'DELETE', url: '/sessions/me', headers: { ...sessionCookie(shell.json().session_token), origin } });
        expect(logout.statusCode, origin).toBe(403);
      }
    } finally {
      await local.close();
    }
  });

  it('gives new user schemas ids on the public URL', async () => {
    const created = await t.app.inject({
      method: 'POST',
      url: `/schemas?project_id=${kit.project.id}`,
      headers: { ...bearer(kit.project.project_secret), ...hostile },
      payload: { type: 'object', properties: { email: { type: 'string', format: 'email', 'x-identifier': true, 'x-unique': 'project' } } },
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.body).not.toContain(ATTACKER);
    const id = created.json().id;
    const read = await t.app.inject({ method: 'GET', url: `/schemas/${id}`, headers: { ...bearer(kit.project.project_secret), ...hostile } });
    expect(read.statusCode, read.body).toBe(200);
    expect(read.json().schema.$id).toBe(`http://localhost/schemas/${id}`);
  });
});
