import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FlowClient, registerThroughFlow, STRONG_PASSWORD } from '../src/flows/flow-test-kit.js';
import { createLogger, loggableUrl, redactCredentials } from '../src/http/log-redaction.js';
import { challengeOf, FORM, loginHandoff } from '../src/oauth/testing.js';
import { bearer, createTestApp, type TestApp } from './helpers/app.js';

const REDIRECT = 'https://app.example.com/callback';

describe('credentials never reach the log', () => {
  let t: TestApp;
  let log = '';

  beforeAll(async () => {
    // The production logger (src/container.ts) at its most verbose level, written to memory.
    const sink = new Writable({
      write(chunk, _encoding, done) {
        log += String(chunk);
        done();
      },
    });
    t = await createTestApp({}, { logger: createLogger('trace', sink) });
  });
  afterAll(async () => t.close());

  it('keeps only allow-listed values, also percent-encoded inside another URL', () => {
    expect(redactCredentials('/auth/authorize/resume?authorization_id=a&handoff_token=gh_ho_x1&x=2')).toBe('/auth/authorize/resume?authorization_id=a&handoff_token=[redacted]&x=[redacted]');
    expect(redactCredentials('"url":"/cb?code=abc&state=s1#f"')).toBe('"url":"/cb?code=[redacted]&state=[redacted]#f"');
    expect(redactCredentials('/x?token=t&code_verifier=v&client_secret=c')).toBe('/x?token=[redacted]&code_verifier=[redacted]&client_secret=[redacted]');
    expect(redactCredentials('/a?redirect_uri=https%3A%2F%2Fapp%2Fcb%3Fcode%3Dsecret%26x%3D1')).toBe('/a?redirect_uri=https%3A%2F%2Fapp%2Fcb%3Fcode%3D[redacted]%26x%3D[redacted]');
    // An allow-list, not a list of credential names: whatever is not known harmless loses its value.
    expect(redactCredentials('/x?error_code=1&mytoken=2&lang=de')).toBe('/x?error_code=[redacted]&mytoken=[redacted]&lang=de');
    expect(redactCredentials('/x#access_token=a1&scope=openid')).toBe('/x#access_token=[redacted]&scope=openid');
    // Separators only in percent form, in either case: no raw `?`, `&` or `#` anywhere in the line.
    expect(redactCredentials('"next":"https%3A%2F%2Fapp%2Fcb%3fcode%3Dsecret"')).toBe('"next":"https%3A%2F%2Fapp%2Fcb%3fcode%3D[redacted]"');
    expect(redactCredentials('"next":"https%3A%2F%2Fapp%2Fcb%23access_token%3Da1%26scope%3Dopenid"')).toBe('"next":"https%3A%2F%2Fapp%2Fcb%23access_token%3D[redacted]%26scope%3Dopenid"');
    expect(redactCredentials('"path":"/100%25 done"')).toBe('"path":"/100%25 done"');
    // A line without a query is returned as it is (the logger's fast path).
    const plain = '{"level":30,"msg":"request completed","url":"/sessions/me"}';
    expect(redactCredentials(plain)).toBe(plain);
  });

  it('writes a request URL with its path and only allow-listed values (a value sent bare, a fragment, a nested URL too)', () => {
    expect(loggableUrl('/ui/login?project_id=proj_1&lang=de&id_token_hint=eyJ.a.b&x_my_secret=s')).toBe('/ui/login?project_id=proj_1&lang=de&id_token_hint=[redacted]&x_my_secret=[redacted]');
    expect(loggableUrl('/cb?gh_st_0123456789abcdef&done=1')).toBe('/cb?[redacted]&done=1');
    expect(loggableUrl('/cb#access_token=abc')).toBe('/cb#[redacted]');
    expect(loggableUrl('/a?redirect_uri=https://app.example.com/cb?code=c1%26lang=de&scope=openid')).toBe('/a?redirect_uri=https%3A%2F%2Fapp.example.com%2Fcb%3Fcode%3D[redacted]%26lang%3Dde&scope=openid');
    // An allowed URL without credentials stays exactly as it was sent.
    expect(loggableUrl('/a?redirect_uri=https%3A%2F%2Fapp.example.com%2Fcallback')).toBe('/a?redirect_uri=https%3A%2F%2Fapp.example.com%2Fcallback');
  });

  it('a full OAuth sign-in (authorize, login flow, GET resume, token, userinfo, revoke) leaves none of its secrets in the log', async () => {
    const project = await t.createProject();
    const email = 'logged@example.com';
    expect((await registerThroughFlow(t, project.id, email)).statusCode).toBe(200);
    const client = (
      await t.app.inject({ method: 'POST', url: `/projects/${project.id}/oauth_clients`, headers: bearer(project.project_secret), payload: { redirect_uris: [REDIRECT], token_endpoint_auth_method: 'client_secret_post' } })
    ).json();
    const verifier = 'verifier-' + 'q'.repeat(40);
    const state = 'state-secret-0123456789';
    log = '';

    const query = new URLSearchParams({
      response_type: 'code', client_id: client.client_id, redirect_uri: REDIRECT, scope: 'openid email', state,
      code_challenge: await challengeOf(verifier), code_challenge_method: 'S256',
    });
    const started = await t.app.inject({ method: 'GET', url: `/auth/authorize?${query}` });
    expect(started.statusCode).toBe(302);
    const authorizationId = new URL(started.headers.location as string).searchParams.get('authorization_id')!;
    const binding = started.cookies.find((c) => c.name === '__gh_authz')!;
    const handoff = await loginHandoff(t, project.id, email);
    // The resume step by GET: the handoff token travels in the URL.
    const resumed = await t.app.inject({
      method: 'GET',
      url: `/auth/authorize/resume?${new URLSearchParams({ authorization_id: authorizationId, handoff_token: handoff })}`,
      headers: { cookie: `__gh_authz=${binding.value}` },
    });
    expect(resumed.statusCode, resumed.body).toBe(302);
    const code = new URL(resumed.headers.location as string).searchParams.get('code')!;
    expect(code).toMatch(/^gh_ac_/);

    const form = { grant_type: 'authorization_code', code, redirect_uri: REDIRECT, code_verifier: verifier, client_id: client.client_id, client_secret: client.client_secret };
    const tokens = await t.app.inject({ method: 'POST', url: '/auth/token', headers: FORM, payload: new URLSearchParams(form).toString() });
    expect(tokens.statusCode, tokens.body).toBe(200);
    const { access_token: accessToken, refresh_token: refreshToken } = tokens.json();
    // Clients that put credentials into URLs anyway (each answers an error, and is logged).
    await t.app.inject({ method: 'GET', url: `/auth/token?${new URLSearchParams(form)}` });
    await t.app.inject({ method: 'GET', url: `/auth/userinfo?token=${accessToken}` });
    await t.app.inject({ method: 'POST', url: `/auth/revoke?token=${refreshToken}&client_secret=${client.client_secret}`, headers: FORM, payload: '' });

    const lines = log.split('\n').filter(Boolean);
    expect(lines.length).toBeGreaterThan(8);
    expect(log).toContain('/auth/authorize/resume?authorization_id=');
    expect(log).toContain('handoff_token=[redacted]');
    const secrets = { handoff_token: handoff, state, code, code_verifier: verifier, client_secret: client.client_secret, access_token: accessToken, refresh_token: refreshToken, password: STRONG_PASSWORD };
    for (const [name, value] of Object.entries(secrets)) {
      expect(value.length, name).toBeGreaterThan(8);
      expect(log.includes(value), `${name} appears in the log`).toBe(false);
      expect(log.includes(encodeURIComponent(value)), `${name} (URL-encoded) appears in the log`).toBe(false);
    }
  });
  it('no probe value sent in a query reaches any log line; allow-listed values do, a credential nested in redirect_uri does not', async () => {
    const project = await t.createProject();
    const probes = ['id_token_hint', 'access_token', 'refresh_token', 'subject_token', 'id_token', 'password', 'handoff_token', 'token', 'code', 'state', 'client_secret', 'x_my_secret'];
    const secret = (name: string) => `probe-${name.replace(/_/g, '-')}-s3cr3t`;
    const query = probes.map((name) => `${name}=${secret(name)}`).join('&');
    const nested = encodeURIComponent('https://app.example.com/cb?code=nested-code-s3cr3t&lang=de');
    log = '';
    const answers = await Promise.all([
      // A page (the hosted UI), an OAuth endpoint, the JSON API, a route that does not exist, a 405.
      t.app.inject({ method: 'GET', url: `/ui/login?project_id=${project.id}&lang=de&${query}&redirect_uri=${nested}` }),
      t.app.inject({ method: 'GET', url: `/auth/userinfo?${query}` }),
      t.app.inject({ method: 'GET', url: `/auth/logout?client_id=cl_probe&${query}&post_logout_redirect_uri=${nested}` }),
      t.app.inject({ method: 'GET', url: `/projects/${project.id}?${query}`, headers: bearer(project.project_secret) }),
      t.app.inject({ method: 'GET', url: `/no/such/route?${query}` }),
      t.app.inject({ method: 'DELETE', url: `/healthz?${query}` }),
      t.app.inject({ method: 'GET', url: `/flow/sso/callback?${query}` }),
    ]);
    expect(answers.map((a) => a.statusCode).every((status) => status < 500)).toBe(true);
    const lines = log.split('\n').filter(Boolean);
    expect(lines.length).toBeGreaterThanOrEqual(answers.length);
    for (const name of probes) {
      expect(log.includes(secret(name)), `${name} appears in the log`).toBe(false);
      // The name stays: an operator sees which parameters came.
      expect(log).toContain(`${name}=[redacted]`);
    }
    expect(log.includes('nested-code-s3cr3t'), 'a code inside redirect_uri appears in the log').toBe(false);
    expect(log).toContain(`/ui/login?project_id=${project.id}&lang=de&`);
    expect(log).toContain('client_id=cl_probe');
  });

  it('the embedded courier logs recipient, template, id and the command that reads it, never the subject, the body or its code; the outbox API holds the message', async () => {
    const project = await t.createProject();
    const email = 'mailed@example.com';
    expect((await registerThroughFlow(t, project.id, email)).statusCode).toBe(200);
    const client = new FlowClient(t, '203.0.113.77');
    const started = (await client.start({ project_id: project.id, purpose: 'recovery' })).json();
    log = '';
    expect((await client.submit(started.id, 'send_code', { email })).statusCode).toBe(200);
    await t.container.flows.courier.flush();
    const outbox = await t.app.inject({ method: 'GET', url: `/projects/${project.id}/outbox?recipient=${encodeURIComponent(email)}`, headers: bearer(project.project_secret) });
    expect(outbox.statusCode, outbox.body).toBe(200);
    const [message] = outbox.json().messages;
    expect(message).toMatchObject({ recipient: email, template: 'recovery_code', status: 'logged' });
    const code = /\b(\d{6})\b/.exec(message.body)![1];
    const line = log.split('\n').find((entry) => entry.includes('embedded courier'));
    expect(line).toBeDefined();
    expect(JSON.parse(line!)).toMatchObject({ mail_id: message.id, to: email, template: 'recovery_code', read_with: `gatehouse mail list --project ${project.id}` });
    expect(JSON.parse(line!).msg).toContain(`read it with: gatehouse mail list --project ${project.id}`);
    expect(Object.keys(JSON.parse(line!))).not.toContain('body');
    // A project's template may put the code in the subject: the subject stays out of the log.
    expect(line!.includes(message.subject), 'the subject appears in the log').toBe(false);
    for (const text of message.body.split('\n').filter((l: string) => l.trim().length > 12 && l.trim() !== message.subject)) expect(log.includes(text), `mail text "${text}" in the log`).toBe(false);
    expect(log.includes(code), 'the mailed code appears in the log').toBe(false);
    // Another project's secret reads nothing of this outbox.
    const other = await t.createProject();
    expect((await t.app.inject({ method: 'GET', url: `/projects/${project.id}/outbox`, headers: bearer(other.project_secret) })).statusCode).toBe(404);
  });
});
