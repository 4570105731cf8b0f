import * as OTPAuth from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newTotpSecret } from '../../../mfa/totp.js';
import { bearer } from '../../../../test/helpers/app.js';
import { STRONG_PASSWORD } from '../../flow-test-kit.js';
import { PROVIDER, SETTINGS_APP, ssoKit, ssoSchema, type SsoKit } from './sso-test-kit.js';

describe('SSO sign-in through a real upstream OpenID provider', () => {
  let kit: SsoKit;
  beforeAll(async () => {
    kit = await ssoKit();
  });
  afterAll(async () => kit.close());

  const credentials = async (userId: string) =>
    (await kit.t.app.inject({ method: 'GET', url: `/users/${userId}/credentials`, headers: bearer(kit.project.project_secret) })).json().credentials as Array<{ id: string; method: string; name: string }>;
  const user = async (userId: string) => (await kit.t.app.inject({ method: 'GET', url: `/users/${userId}`, headers: bearer(kit.project.project_secret) })).json();

  it('lists the provider on the step and sends the browser upstream with PKCE S256, state and nonce', async () => {
    const browser = kit.browser();
    const flow = await (await browser.fetch(`${kit.origin}/flow`, { method: 'POST', json: { project_id: kit.project.id, purpose: 'sso_login' } })).json();
    expect(flow.step.sso_providers).toEqual([{ id: PROVIDER, name: 'Acme', template: 'oidc' }]);
    const answer = await browser.fetch(`${kit.origin}/flow/${flow.id}/submit`, { method: 'POST', json: { action: 'sso', sso_provider_id: PROVIDER, return_to: `${kit.origin}/back` } });
    expect(answer.status).toBe(200);
    const body = await answer.json();
    expect(body.step.name).toBe('start');
    const upstream = new URL(body.redirect_uri);
    expect(upstream.origin).toBe(kit.upstream.issuer);
    expect(Object.fromEntries(upstream.searchParams)).toMatchObject({
      response_type: 'code',
      client_id: kit.upstream.clientId,
      redirect_uri: `${kit.origin}/flow/sso/callback`,
      code_challenge_method: 'S256',
      scope: 'openid email profile',
    });
    for (const name of ['state', 'nonce', 'code_challenge']) expect(upstream.searchParams.get(name)).toMatch(/^[A-Za-z0-9_-]{43,}$/);
    const binding = answer.headers.getSetCookie().find((c) => c.startsWith('_zsso='))!;
    expect(binding).toMatch(/HttpOnly/i);
    expect(binding).toMatch(/SameSite=Lax/i);
    expect(binding).toMatch(/Max-Age=600/);
  });

  it('refuses definitions whose SSO steps cannot work, naming the step', async () => {
    const define = (step: Record<string, unknown>, schema = 'https://example.com/schemas/sso-user') =>
      kit.t.app.inject({
        method: 'POST',
        url: '/flow_definitions',
        headers: bearer(kit.project.project_secret),
        payload: { project_id: kit.project.id, schema_uri: schema, flow_definition: { name: `bad-${Math.random()}`.replace('.', ''), user_schema: schema, purposes: { bad: 'start' }, steps: [{ name: 'start', ...step }, { name: 'done', complete: 'show' }] } },
      });
    const sso = { name: 'sso', kind: 'sso' };
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ actions: [sso], sso_providers: [PROVIDER], transitions: { sso: { target: 'done' } } }, 'callback'],
      [{ actions: [sso], transitions: { callback: { target: 'done' } } }, 'needs sso_providers'],
      [{ actions: [{ name: 'go', kind: 'submit' }], sso_providers: [PROVIDER], transitions: { go: { target: 'done' } } }, 'of kind "sso"'],
    ];
    for (const [step, message] of cases) {
      const refused = await define(step);
      expect(refused.statusCode, refused.body).toBe(400);
      expect(refused.json().code).toBe('flowdef.invalid');
      expect(refused.json().details.errors.map((e: { message: string }) => e.message).join(" / ")).toContain(message);
    }
    const without: Record<string, unknown> = { ...ssoSchema(), $id: 'https://example.com/schemas/no-sso' };
    without['x-auth-methods'] = { password: { enabled: true }, sso: { enabled: false } };
    expect((await kit.t.app.inject({ method: 'POST', url: `/schemas?project_id=${kit.project.id}`, headers: bearer(kit.project.project_secret), payload: without })).statusCode).toBe(201);
    const disabled = await define({ actions: [sso], sso_providers: [PROVIDER], transitions: { callback: { target: 'done' } } }, 'https://example.com/schemas/no-sso');
    expect(disabled.statusCode).toBe(400);
    expect(JSON.stringify(disabled.json().details.errors)).toContain('not enabled');
    const fine = await define({ actions: [sso], sso_providers: [PROVIDER, 'later'], transitions: { callback: { target: 'done' } } });
    expect(fine.statusCode, fine.body).toBe(201);
  });

  it('creates an unknown identity just in time from the mapped claims, linked, e-mail verified; the same identity signs in again', async () => {
    kit.upstream.accounts.set('jit-1', { email: 'Jit.One@example.com', email_verified: true, given_name: 'Jit', family_name: 'One' });
    const first = await kit.journey(kit.browser(), 'sso_login', 'jit-1');
    expect(first.callback.status).toBe(303);
    expect(first.callback.headers.get('location')).toBe(`${kit.origin}/back?flow=${first.flowId}`);
    expect(first.after!.status).toBe(200);
    expect(first.after!.body.step).toMatchObject({ name: 'done', type: 'complete' });
    const session = await kit.exchange(first.after!.body.handoff_token!);
    expect(session.factors).toEqual([expect.objectContaining({ method: 'sso', payload: expect.objectContaining({ provider_id: PROVIDER, subject: 'jit-1', user_id: session.user_id }) })]);
    const created = await user(session.user_id);
    expect(created.attributes).toMatchObject({ email: 'Jit.One@example.com', name: { given: 'Jit', family: 'One' } });
    expect(created.metadata.verified?.email).toEqual(expect.any(String));
    const links = await credentials(session.user_id);
    expect(links).toEqual([expect.objectContaining({ method: 'sso', name: 'Acme (Jit.One@example.com)' })]);

    const again = await kit.journey(kit.browser(), 'sso_login', 'jit-1');
    const second = await kit.exchange(again.after!.body.handoff_token!);
    expect(second.user_id).toBe(session.user_id);
    const used = await credentials(session.user_id);
    expect(used).toHaveLength(1);
    expect(used[0]).toMatchObject({ last_used_at: expect.any(String) });
  });

  it('answers a completed flow once: a second read is 410 flow.completed', async () => {
    kit.upstream.accounts.set('jit-2', { email: 'jit.two@example.com', email_verified: true });
    const browser = kit.browser();
    const journey = await kit.journey(browser, 'sso_login', 'jit-2');
    expect(journey.after!.body.handoff_token).toEqual(expect.any(String));
    const again = await browser.fetch(`${kit.origin}/flow/${journey.flowId}`);
    expect(again.status).toBe(410);
    expect((await again.json()).code).toBe('flow.completed');
  });

  it('sends an unknown identity to a registration step prefilled from the claims (user_not_found), and links it with the new user', async () => {
    kit.upstream.accounts.set('new-1', { email: 'new.one@example.com', email_verified: true, given_name: 'Nia' });
    const browser = kit.browser();
    const journey = await kit.journey(browser, 'sso_signup', 'new-1');
    expect(journey.after!.body.step.name).toBe('register');
    expect(journey.after!.body.step.fields).toEqual([
      expect.objectContaining({ name: 'email', value: 'new.one@example.com' }),
      expect.objectContaining({ name: 'name.given', value: 'Nia' }),
    ]);
    const created = await kit.submit(browser, journey.after!.body.id, { action: 'create', fields: { email: 'new.one@example.com', 'name.given': 'Nia' } });
    expect(created.status).toBe(200);
    const session = await kit.exchange(created.body.handoff_token!);
    expect(session.factors.map((f) => f.method)).toEqual(['sso']);
    expect((await credentials(session.user_id)).map((c) => c.method)).toEqual(['sso']);
    expect((await user(session.user_id)).metadata.verified?.email).toEqual(expect.any(String));
    const again = await kit.journey(kit.browser(), 'sso_login', 'new-1');
    expect((await kit.exchange(again.after!.body.handoff_token!)).user_id).toBe(session.user_id);
  });

  it('never links a verified e-mail of an existing user silently: link_account asks for the password first', async () => {
    const userId = await kit.createUser('owner@example.com');
    kit.upstream.accounts.set('owner-up', { email: 'owner@example.com', email_verified: true });
    const browser = kit.browser();
    const journey = await kit.journey(browser, 'sso_login', 'owner-up');
    expect(journey.after!.body.step.name).toBe('link_account');
    expect(await credentials(userId)).toEqual([expect.objectContaining({ method: 'password' })]);
    const wrong = await kit.submit(browser, journey.after!.body.id, { action: 'confirm', fields: { password: 'not the password at all' } });
    expect(wrong.status).toBe(400);
    expect(wrong.body.code).toBe('flow.invalid_credentials');
    expect((await credentials(userId)).map((c) => c.method)).toEqual(['password']);
    const linked = await kit.submit(browser, journey.after!.body.id, { action: 'confirm', fields: { password: STRONG_PASSWORD } });
    expect(linked.status).toBe(200);
    const session = await kit.exchange(linked.body.handoff_token!);
    expect(session.user_id).toBe(userId);
    expect(session.factors.map((f) => f.method).sort()).toEqual(['password', 'sso']);
    expect((await credentials(userId)).map((c) => c.method).sort()).toEqual(['password', 'sso']);
    // Linked now: the next upstream sign-in goes straight through.
    const next = await kit.journey(kit.browser(), 'sso_login', 'owner-up');
    expect(next.after!.body.step.name).toBe('done');
    expect((await kit.exchange(next.after!.body.handoff_token!)).user_id).toBe(userId);
  });

  it('links at once only when the operator trusts verified e-mails (link: verified_email) and the account verified its address too', async () => {
    await kit.setProvider({ link: 'verified_email' });
    try {
      const unverified = await kit.createUser('trust.unverified@example.com');
      kit.upstream.accounts.set('trust-1', { email: 'trust.unverified@example.com', email_verified: true });
      expect((await kit.journey(kit.browser(), 'sso_login', 'trust-1')).after!.body.step.name).toBe('link_account');
      expect((await credentials(unverified)).map((c) => c.method)).toEqual(['password']);

      const verified = await kit.createUser('trust.verified@example.com', { verified: true });
      kit.upstream.accounts.set('trust-2', { email: 'trust.verified@example.com', email_verified: true });
      const journey = await kit.journey(kit.browser(), 'sso_login', 'trust-2');
      expect(journey.after!.body.step.name).toBe('done');
      expect((await kit.exchange(journey.after!.body.handoff_token!)).user_id).toBe(verified);
    } finally {
      await kit.setProvider({ link: 'none' });
    }
  });

  it('removes a link through the credentials API; the identity is then unknown again', async () => {
    kit.upstream.accounts.set('gone-1', { email: 'gone@example.com', email_verified: true });
    const first = await kit.exchange((await kit.journey(kit.browser(), 'sso_login', 'gone-1')).after!.body.handoff_token!);
    const [link] = await credentials(first.user_id);
    const removed = await kit.t.app.inject({ method: 'DELETE', url: `/users/${first.user_id}/credentials/${link.id}`, headers: bearer(kit.project.project_secret) });
    expect(removed.statusCode).toBe(204);
    expect(await kit.t.container.db.selectFrom('sso_links').selectAll().where('user_id', '=', first.user_id).execute()).toEqual([]);
    // Unlinked, its verified e-mail now belongs to an existing user: never linked silently.
    expect((await kit.journey(kit.browser(), 'sso_login', 'gone-1')).after!.body.step.name).toBe('link_account');
  });
});

describe('SSO in settings: a signed-in user connects another identity', () => {
  let kit: SsoKit;
  beforeAll(async () => {
    kit = await ssoKit();
  });
  afterAll(async () => kit.close());

  /** Runs the settings flow of `session` up to the sso callback for `subject`, and reads where it went. */
  const connect = async (session: { session_id: string; token: string }, subject: string) => {
    const browser = kit.browser();
    const started = await browser.fetch(`${kit.origin}/flow`, { method: 'POST', json: { project_id: kit.project.id, purpose: 'settings', app_id: SETTINGS_APP, session_id: session.session_id }, headers: { authorization: `Bearer ${session.token}` } });
    const flow = await started.json();
    expect(started.status, JSON.stringify(flow)).toBe(200);
    expect(flow.step.name).toBe('menu');
    const sent = await kit.submit(browser, flow.id, { action: 'sso', sso_provider_id: PROVIDER, return_to: `${kit.origin}/back` });
    kit.upstream.signInAs(subject);
    const callback = await browser.fetch(await browser.followUntil(sent.body.redirect_uri!, `${kit.origin}/flow/sso/callback`));
    expect(callback.status).toBe(303);
    return { browser, ...(await kit.after(browser, callback)) };
  };
  const methods = async (userId: string) =>
    ((await kit.t.app.inject({ method: 'GET', url: `/users/${userId}/credentials`, headers: bearer(kit.project.project_secret) })).json().credentials as Array<{ method: string; name: string }>).map((c) => c.name);

  it('links a second identity to the signed-in user, unlinks it, refuses one linked to someone else, and asks for a recent sign-in', async () => {
    kit.upstream.accounts.set('home', { email: 'home@example.com', email_verified: true });
    kit.upstream.accounts.set('work', { email: 'home.work@example.com', email_verified: true });
    kit.upstream.accounts.set('stranger', { email: 'stranger@example.com', email_verified: true });
    const me = await kit.exchange((await kit.journey(kit.browser(), 'sso_login', 'home')).after!.body.handoff_token!);
    await kit.exchange((await kit.journey(kit.browser(), 'sso_login', 'stranger')).after!.body.handoff_token!);

    const linked = await connect(me, 'work');
    expect(linked.body.step.name).toBe('menu');
    expect(linked.body.step.error).toBeUndefined();
    expect((await methods(me.user_id)).sort()).toEqual(['Acme (home.work@example.com)', 'Acme (home@example.com)']);
    // The settings step lists the links to choose from, and the new link signs the same user in.
    const work = linked.body.step.credentials!.find((c) => c.name === 'Acme (home.work@example.com)')!;
    expect(work.method).toBe('sso');
    expect((await kit.exchange((await kit.journey(kit.browser(), 'sso_login', 'work')).after!.body.handoff_token!)).user_id).toBe(me.user_id);

    // Unlinked in settings: the identity is unknown again (a new user would be created for it).
    const removed = await kit.submit(linked.browser, linked.body.id, { action: 'remove_credential', fields: { credential_id: work.id } });
    expect(removed.status, JSON.stringify(removed.body)).toBe(200);
    expect(await methods(me.user_id)).toEqual(['Acme (home@example.com)']);
    expect(await kit.t.container.db.selectFrom('sso_links').select('subject').where('user_id', '=', me.user_id).execute()).toEqual([{ subject: 'home' }]);

    const taken = await connect(me, 'stranger');
    expect(taken.body.step).toMatchObject({ name: 'menu', error: 'error.sso_account_exists' });
    expect(await methods(me.user_id)).toHaveLength(1);

    kit.t.clock.advance(16 * 60_000);
    kit.upstream.accounts.set('late', { email: 'late@example.com', email_verified: true });
    const stale = await connect(me, 'late');
    expect(stale.body.step).toMatchObject({ name: 'menu', error: 'error.sso_failed' });
    expect(await methods(me.user_id)).toHaveLength(1);
  });
});

describe('SSO in the default definitions: one PUT of a provider is all a project needs', () => {
  let kit: SsoKit;
  beforeAll(async () => {
    kit = await ssoKit();
  });
  afterAll(async () => kit.close());

  it('offers every enabled provider on the default login, register and settings steps, and signs up and in through the login flow', async () => {
    const fresh = await kit.t.createProject('Defaults');
    const browser = kit.browser();
    const start = async (purpose: string) => (await (await browser.fetch(`${kit.origin}/flow`, { method: 'POST', json: { project_id: fresh.id, purpose } })).json()).step;
    const before = await start('login');
    expect(before.sso_providers).toEqual([]);
    expect(before.actions.map((a: { kind: string }) => a.kind)).toContain('sso');

    const put = await kit.t.app.inject({
      method: 'PUT',
      url: `/projects/${fresh.id}/sso_providers/${PROVIDER}`,
      headers: bearer(fresh.project_secret),
      payload: { name: 'Acme', template: 'oidc', issuer: kit.upstream.issuer, client_id: kit.upstream.clientId, client_secret: kit.upstream.clientSecret },
    });
    expect(put.statusCode).toBe(201);
    for (const purpose of ['login', 'register']) expect((await start(purpose)).sso_providers).toEqual([{ id: PROVIDER, name: 'Acme', template: 'oidc' }]);

    kit.upstream.accounts.set('default-1', { email: 'default.one@example.com', email_verified: true, given_name: 'Dee' });
    // Signed up from the register page; then signed in from the login page.
    const signedUp = await kit.journey(kit.browser(), 'register', 'default-1', { projectId: fresh.id });
    expect(signedUp.after!.body.step.name).toBe('done');
    const first = await kit.journey(kit.browser(), 'login', 'default-1', { projectId: fresh.id });
    expect(first.after!.body.step.name).toBe('done');
    expect(first.after!.body.handoff_token).toEqual(expect.any(String));

    // A user who enrolled TOTP is asked for it after the upstream sign-in too.
    const userId = (await kit.exchange(first.after!.body.handoff_token!, fresh)).user_id;
    const secret = newTotpSecret();
    const code = () => new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret) }).generate({ timestamp: kit.t.clock.now().getTime() });
    expect(await kit.t.container.totp.enable(fresh.id, userId, secret, code())).toBe(true);
    kit.t.clock.advance(30_000);
    const browserWithTotp = kit.browser();
    const second = await kit.journey(browserWithTotp, 'login', 'default-1', { projectId: fresh.id });
    expect(second.after!.body.step.name).toBe('totp');
    expect(second.after!.body.handoff_token).toBeUndefined();
    const verified = await kit.submit(browserWithTotp, second.after!.body.id, { action: 'verify', fields: { totp: code() } });
    expect(verified.status, JSON.stringify(verified.body)).toBe(200);
    const session = await kit.exchange(verified.body.handoff_token!, fresh);
    expect(session.user_id).toBe(userId);
    expect(session.factors.map((f) => f.method).sort()).toEqual(['sso', 'totp']);

    // A disabled provider disappears from the steps at once.
    await kit.t.app.inject({
      method: 'PUT',
      url: `/projects/${fresh.id}/sso_providers/${PROVIDER}`,
      headers: bearer(fresh.project_secret),
      payload: { name: 'Acme', template: 'oidc', issuer: kit.upstream.issuer, client_id: kit.upstream.clientId, enabled: false },
    });
    expect((await start('login')).sso_providers).toEqual([]);
  });
});
