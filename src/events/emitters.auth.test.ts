import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, type TestApp } from '../../test/helpers/app.js';
import { testEngineKind } from '../../test/helpers/engine.js';
import { FlowClient, registerThroughFlow, STRONG_PASSWORD } from '../flows/flow-test-kit.js';
import { basic, exchangeSession, loginHandoff, postForm, userSession } from '../oauth/testing.js';
import { sessionCookie } from '../sessions/test-fixtures.js';
import { eventsOf } from './test-kit.js';

const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) EventsTest/1.0';

/** Sign-ins, failures, registrations, recoveries, sessions and tokens: the events of the auth plane. */
describe(`the auth plane's events (${testEngineKind()})`, () => {
  let t: TestApp;
  let project: { id: string; project_secret: string; preview_secret: string };
  let userId: string;
  const latest = async (type: string) => (await eventsOf(t, project.id, { type }))[0];

  beforeAll(async () => {
    t = await createTestApp();
    project = await t.createProject('Auth');
    const registered = await registerThroughFlow(t, project.id, 'member@example.com');
    if (registered.statusCode !== 200) throw new Error(registered.body);
    userId = (await t.container.users.findByIdentifier(project.id, undefined, 'member@example.com'))!.id;
  });
  afterAll(async () => t.close());

  it('registration: user.created and the password, acted by the user itself', async () => {
    const events = (await eventsOf(t, project.id, { subject_id: userId })).reverse();
    expect(events.map((event) => [event.type, event.actor])).toEqual([
      ['user.created', { kind: 'self', id: userId }],
      ['credential.added', { kind: 'self', id: userId }],
    ]);
    expect(events[1].data).toEqual({ method: 'password', credential_id: expect.stringMatching(/^cred_/) });
  });

  it('login.failed carries the reason, method, IP and user agent, never the password or the typed identifier', async () => {
    const client = new FlowClient(t, '198.51.100.23');
    const headers = { 'user-agent': BROWSER };
    const started = (await client.start({ project_id: project.id, purpose: 'login' }, headers)).json();
    const atPassword = (await client.submit(started.id, 'continue', { email: 'member@example.com' }, {}, headers)).json();
    expect((await client.submit(atPassword.id, 'sign_in', { password: 'wrong password 123' }, {}, headers)).statusCode).toBe(400);
    const failed = await latest('login.failed');
    expect(failed).toMatchObject({
      actor: { kind: 'system', id: null },
      subject: { kind: 'user', id: userId },
      data: { reason: 'invalid_credentials', method: 'password', ip: '198.51.100.23', user_agent: BROWSER, flow_id: expect.stringMatching(/^flow_/) },
    });
    expect(JSON.stringify(failed)).not.toMatch(/wrong password|\$argon2/);

    // An identifier that names nobody: the subject is null, and the address is not kept.
    const stranger = new FlowClient(t, '198.51.100.24');
    const other = (await stranger.start({ project_id: project.id, purpose: 'login' }, headers)).json();
    const next = (await stranger.submit(other.id, 'continue', { email: 'nobody-here@example.com' }, {}, headers)).json();
    expect(next.step.name, JSON.stringify(next)).toBe('password');
    t.clock.advance(1000);
    expect((await stranger.submit(next.id, 'sign_in', { password: 'wrong password 123' }, {}, headers)).statusCode).toBe(400);
    const unknown = await latest('login.failed');
    expect(unknown).toMatchObject({ subject: { kind: 'user', id: null }, data: { reason: 'unknown_account', method: 'password', ip: '198.51.100.24' } });
    expect(JSON.stringify(unknown)).not.toContain('nobody-here');
  });

  it('user.locked with the login.failed of the guess that earns a lock (defaults: the 5th for 10 s), none while it holds, a new one for the longer lock after it', async () => {
    const registered = await registerThroughFlow(t, project.id, 'locked@example.com');
    expect(registered.statusCode).toBe(200);
    const lockedId = (await t.container.users.findByIdentifier(project.id, undefined, 'locked@example.com'))!.id;
    const client = new FlowClient(t, '198.51.100.31');
    const started = (await client.start({ project_id: project.id, purpose: 'login' })).json();
    const atPassword = (await client.submit(started.id, 'continue', { email: 'locked@example.com' })).json();
    const guess = async () => expect((await client.submit(atPassword.id, 'sign_in', { password: 'wrong password 123' })).statusCode).toBe(400);
    const locks = async () => eventsOf(t, project.id, { type: 'user.locked', subject_id: lockedId });
    for (let i = 0; i < 4; i++) await guess();
    expect(await locks()).toEqual([]);
    await guess();
    const first = await locks();
    expect(first).toHaveLength(1);
    const lockedUntil = new Date(t.clock.now().getTime() + 10_000).toISOString();
    expect(first[0]).toMatchObject({ actor: { kind: 'system', id: null }, subject: { kind: 'user', id: lockedId }, data: { method: 'password', failures: 5, locked_until: lockedUntil, disabled: false, flow_id: atPassword.id } });
    // Guesses at a locked factor are not taken: login.failed says blocked, and nothing is locked anew.
    await guess();
    expect((await eventsOf(t, project.id, { type: 'login.failed', subject_id: lockedId }))[0].data).toMatchObject({ reason: 'blocked' });
    expect(await locks()).toHaveLength(1);
    t.clock.advance(11_000);
    await guess();
    const second = await locks();
    expect(second).toHaveLength(2);
    expect(second[0].data).toMatchObject({ failures: 6, locked_until: new Date(t.clock.now().getTime() + 20_000).toISOString(), disabled: false });
  });

  it('a sign-in: session.created and login.succeeded with the exchange; a logout is session.revoked by the user', async () => {
    const handoff = await loginHandoff(t, project.id, 'member@example.com');
    t.clock.advance(1000);
    const exchanged = await t.app.inject({ method: 'POST', url: `/sessions/exchange?project_id=${project.id}`, headers: bearer(project.project_secret), payload: { handoff_token: handoff } });
    expect(exchanged.statusCode).toBe(200);
    const { session, session_token } = exchanged.json();
    const created = await latest('session.created');
    expect(created).toMatchObject({ actor: { kind: 'self', id: userId }, subject: { kind: 'session', id: session.session_id }, data: { user_id: userId, methods: ['password'] } });
    expect(await latest('login.succeeded')).toMatchObject({ subject: { kind: 'user', id: userId }, data: { session_id: session.session_id, methods: ['password'], step_up: false } });
    // A replayed handoff token changes nothing and logs nothing.
    const before = (await eventsOf(t, project.id)).length;
    expect((await t.app.inject({ method: 'POST', url: `/sessions/exchange?project_id=${project.id}`, headers: bearer(project.project_secret), payload: { handoff_token: handoff } })).statusCode).toBe(404);
    expect((await eventsOf(t, project.id)).length).toBe(before);

    t.clock.advance(1000);
    const logout = await t.app.inject({ method: 'DELETE', url: '/sessions/me', headers: { ...sessionCookie(session_token), origin: t.container.config.publicUrl } });
    expect(logout.statusCode).toBe(204);
    expect(await latest('session.revoked')).toMatchObject({ actor: { kind: 'self', id: userId }, subject: { kind: 'session', id: session.session_id }, data: { user_id: userId, reason: 'logout' } });
    expect(JSON.stringify(await eventsOf(t, project.id))).not.toMatch(/gh_(st|ho)_/);
  });

  it('recovery.requested, for a known and an unknown address alike (the unknown one names nobody)', async () => {
    for (const email of ['member@example.com', 'nobody-at-all@example.com']) {
      const client = new FlowClient(t);
      const started = (await client.start({ project_id: project.id, purpose: 'recovery' })).json();
      t.clock.advance(1000);
      expect((await client.submit(started.id, 'send_code', { email })).statusCode).toBe(200);
    }
    const [unknown, known] = await eventsOf(t, project.id, { type: 'recovery.requested' });
    expect(known).toMatchObject({ subject: { kind: 'user', id: userId }, data: { method: 'recovery_by_mail', known_account: true } });
    expect(unknown).toMatchObject({ subject: { kind: 'user', id: null }, data: { method: 'recovery_by_mail', known_account: false } });
    expect(JSON.stringify([known, unknown])).not.toContain('nobody-at-all');
  });

  it('oauth.token_revoked names the token and the revoking client, once', async () => {
    const s = await userSession(t, project);
    const tokens = (await exchangeSession(t, s)).json();
    t.clock.advance(1000);
    expect((await postForm(t, '/auth/revoke', { token: tokens.access_token }, basic(s.key.client_id, s.key.client_secret))).statusCode).toBe(200);
    expect((await postForm(t, '/auth/revoke', { token: tokens.access_token }, basic(s.key.client_id, s.key.client_secret))).statusCode).toBe(200);
    const revoked = await eventsOf(t, project.id, { type: 'oauth.token_revoked' });
    expect(revoked).toHaveLength(1);
    expect(revoked[0]).toMatchObject({ actor: { kind: 'service_key', id: s.key.client_id }, subject: { kind: 'user', id: s.userId }, data: { token_type: 'access_token', client_id: s.key.client_id, user_id: s.userId, token_id: expect.stringMatching(/^tok_/), reason: 'revoked' } });
    expect(JSON.stringify(revoked)).not.toContain(tokens.access_token);
  });

  it('a reused refresh token revokes its grant: oauth.token_revoked by Gatehouse (reuse_detected), once', async () => {
    const s = await userSession(t, project);
    const first = (await exchangeSession(t, s)).json();
    const refresh = (token: string) => postForm(t, '/auth/token', { grant_type: 'refresh_token', refresh_token: token }, basic(s.key.client_id, s.key.client_secret));
    expect((await refresh(first.refresh_token)).statusCode).toBe(200);
    const before = (await eventsOf(t, project.id, { type: 'oauth.token_revoked' })).length;
    t.clock.advance(1000);
    expect((await refresh(first.refresh_token)).statusCode).toBe(400);
    expect((await refresh(first.refresh_token)).statusCode).toBe(400);
    const revoked = await eventsOf(t, project.id, { type: 'oauth.token_revoked' });
    expect(revoked.length).toBe(before + 1);
    expect(revoked[0]).toMatchObject({ actor: { kind: 'system', id: null }, subject: { kind: 'user', id: s.userId }, data: { token_type: 'refresh_token', client_id: s.key.client_id, user_id: s.userId, reason: 'reuse_detected' } });
    expect(JSON.stringify(revoked)).not.toContain(first.refresh_token);
  });

  it('the settings flow: password.changed and mfa.enabled by the user; a step-up is login.succeeded without a new session', async () => {
    const handoff = await loginHandoff(t, project.id, 'member@example.com');
    const { session, session_token } = (await t.app.inject({ method: 'POST', url: `/sessions/exchange?project_id=${project.id}`, headers: bearer(project.project_secret), payload: { handoff_token: handoff } })).json();
    const client = new FlowClient(t);
    const menu = await client.start({ project_id: project.id, purpose: 'settings', session_id: session.session_id }, bearer(session_token));
    expect(menu.json().step.name, menu.body).toBe('menu');
    const form = await client.submit(menu.json().id, 'change_password');
    t.clock.advance(1000);
    expect((await client.submit(form.json().id, 'save', { password: `${STRONG_PASSWORD} renewed` })).statusCode).toBe(200);
    expect(await latest('password.changed')).toMatchObject({ actor: { kind: 'self', id: userId }, subject: { kind: 'user', id: userId }, data: {} });
    const codes = await client.submit(menu.json().id, 'new_recovery_codes');
    t.clock.advance(1000);
    const generated = await client.submit(codes.json().id, 'generate');
    expect(generated.statusCode, generated.body).toBe(200);
    expect(await latest('mfa.enabled')).toMatchObject({ actor: { kind: 'self', id: userId }, data: { method: 'recovery_code', replaced: false } });
    expect(JSON.stringify(await eventsOf(t, project.id))).not.toContain(STRONG_PASSWORD);

    // A second factor proven for the signed-in session (an attempt that names it): a step-up.
    const sessionsBefore = (await eventsOf(t, project.id, { type: 'session.created' })).length;
    const { handoffFor } = await import('../sessions/test-fixtures.js');
    const stepUpHandoff = await handoffFor(t, project.id, userId, { sessionId: session.session_id, factors: [{ method: 'recovery_code' }] });
    t.clock.advance(1000);
    const stepUp = await t.app.inject({ method: 'POST', url: `/sessions/exchange?project_id=${project.id}`, headers: bearer(project.project_secret), payload: { handoff_token: stepUpHandoff.token } });
    expect(stepUp.statusCode, stepUp.body).toBe(200);
    expect(stepUp.json().session.session_id).toBe(session.session_id);
    expect(await latest('login.succeeded')).toMatchObject({ data: { session_id: session.session_id, methods: ['recovery_code'], step_up: true } });
    expect((await eventsOf(t, project.id, { type: 'session.created' })).length).toBe(sessionsBefore);
  });
});
