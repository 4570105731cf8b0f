import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FlowClient, registerThroughFlow, STRONG_PASSWORD } from '../src/flows/flow-test-kit.js';
import { basic, loginHandoff, postForm, serviceKey, SESSION_TOKEN_TYPE, TOKEN_EXCHANGE } from '../src/oauth/testing.js';
import { bearer, createTestApp, errorBody, type TestApp } from './helpers/app.js';

type Project = Awaited<ReturnType<TestApp['createProject']>>;

/** DESIGN §4.17: managing one user (issue 12 item 5), and reading a session by its token. */
describe('management API: users and the current session', () => {
  let t: TestApp;
  let project: Project;
  let other: Project;
  let counter = 0;
  beforeAll(async () => {
    t = await createTestApp();
    project = await t.createProject();
    other = await t.createProject();
  });
  afterAll(async () => t.close());

  /** A user registered through the default register flow (with a password). */
  const registered = async (email = `member${++counter}@example.com`) => {
    expect((await registerThroughFlow(t, project.id, email)).statusCode).toBe(200);
    const user = await t.container.users.findByIdentifier(project.id, undefined, email);
    return { email, id: user!.id };
  };
  const exchange = async (handoff: string) => {
    const response = await t.app.inject({ method: 'POST', url: `/sessions/exchange?project_id=${project.id}`, headers: bearer(project.project_secret), payload: { handoff_token: handoff } });
    return response;
  };
  const patch = (id: string, attributes: unknown, token = project.project_secret) =>
    t.app.inject({ method: 'PATCH', url: `/users/${id}`, headers: bearer(token), payload: { attributes } });
  const rowsOf = async (table: 'sessions' | 'oauth_tokens' | 'credentials' | 'user_identifiers' | 'auth_attempts' | 'one_time_codes' | 'users', userId: string) =>
    (await t.container.db.selectFrom(table).select('project_id').where(table === 'users' ? 'id' : 'user_id', '=', userId).execute()).length;

  it('GET /users?identifier= finds the one user with that identifier, normalised as at sign-in, in the caller\'s project only', async () => {
    const user = await registered();
    const found = await t.app.inject({ method: 'GET', url: `/users?identifier=${encodeURIComponent(user.email.toUpperCase())}`, headers: bearer(project.project_secret) });
    expect(found.statusCode).toBe(200);
    expect(found.json().users.map((u: { id: string }) => u.id)).toEqual([user.id]);
    const none = await t.app.inject({ method: 'GET', url: '/users?identifier=nobody%40example.com', headers: bearer(project.project_secret) });
    expect(none.json()).toEqual({ users: [] });
    const elsewhere = await t.app.inject({ method: 'GET', url: `/users?identifier=${encodeURIComponent(user.email)}`, headers: bearer(other.project_secret) });
    expect(elsewhere.json()).toEqual({ users: [] });
  });

  it('PATCH /users/{id} replaces the attributes, validated against the schema, unique values re-claimed', async () => {
    const user = await registered();
    const taken = await registered();
    const changed = await patch(user.id, { email: 'renamed@example.com', name: { given: 'Renamed' } });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json()).toMatchObject({ id: user.id, attributes: { email: 'renamed@example.com', name: { given: 'Renamed' } } });
    expect((await t.app.inject({ method: 'GET', url: `/users/${user.id}`, headers: bearer(project.project_secret) })).json().attributes.email).toBe('renamed@example.com');
    // The old e-mail is free again, the new one is taken.
    expect(await t.container.users.findByIdentifier(project.id, undefined, user.email)).toBeUndefined();

    const conflict = await patch(user.id, { email: taken.email, name: { given: 'X' } });
    expect(conflict.statusCode).toBe(409);
    expect(errorBody(conflict).code).toBe('user.already_exists');
    const invalid = await patch(user.id, { email: 42 });
    expect(invalid.statusCode).toBe(400);
    expect(errorBody(invalid).code).toBe('user.invalid');
    const foreign = await patch(user.id, { email: 'x@example.com', name: { given: 'X' } }, other.project_secret);
    expect(foreign.statusCode).toBe(404);
    expect(errorBody(foreign).code).toBe('user.not_found');
    expect((await t.app.inject({ method: 'GET', url: `/users/${user.id}`, headers: bearer(t.adminToken) })).json().attributes.email).toBe('renamed@example.com');
  });

  it('DELETE /users/{id} erases the user with its sessions, tokens, attempts and credentials, once', async () => {
    const user = await registered();
    const session = (await exchange(await loginHandoff(t, project.id, user.email))).json();
    const pendingHandoff = await loginHandoff(t, project.id, user.email);
    const key = await serviceKey(t, project, ['session.write']);
    const tokens = await postForm(t, '/auth/token', { grant_type: TOKEN_EXCHANGE, subject_token: session.session_token, subject_token_type: SESSION_TOKEN_TYPE }, basic(key.client_id, key.client_secret));
    expect(tokens.statusCode, tokens.body).toBe(200);
    const recovery = new FlowClient(t);
    const started = (await recovery.start({ project_id: project.id, purpose: 'recovery' })).json();
    expect((await recovery.submit(started.id, 'send_code', { email: user.email })).statusCode).toBe(200);
    for (const table of ['sessions', 'oauth_tokens', 'credentials', 'user_identifiers', 'auth_attempts', 'one_time_codes'] as const) expect(await rowsOf(table, user.id), table).toBeGreaterThan(0);

    const foreign = await t.app.inject({ method: 'DELETE', url: `/users/${user.id}`, headers: bearer(other.project_secret) });
    expect(foreign.statusCode).toBe(404);
    expect(await rowsOf('users', user.id)).toBe(1);

    const answers = await Promise.all(Array.from({ length: 8 }, () => t.app.inject({ method: 'DELETE', url: `/users/${user.id}`, headers: bearer(project.project_secret) })));
    expect(answers.map((r) => r.statusCode).sort()).toEqual([204, 404, 404, 404, 404, 404, 404, 404]);
    for (const table of ['users', 'sessions', 'oauth_tokens', 'credentials', 'user_identifiers', 'auth_attempts', 'one_time_codes'] as const) expect(await rowsOf(table, user.id), table).toBe(0);
    expect((await t.app.inject({ method: 'GET', url: '/sessions/me', headers: bearer(session.session_token) })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: '/auth/userinfo', headers: bearer(tokens.json().access_token) })).statusCode).toBe(401);
    const late = await exchange(pendingHandoff);
    expect(late.statusCode).toBeGreaterThanOrEqual(400);
    expect(late.statusCode).toBeLessThan(500);
    // The e-mail address can be registered again.
    expect((await registerThroughFlow(t, project.id, user.email)).statusCode).toBe(200);
  });

  it('POST /users/{id}/unlock lifts the lock-out of the account', async () => {
    const user = await registered();
    const client = new FlowClient(t, '198.51.100.7');
    const started = (await client.start({ project_id: project.id, purpose: 'login' })).json();
    const atPassword = (await client.submit(started.id, 'continue', { email: user.email })).json();
    for (let i = 0; i < 5; i++) expect((await client.submit(atPassword.id, 'sign_in', { password: 'wrong password 123' })).statusCode).toBe(400);
    expect((await client.submit(atPassword.id, 'sign_in', { password: STRONG_PASSWORD })).statusCode).toBe(400);

    expect((await t.app.inject({ method: 'POST', url: `/users/${user.id}/unlock`, headers: bearer(other.project_secret) })).statusCode).toBe(404);
    const unlocked = await t.app.inject({ method: 'POST', url: `/users/${user.id}/unlock`, headers: bearer(project.project_secret) });
    expect(unlocked.statusCode, unlocked.body).toBe(204);
    const signedIn = await client.submit(atPassword.id, 'sign_in', { password: STRONG_PASSWORD });
    expect(signedIn.statusCode, signedIn.body).toBe(200);
    expect(signedIn.json().handoff_token).toBeTruthy();
  });

  it('GET /sessions/me also takes Authorization: Bearer <session token>', async () => {
    const user = await registered();
    const session = (await exchange(await loginHandoff(t, project.id, user.email))).json();
    const me = await t.app.inject({ method: 'GET', url: '/sessions/me', headers: bearer(session.session_token) });
    expect(me.statusCode, me.body).toBe(200);
    expect(me.json()).toMatchObject({ session_id: session.session.session_id });
    for (const token of ['gh_st_not-a-real-token', project.project_secret, t.adminToken]) {
      const response = await t.app.inject({ method: 'GET', url: '/sessions/me', headers: bearer(token) });
      expect(response.statusCode).toBe(401);
      expect(errorBody(response).code).toBe('auth.unauthorized');
    }
  });
});
