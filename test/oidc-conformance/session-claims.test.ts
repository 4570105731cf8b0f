import { createHash } from 'node:crypto';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MINUTE } from '../../src/core/clock.js';
import { postForm } from '../../src/oauth/testing.js';
import type { TestApp } from '../helpers/app.js';
import { conformanceRp, location } from './rp-kit.js';

const REDIRECT = 'https://rp.example.com/cb';
const VERIFIER = 'c'.repeat(43);

/**
 * OpenID Connect conformance checks on how the user signed in (OIDC Core §2, §3.1.2.1, §3.1.3.6,
 * §12), each test named after the OpenID Foundation test module it mirrors.
 */
describe('OIDC conformance: auth_time, acr, amr, max_age, prompt, POST', () => {
  let t: TestApp;
  let rp: Awaited<ReturnType<typeof conformanceRp>>;

  beforeAll(async () => {
    rp = await conformanceRp({ email: 'conformance@example.com', redirect: REDIRECT, verifier: VERIFIER, scope: 'openid email' });
    ({ t } = rp);
  });
  afterAll(async () => t.close());

  const params = (extra: Record<string, string> = {}) => rp.params(extra);
  const authorize = (extra: Record<string, string> = {}, cookie?: string) => rp.authorize(extra, cookie);
  const redeem = async (code: string) => (await rp.redeem(code)).json();
  const signIn = async (extra: Record<string, string> = {}) => {
    const { tokens, session } = await rp.signIn(extra);
    return { tokens, cookie: `__service_session=${session}` };
  };

  it('oidcc-id-token-claims: auth_time, acr, amr, sid, at_hash and nonce as the session says', async () => {
    const { tokens } = await signIn();
    const claims = decodeJwt(tokens.id_token);
    expect(claims).toMatchObject({ acr: 'urn:nist:aal:1', amr: ['pwd'], nonce: 'n-1' });
    expect(claims.sid).toMatch(/^sess_/);
    expect(Math.abs((claims.auth_time as number) - t.clock.now().getTime() / 1000)).toBeLessThan(5);
    const digest = createHash('sha256').update(tokens.access_token).digest();
    expect(claims.at_hash).toBe(digest.subarray(0, 16).toString('base64url'));
  });

  it('oidcc-refresh-token: a refreshed ID token keeps auth_time, acr and amr of the session', async () => {
    const { tokens } = await signIn();
    const first = decodeJwt(tokens.id_token);
    t.clock.advance(2 * MINUTE);
    const refreshed = (await rp.token({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token })).json();
    const second = decodeJwt(refreshed.id_token);
    expect(second.auth_time).toBe(first.auth_time);
    expect(second.acr).toBe(first.acr);
    expect(second.amr).toEqual(first.amr);
    expect(second.sid).toBe(first.sid);
    expect(second.iat).toBeGreaterThan(first.iat as number);
  });

  it('oidcc-prompt-none-logged-in: a live session answers at once, with the auth_time of its sign-in (not of this request)', async () => {
    const { tokens, cookie } = await signIn();
    const signedInAt = decodeJwt(tokens.id_token).auth_time;
    t.clock.advance(MINUTE);
    const again = await authorize({ prompt: 'none' }, cookie);
    const code = location(again).searchParams.get('code');
    expect(code, again.headers.location as string).toMatch(/^gh_ac_/);
    expect(decodeJwt((await redeem(code!)).id_token).auth_time).toBe(signedInAt);
  });

  it('oidcc-max-age-1: a sign-in older than max_age is not reused (prompt=none answers login_required)', async () => {
    const { cookie } = await signIn();
    t.clock.advance(2_000);
    const none = await authorize({ prompt: 'none', max_age: '1' }, cookie);
    expect(location(none).searchParams.get('error')).toBe('login_required');
    const login = await authorize({ max_age: '1' }, cookie);
    expect(location(login).pathname).toBe('/ui/login');
    // The old session is stepped up, not replaced: the login page gets its id.
    expect(location(login).searchParams.get('session_id')).toMatch(/^sess_/);
  });

  it('oidcc-max-age-10000: a recent enough sign-in is reused', async () => {
    const { cookie } = await signIn();
    const reused = await authorize({ max_age: '10000' }, cookie);
    expect(location(reused).searchParams.get('code')).toMatch(/^gh_ac_/);
    const zero = await authorize({ max_age: '0' }, cookie);
    expect(location(zero).pathname).toBe('/ui/login');
  });

  it('oidcc-ensure-request-with-valid-acr-values: urn:nist:aal:2 on an AAL1 session asks for a sign-in', async () => {
    const { cookie } = await signIn();
    const stepUp = await authorize({ acr_values: 'urn:nist:aal:2' }, cookie);
    expect(location(stepUp).pathname).toBe('/ui/login');
    // The page learns why: the level asked (it explains and offers only what reaches it), for this session.
    expect(location(stepUp).searchParams.get('aal')).toBe('2');
    expect(location(stepUp).searchParams.get('session_id')).toMatch(/^sess_/);
    expect((await authorize({ acr_values: 'urn:nist:aal:1' }, cookie)).headers.location).toContain('code=gh_ac_');
    // Without a session there is nothing to step up: a plain sign-in, no `aal`.
    expect(location(await authorize({ acr_values: 'urn:nist:aal:2' })).searchParams.has('aal')).toBe(false);
  });

  it('oidcc-ui-locales and login_hint are passed to the login page', async () => {
    const started = await authorize({ ui_locales: 'fr-CA de en', login_hint: 'conformance@example.com' });
    const url = location(started);
    expect(url.searchParams.get('lang')).toBe('de');
    expect(url.searchParams.get('login_hint')).toBe('conformance@example.com');
  });

  it('oidcc-ensure-post-request-succeeds: the authorization endpoint takes a form POST', async () => {
    const posted = await postForm(t, '/auth/authorize', await params());
    expect(posted.statusCode, posted.body).toBe(303);
    expect(location(posted).pathname).toBe('/ui/login');
    expect(posted.cookies.some((c) => c.name === '__gh_authz')).toBe(true);
  });

  it('oidcc-response-mode-form-post: the response is an HTML form posted to the redirect URI (success and error)', async () => {
    const { cookie } = await signIn();
    const page = await authorize({ response_mode: 'form_post' }, cookie);
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers['content-security-policy']).toContain("form-action https://rp.example.com");
    expect(page.headers['content-security-policy']).not.toContain('unsafe-inline');
    expect(page.body).toContain(`<form method="post" action="${REDIRECT}">`);
    const code = /name="code" value="([^"]+)"/.exec(page.body)?.[1];
    expect(code).toMatch(/^gh_ac_/);
    expect(page.body).toContain('name="state" value="s-1"');
    expect(page.body).toContain('name="iss" value="');
    expect(page.body).toContain('<script src="/auth/form_post.js" defer></script>');
    expect((await redeem(code!)).id_token).toBeDefined();
    const script = await t.app.inject({ method: 'GET', url: '/auth/form_post.js' });
    expect(script.statusCode).toBe(200);
    expect(script.body).toContain('submit()');

    const none = await authorize({ response_mode: 'form_post', prompt: 'none' });
    expect(none.statusCode).toBe(200);
    expect(none.body).toContain('name="error" value="login_required"');

    // Through a login flow too: the resume answers with the form.
    const started = await authorize({ response_mode: 'form_post' });
    const resumed = await rp.resume(started);
    expect(resumed.statusCode).toBe(200);
    expect(resumed.body).toMatch(/name="code" value="gh_ac_/);
  });

  it('malformed max_age and unsupported response_mode are redirected errors, never 500', async () => {
    for (const [extra, error] of [[{ max_age: '-1' }, 'invalid_request'], [{ max_age: 'soon' }, 'invalid_request'], [{ response_mode: 'fragment' }, 'invalid_request']] as const) {
      const answer = await authorize(extra);
      expect(answer.statusCode).toBe(302);
      expect(location(answer).searchParams.get('error')).toBe(error);
    }
  });
});
