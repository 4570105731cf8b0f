import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerThroughFlow, STRONG_PASSWORD } from '../src/flows/flow-test-kit.js';
import { createLogger, redactCredentials } from '../src/http/log-redaction.js';
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

  it('redacts each credential-bearing parameter, also percent-encoded inside another URL', () => {
    expect(redactCredentials('/auth/authorize/resume?authorization_id=a&handoff_token=gh_ho_x1&x=2')).toBe('/auth/authorize/resume?authorization_id=a&handoff_token=[REDACTED]&x=2');
    expect(redactCredentials('"url":"/cb?code=abc&state=s1#f"')).toBe('"url":"/cb?code=[REDACTED]&state=[REDACTED]#f"');
    expect(redactCredentials('/x?token=t&code_verifier=v&client_secret=c')).toBe('/x?token=[REDACTED]&code_verifier=[REDACTED]&client_secret=[REDACTED]');
    expect(redactCredentials('/a?redirect_uri=https%3A%2F%2Fapp%2Fcb%3Fcode%3Dsecret%26x%3D1')).toBe('/a?redirect_uri=https%3A%2F%2Fapp%2Fcb%3Fcode%3D[REDACTED]%26x%3D1');
    // Names that only end like a credential parameter are left alone.
    expect(redactCredentials('/x?error_code=1&mytoken=2')).toBe('/x?error_code=1&mytoken=2');
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
    expect(log).toContain('handoff_token=[REDACTED]');
    const secrets = { handoff_token: handoff, state, code, code_verifier: verifier, client_secret: client.client_secret, access_token: accessToken, refresh_token: refreshToken, password: STRONG_PASSWORD };
    for (const [name, value] of Object.entries(secrets)) {
      expect(value.length, name).toBeGreaterThan(8);
      expect(log.includes(value), `${name} appears in the log`).toBe(false);
      expect(log.includes(encodeURIComponent(value)), `${name} (URL-encoded) appears in the log`).toBe(false);
    }
  });
});
