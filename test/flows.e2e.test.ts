import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSmtpServer, textPart } from '../src/courier/test-smtp-server.js';
import { createListeningTestApp, type TestApp } from './helpers/app.js';

/**
 * Black-box: the flow API over real HTTP, as a browser frontend plus an app backend use it.
 * Registration -> login -> handoff -> exchange -> /sessions/me; step-up on the same session;
 * recovery with the code delivered by a real SMTP server.
 */
class Browser {
  cookies = new Map<string, string>();
  constructor(private readonly base: string) {}

  async call(method: string, path: string, body?: unknown): Promise<{ status: number; body: any; headers: Headers }> {
    const headers: Record<string, string> = { 'sec-fetch-site': 'same-origin' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (this.cookies.size > 0) headers.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const response = await fetch(`${this.base}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const index = pair.indexOf('=');
      const name = pair.slice(0, index);
      const value = pair.slice(index + 1);
      if (value === '' || /max-age=0/i.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : undefined, headers: response.headers };
  }
}

describe('flows end to end over HTTP', () => {
  let t: TestApp;
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
  let base: string;
  let project: { id: string; project_secret: string };
  let key: { client_id: string; client_secret: string };

  /** A fresh client-credentials access token (they live 5 minutes; the test moves the clock). */
  const accessToken = async () => {
    const token = await fetch(`${base}/auth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${Buffer.from(`${key.client_id}:${key.client_secret}`).toString('base64')}` },
      body: 'grant_type=client_credentials',
    }).then((r) => r.json() as Promise<{ access_token: string }>);
    expect(token.access_token).toBeTruthy();
    return token.access_token as string;
  };
  const PASSWORD = 'seven green bicycles at dawn';

  const backend = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const response = await fetch(`${base}${path}`, {
      method,
      headers: { authorization: `Bearer ${await accessToken()}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : undefined };
  };

  async function login(browser: Browser, email: string, password: string, sessionId?: string) {
    const started = await browser.call('POST', '/flow', { project_id: project.id, purpose: 'login', ...(sessionId ? { session_id: sessionId } : {}) });
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    const identified = await browser.call('POST', `/flow/${started.body.id}/submit`, { action: 'continue', fields: { email } });
    expect(identified.body.step.name).toBe('password');
    const done = await browser.call('POST', `/flow/${identified.body.id}/submit`, { action: 'sign_in', fields: { password } });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    return { started: started.body, done: done.body };
  }

  beforeAll(async () => {
    smtp = await startSmtpServer();
    const listening = await createListeningTestApp({ smtpUrl: smtp.url, mailFrom: 'Gatehouse <no-reply@gatehouse.test>' });
    t = listening;
    base = listening.base;
    project = await t.createProject('E2E');
    key = await fetch(`${base}/projects/${project.id}/service_keys`, {
      method: 'POST',
      headers: { authorization: `Bearer ${project.project_secret}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'backend', scopes: ['session.write', 'session.read'] }),
    }).then((r) => r.json() as Promise<{ client_id: string; client_secret: string }>);
    expect(key.client_id).toBeTruthy();
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  it('registration -> login -> handoff -> exchange -> /sessions/me, then step-up on the same session', async () => {
    const browser = new Browser(base);
    const started = await browser.call('POST', '/flow', { project_id: project.id, purpose: 'register' });
    expect(started.status).toBe(200);
    expect(browser.cookies.get('_zflow')).toBeTruthy();
    const registered = await browser.call('POST', `/flow/${started.body.id}/submit`, { action: 'create', fields: { email: 'e2e@example.com', 'name.given': 'Eve', 'name.family': 'Example', password: PASSWORD } });
    expect(registered.status, JSON.stringify(registered.body)).toBe(200);
    // The finished flow stays in the cookie as a tombstone (DESIGN 4.5): its id answers 410.
    const reload = await browser.call('GET', `/flow/${started.body.id}`);
    expect(reload.status).toBe(410);
    expect(reload.body.code).toBe('flow.completed');

    const { started: loginStart, done } = await login(browser, 'e2e@example.com', PASSWORD);
    expect(done.step).toMatchObject({ type: 'complete' });
    expect(done.session_id).toBe(loginStart.session_id);

    const exchanged = await backend('POST', `/sessions/exchange?project_id=${project.id}`, { handoff_token: done.handoff_token });
    expect(exchanged.status, JSON.stringify(exchanged.body)).toBe(200);
    const session = exchanged.body.session;
    expect(session).toMatchObject({ session_id: loginStart.session_id, state: 'active', email: 'e2e@example.com', assurance_levels: ['urn:nist:aal:1'] });
    expect(session.factors).toEqual([{ method: 'password', verified_at: expect.any(String), payload: { user_id: session.user_id } }]);
    const replay = await backend('POST', `/sessions/exchange?project_id=${project.id}`, { handoff_token: done.handoff_token });
    expect(replay.status).toBe(404);
    expect(replay.body.code).toBe('att.not_found');

    const app = new Browser(base);
    app.cookies.set('__service_session', exchanged.body.session_token);
    const me = await app.call('GET', '/sessions/me');
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ session_id: session.session_id, user_id: session.user_id, name: expect.stringContaining('Eve') });

    // Once the password factor is older than the AAL1 window the level drops; a step-up restores it.
    const settings = await fetch(`${base}/projects/${project.id}/settings`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${project.project_secret}`, 'content-type': 'application/json' },
      body: JSON.stringify({ sessions: { aal1_window_seconds: 3600, aal2_window_seconds: 1800 } }),
    });
    expect(settings.status, await settings.text()).toBe(200);
    t.clock.advance(2 * 3600 * 1000);
    expect((await app.call('GET', '/sessions/me')).body.assurance_levels).toEqual([]);
    const stepUp = await login(new Browser(base), 'e2e@example.com', PASSWORD, session.session_id);
    expect(stepUp.started.session_id).toBe(session.session_id);
    expect(stepUp.started.session_token).toBeUndefined();
    const upgraded = await backend('POST', `/sessions/exchange?project_id=${project.id}`, { handoff_token: stepUp.done.handoff_token });
    expect(upgraded.status, JSON.stringify(upgraded.body)).toBe(200);
    expect(upgraded.body.session.session_id).toBe(session.session_id);
    expect(upgraded.body.session.assurance_levels).toEqual(['urn:nist:aal:1']);
    expect(upgraded.body.session.factors).toHaveLength(1);
    expect(new Date(upgraded.body.session.factors[0].verified_at).getTime()).toBe(t.clock.now().getTime());
    // the earlier token is superseded
    expect((await app.call('GET', '/sessions/me')).status).toBe(401);
  });

  it('recovery sends the code through SMTP and the new password signs in', async () => {
    const browser = new Browser(base);
    const started = await browser.call('POST', '/flow', { project_id: project.id, purpose: 'recovery' });
    const codeStep = await browser.call('POST', `/flow/${started.body.id}/submit`, { action: 'send_code', fields: { email: 'e2e@example.com' } });
    expect(codeStep.body.step.name).toBe('code');
    await t.container.flows.courier.flush();
    const mail = smtp.received.find((m) => m.to.includes('e2e@example.com'));
    expect(mail?.raw).toContain('Subject: Your recovery code');
    // DESIGN §4.11: the code stands alone on its line of the text part.
    const code = /^(\d{6})$/m.exec(textPart(mail!.raw))![1];
    const [stored] = await t.container.flows.courier.outboxFor('e2e@example.com');
    expect(stored).toMatchObject({ status: 'sent', body: null });
    const results = await Promise.all(
      Array.from({ length: 8 }, () => browser.call('POST', `/flow/${codeStep.body.id}/submit`, { action: 'verify', fields: { code } })),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    const winner = results.find((r) => r.status === 200)!;
    expect(winner.body.step.name).toBe('new_password');
    const saved = await browser.call('POST', `/flow/${winner.body.id}/submit`, { action: 'save', fields: { password: 'a fresh passphrase for eve' } });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body.step).toMatchObject({ type: 'complete', behavior: 'show' });
    expect(saved.body.handoff_token).toBeUndefined();
    const { done } = await login(new Browser(base), 'e2e@example.com', 'a fresh passphrase for eve');
    expect(done.handoff_token).toBeTruthy();
  });
});
