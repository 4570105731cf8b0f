import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { FLOW_COOKIE } from '../../src/flows/cookie.js';
import { FlowClient, registerThroughFlow, STRONG_PASSWORD } from '../../src/flows/flow-test-kit.js';
import { CODE_DEFINITIONS, mailedCode, otpSchema, SCHEMA_ID as OTP_SCHEMA_ID } from '../../src/flows/methods/otp/otp-flow-test-kit.js';
import { ORIGIN, PasskeyClient } from '../../src/flows/methods/passkey/passkey-flow-test-kit.js';
import { PROVIDER, SCHEMA_ID as SSO_SCHEMA_ID, SSO_DEFINITIONS, ssoSchema } from '../../src/flows/methods/sso/sso-test-kit.js';
import { SSO_COOKIE } from '../../src/flows/methods/sso/start.js';
import { codeAt } from '../../src/flows/methods/totp/mfa-flow-test-kit.js';
import { basic, challengeOf, loginHandoff, postForm } from '../../src/oauth/testing.js';
import { sessionCookie } from '../../src/sessions/test-fixtures.js';
import type { ReceivedMail } from '../../src/courier/test-smtp-server.js';
import { bearer, type TestApp } from './app.js';
import { Browser, type UpstreamIdp } from './upstream-idp.js';
import { SoftwareAuthenticator } from './webauthn-authenticator.js';

/**
 * The journeys test/generic-plans.test.ts runs before it reads every prepared statement's generic
 * plan: each drives one sign-in or account path through the HTTP API as a person or a backend
 * would, at least three times (src/db/prepared.ts names a statement on its third run), so that
 * every statement the path runs is prepared and checked. They share one app, served at ORIGIN
 * (where passkey ceremonies and SSO callbacks are bound), whose courier sends to `mail`.
 */
export interface PlanApp {
  t: TestApp;
  /** The project with the default schema and definitions (password, passkey, TOTP, recovery, settings). */
  project: { id: string; project_secret: string };
  /** The real SMTP server the courier sends to. */
  mail: { received: ReceivedMail[] };
}

export interface SignedIn {
  id: string;
  token: string;
  userId: string;
}

/** Exchanges a complete step's handoff token as the project's backend does; the session. */
export async function exchange(plan: PlanApp, done: LightMyRequestResponse, project = plan.project): Promise<SignedIn> {
  expect(done.statusCode, done.body).toBe(200);
  const exchanged = await plan.t.app.inject({ method: 'POST', url: `/sessions/exchange?project_id=${project.id}`, headers: bearer(project.project_secret), payload: { handoff_token: done.json().handoff_token } });
  expect(exchanged.statusCode, exchanged.body).toBe(200);
  const { session, session_token } = exchanged.json();
  return { id: session.session_id, token: session_token, userId: session.user_id };
}

/** The default login flow up to its answer to the password: complete, or the TOTP step. */
async function signInWithPassword(plan: PlanApp, client: FlowClient, email: string, password = STRONG_PASSWORD): Promise<LightMyRequestResponse> {
  const started = await client.start({ project_id: plan.project.id, purpose: 'login' });
  expect(started.statusCode, started.body).toBe(200);
  const identified = await client.submit(started.json().id, 'continue', { email });
  return client.submit(identified.json().id, 'sign_in', { password });
}

/** What a person does most: sign in with a password, hand the session off, use it; the sessions made. */
export async function passwordJourneys(plan: PlanApp, emails: string[], count: number): Promise<SignedIn[]> {
  const { t, project } = plan;
  const sessions = [];
  for (let i = 0; i < count; i++) {
    const session = await exchange(plan, await signInWithPassword(plan, new FlowClient(t, `203.0.113.${20 + i}`), emails[i % emails.length]));
    expect((await t.app.inject({ method: 'GET', url: '/sessions/me', headers: sessionCookie(session.token) })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: `/users/${session.userId}`, headers: bearer(project.project_secret) })).statusCode).toBe(200);
    sessions.push(session);
  }
  return sessions;
}

/** What a backend does with them: read, query and revoke sessions, create, read and list users. */
export async function management(plan: PlanApp, sessions: SignedIn[]): Promise<void> {
  const { t, project } = plan;
  const headers = bearer(project.project_secret);
  const schema = (await t.container.schemas.defaultFor(project.id))!;
  for (const [i, session] of sessions.entries()) {
    expect((await t.app.inject({ method: 'GET', url: `/sessions/${session.id}`, headers })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'POST', url: `/sessions/query?project_id=${project.id}`, headers, payload: { user_id: session.userId } })).statusCode).toBe(200);
    const created = await t.app.inject({ method: 'POST', url: '/users', headers, payload: { schema: schema.uri, attributes: { email: `managed${i}@example.com` } } });
    expect(created.statusCode, created.body).toBe(201);
    expect((await t.app.inject({ method: 'GET', url: `/users/${created.json().id}`, headers })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/users', headers })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'POST', url: '/sessions', headers, payload: { project_id: project.id } })).statusCode).toBe(201);
    const revoked = i % 2 === 0 ? await t.app.inject({ method: 'DELETE', url: `/sessions/${session.id}`, headers }) : await t.app.inject({ method: 'DELETE', url: '/sessions/me', headers: sessionCookie(session.token) });
    expect(revoked.statusCode, revoked.body).toBeLessThan(300);
  }
}

/** A passkey-only account through the default register flow, then usernameless sign-ins with it, exchanged. */
export async function passkeyJourneys(plan: PlanApp, count: number): Promise<void> {
  const { t, project } = plan;
  const authenticator = new SoftwareAuthenticator();
  const registering = new PasskeyClient(t);
  const started = await registering.begin(project.id, 'register');
  const challenged = await registering.act(started.json().id, 'passkey', { email: 'passkey@example.com', 'name.given': 'Pat' });
  expect(challenged.statusCode, challenged.body).toBe(200);
  const registered = await registering.answer(challenged, 'passkey', await authenticator.create(challenged.json().step.challenge.options, { origin: ORIGIN }));
  expect(registered.statusCode, registered.body).toBe(200);
  for (let i = 0; i < count; i++) {
    const client = new PasskeyClient(t, `203.0.113.${40 + i}`);
    const begun = await client.begin(project.id, 'login');
    await exchange(plan, await client.answer(begun, 'passkey', await authenticator.get(begun.json().step.challenge.options, { origin: ORIGIN })));
  }
}

/**
 * Account care in settings flows, then sign-ins with a second factor: each of `count` new users
 * changes the password and sets up TOTP with recovery codes in one settings flow of a fresh
 * session, then signs in with the new password and a TOTP code, and again with a recovery code.
 */
export async function settingsAndSecondFactors(plan: PlanApp, count: number): Promise<void> {
  const { t, project } = plan;
  const newPassword = 'a brand new passphrase 1776';
  const enrolled: Array<{ email: string; secret: string; recoveryCodes: string[] }> = [];
  for (let i = 0; i < count; i++) {
    const email = `second${i}@example.com`;
    const session = await exchange(plan, await registerThroughFlow(t, project.id, email));
    const client = new FlowClient(t, `203.0.113.${60 + i}`);
    const menu = await client.start({ project_id: project.id, purpose: 'settings', session_id: session.id }, bearer(session.token));
    expect(menu.statusCode, menu.body).toBe(200);
    const form = await client.submit(menu.json().id, 'change_password');
    const saved = await client.submit(form.json().id, 'save', { password: newPassword });
    expect(saved.statusCode, saved.body).toBe(200);
    const shown = await client.submit(saved.json().id, 'setup_totp');
    const secret = shown.json().step.totp.secret as string;
    const enabled = await client.submit(shown.json().id, 'enable', { totp: codeAt(secret, t.clock.now()) });
    expect(enabled.statusCode, enabled.body).toBe(200);
    const generated = await client.submit(enabled.json().id, 'generate');
    expect(generated.statusCode, generated.body).toBe(200);
    enrolled.push({ email, secret, recoveryCodes: generated.json().step.recovery_codes });
  }
  // Each enrolment spent its time step's code: the sign-ins use the next one, as a person would.
  t.clock.advance(30_000);
  for (const [i, user] of enrolled.entries()) {
    const client = new FlowClient(t, `203.0.113.${70 + i}`);
    const asked = await signInWithPassword(plan, client, user.email, newPassword);
    expect(asked.json().step?.name, asked.body).toBe('totp');
    await exchange(plan, await client.submit(asked.json().id, 'verify', { totp: codeAt(user.secret, t.clock.now()) }));

    const lost = new FlowClient(t, `203.0.113.${80 + i}`);
    const again = await signInWithPassword(plan, lost, user.email, newPassword);
    const step = await lost.submit(again.json().id, 'use_recovery_code');
    await exchange(plan, await lost.submit(step.json().id, 'verify', { recovery_code: user.recoveryCodes[0] }));
  }
}

/** Forgotten passwords: each of `count` users asks for a recovery code by mail, enters it, sets a new password and signs in with it. */
export async function recoveries(plan: PlanApp, count: number): Promise<void> {
  const { t, project } = plan;
  for (let i = 0; i < count; i++) {
    const email = `forgot${i}@example.com`;
    expect((await registerThroughFlow(t, project.id, email)).statusCode).toBe(200);
    const client = new FlowClient(t, `203.0.113.${90 + i}`);
    const started = await client.start({ project_id: project.id, purpose: 'recovery' });
    const atCode = await client.submit(started.json().id, 'send_code', { email });
    expect(atCode.json().step?.name, atCode.body).toBe('code');
    const verified = await client.submit(atCode.json().id, 'verify', { code: (await mailedCode(t, plan.mail, email)).code });
    expect(verified.json().step?.name, verified.body).toBe('new_password');
    const saved = await client.submit(verified.json().id, 'save', { password: `recovered passphrase number ${i} 2031` });
    expect(saved.statusCode, saved.body).toBe(200);
    await exchange(plan, await signInWithPassword(plan, new FlowClient(t, `203.0.113.${100 + i}`), email, `recovered passphrase number ${i} 2031`));
  }
}

/**
 * Passwordless sign-in by mail, in a project of its own with the e-mail code definitions of the
 * otp tests: `count` sign-ins by the mailed code and `count` by the mailed link's token, each
 * by another address (at most 5 mails per address in 15 minutes).
 */
export async function oneTimeCodeSignIns(plan: PlanApp, count: number): Promise<void> {
  const { t } = plan;
  const project = await t.createProject('One-time codes');
  const headers = bearer(project.project_secret);
  expect((await t.app.inject({ method: 'POST', url: `/schemas?project_id=${project.id}`, headers, payload: otpSchema() })).statusCode).toBe(201);
  for (const flow_definition of CODE_DEFINITIONS) {
    const created = await t.app.inject({ method: 'POST', url: '/flow_definitions', headers, payload: { project_id: project.id, schema_uri: OTP_SCHEMA_ID, flow_definition } });
    expect(created.statusCode, created.body).toBe(201);
  }
  for (let i = 0; i < 2 * count; i++) {
    const email = `mailed${i}@example.com`;
    expect((await t.app.inject({ method: 'POST', url: `/users?project_id=${project.id}`, headers, payload: { schema: OTP_SCHEMA_ID, attributes: { email } } })).statusCode).toBe(201);
    const client = new FlowClient(t, `203.0.113.${110 + i}`);
    const started = await client.start({ project_id: project.id, purpose: 'code_login' });
    const atCode = await client.submit(started.json().id, 'send_code', { email });
    expect(atCode.json().step?.name, atCode.body).toBe('code');
    const mailed = await mailedCode(t, plan.mail, email);
    const byLink = i >= count;
    await exchange(plan, await client.submit(atCode.json().id, 'verify', { otp: byLink ? mailed.token : mailed.code }), project);
  }
}

/**
 * An app signing its users in through Gatehouse's OpenID provider: `count` times the
 * authorization code grant with PKCE (authorize, the login flow, resume, token), a refresh and a
 * userinfo call, then a silent authorization through the `__service_session` cookie it set.
 */
export async function oauthCodeGrants(plan: PlanApp, email: string, count: number): Promise<void> {
  const { t, project } = plan;
  const redirectUri = 'https://app.example.com/callback';
  const verifier = 'v'.repeat(20) + '-._~0123456789abcdefghijklmnop';
  const registered = await t.app.inject({ method: 'POST', url: `/projects/${project.id}/oauth_clients`, headers: bearer(project.project_secret), payload: { redirect_uris: [redirectUri] } });
  expect(registered.statusCode, registered.body).toBe(201);
  const client = registered.json() as { client_id: string; client_secret: string };
  const authorize = async (cookie?: string) => {
    const query = new URLSearchParams({ response_type: 'code', client_id: client.client_id, redirect_uri: redirectUri, scope: 'openid email profile', state: 'xyz', code_challenge: await challengeOf(verifier), code_challenge_method: 'S256' });
    return t.app.inject({ method: 'GET', url: `/auth/authorize?${query}`, headers: cookie ? { cookie } : {} });
  };
  const location = (response: LightMyRequestResponse) => new URL(response.headers.location as string);
  const redeem = async (response: LightMyRequestResponse) => {
    const code = location(response).searchParams.get('code');
    expect(code, response.body).toBeTruthy();
    const tokens = await postForm(t, '/auth/token', { grant_type: 'authorization_code', code: code!, redirect_uri: redirectUri, code_verifier: verifier }, basic(client.client_id, client.client_secret));
    expect(tokens.statusCode, tokens.body).toBe(200);
    return tokens.json() as { access_token: string; refresh_token: string };
  };
  for (let i = 0; i < count; i++) {
    const started = await authorize();
    const binding = started.cookies.find((c) => c.name === '__gh_authz')!.value;
    const resumed = await postForm(t, '/auth/authorize/resume', { authorization_id: location(started).searchParams.get('authorization_id')!, handoff_token: await loginHandoff(t, project.id, email) }, { cookie: `__gh_authz=${binding}` });
    expect(resumed.statusCode, resumed.body).toBe(303);
    const tokens = await redeem(resumed);
    const refreshed = await postForm(t, '/auth/token', { grant_type: 'refresh_token', refresh_token: tokens.refresh_token }, basic(client.client_id, client.client_secret));
    expect(refreshed.statusCode, refreshed.body).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/auth/userinfo', headers: bearer(refreshed.json().access_token) })).statusCode).toBe(200);
    const session = resumed.cookies.find((c) => c.name === '__service_session')!.value;
    await redeem(await authorize(`__service_session=${session}`));
  }
}

/**
 * Sign-in through an upstream OpenID provider (a real one on loopback, test/helpers/upstream-idp.ts),
 * in a project of its own with the SSO tests' definitions: `count` identities each created just in
 * time on their first sign-in and signed in again as linked identities. The browser talks to the
 * upstream over HTTP and to Gatehouse through inject, carrying `_zflow` and `_zsso` across.
 */
export async function ssoSignIns(plan: PlanApp, upstream: UpstreamIdp, count: number): Promise<void> {
  const { t } = plan;
  const project = await t.createProject('Upstream SSO');
  const api = async (method: 'POST' | 'PUT', url: string, payload: object) => {
    const response = await t.app.inject({ method, url, headers: bearer(project.project_secret), payload });
    expect(response.statusCode, response.body).toBeLessThan(300);
  };
  await api('POST', `/schemas?project_id=${project.id}`, ssoSchema());
  await api('PUT', `/projects/${project.id}/sso_providers/${PROVIDER}`, { name: 'Acme', template: 'oidc', issuer: upstream.issuer, client_id: upstream.clientId, client_secret: upstream.clientSecret });
  for (const flow_definition of SSO_DEFINITIONS) await api('POST', '/flow_definitions', { project_id: project.id, schema_uri: SSO_SCHEMA_ID, flow_definition });
  for (let round = 0; round < 2; round++) {
    for (let i = 0; i < count; i++) {
      const subject = `upstream-${i}`;
      upstream.accounts.set(subject, { email: `upstream${i}@example.com`, email_verified: true, given_name: 'Uma' });
      const client = new FlowClient(t, `203.0.113.${120 + i}`);
      const started = await client.start({ project_id: project.id, purpose: 'sso_login' });
      const sent = await client.submit(started.json().id, 'sso', {}, { sso_provider_id: PROVIDER, return_to: `${ORIGIN}/back` });
      expect(sent.statusCode, sent.body).toBe(200);
      const binding = sent.cookies.find((c) => c.name === SSO_COOKIE)!.value;
      upstream.signInAs(subject);
      const callback = new URL(await new Browser().followUntil(sent.json().redirect_uri, `${ORIGIN}/flow/sso/callback`));
      const back = await t.app.inject({ method: 'GET', url: `${callback.pathname}${callback.search}`, headers: { cookie: `${FLOW_COOKIE}=${client.cookie}; ${SSO_COOKIE}=${binding}` } });
      expect(back.statusCode, back.body).toBe(303);
      client.cookie = back.cookies.find((c) => c.name === FLOW_COOKIE)!.value;
      await exchange(plan, await client.get(started.json().id), project);
    }
  }
}
