import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, errorBody, type TestApp } from '../../test/helpers/app.js';
import { HOUR, SECOND } from '../core/clock.js';
import { AAL1, AAL2 } from './levels.js';
import { createUser, handoffFor, projectWithUser, sessionCookie, type Fixture } from './test-fixtures.js';

describe('POST /sessions/exchange', () => {
  let t: TestApp;
  let f: Fixture;
  beforeAll(async () => {
    t = await createTestApp();
    f = await projectWithUser(t);
  });
  afterAll(async () => t.close());

  const exchange = (token: string, options: { secret?: string; projectId?: string; key?: string; ttl?: string } = {}) =>
    t.app.inject({
      method: 'POST',
      url: `/sessions/exchange?project_id=${options.projectId ?? f.project.id}`,
      headers: { ...bearer(options.secret ?? f.project.project_secret), ...(options.key ? { 'idempotency-key': options.key } : {}) },
      payload: { handoff_token: token, ...(options.ttl ? { ttl: options.ttl } : {}) },
    });

  const me = (token: string) => t.app.inject({ method: 'GET', url: '/sessions/me', headers: sessionCookie(token) });

  it('creates a new active session when the attempt names no session', async () => {
    const handoff = await handoffFor(t, f.project.id, f.userId);
    const response = await exchange(handoff.token);
    expect(response.statusCode).toBe(200);
    const body = response.json();
    const now = t.clock.now();
    expect(body.session).toEqual({
      session_id: expect.stringMatching(/^sess_/),
      project_id: f.project.id,
      state: 'active',
      user_id: f.userId,
      name: 'Ada Lovelace',
      email: expect.stringMatching(/@example\.com$/),
      factors: [{ method: 'password', verified_at: now.toISOString(), payload: { user_id: f.userId } }],
      assurance_levels: [AAL1],
      metadata: {},
      user_agent: {},
      created_at: now.toISOString(),
      expires_at: new Date(now.getTime() + 24 * HOUR).toISOString(),
    });
    expect(body.session_token).toMatch(/^gh_st_/);
    expect(String(response.headers['set-cookie'])).toContain(`__service_session=${body.session_token}`);
    expect(String(response.headers['set-cookie'])).toContain(`Max-Age=${24 * 3600}`);
    expect((await me(body.session_token)).json()).toEqual(body.session);
  });

  it('upgrades the anonymous shell: user and factors written in, TTL reset, old token superseded', async () => {
    const shell = (
      await t.app.inject({ method: 'POST', url: '/sessions', headers: bearer(f.project.project_secret), payload: { project_id: f.project.id, fingerprint: 'fp' } })
    ).json();
    t.clock.advance(5 * 60 * SECOND);
    // Read once, so the shell's row is in this process's cache when its token is superseded.
    expect((await me(shell.session_token)).statusCode).toBe(200);
    const handoff = await handoffFor(t, f.project.id, f.userId, { sessionId: shell.session.session_id });
    const response = await exchange(handoff.token);
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.session).toMatchObject({
      session_id: shell.session.session_id,
      state: 'active',
      user_id: f.userId,
      name: 'Ada Lovelace',
      user_agent: { fingerprint: 'fp', ip: '127.0.0.1' },
      created_at: shell.session.created_at,
      expires_at: new Date(t.clock.now().getTime() + 24 * HOUR).toISOString(),
      assurance_levels: [AAL1],
    });
    expect(body.session_token).not.toBe(shell.session_token);
    const old = await me(shell.session_token);
    expect(old.statusCode).toBe(401);
    expect(errorBody(old).code).toBe('auth.unauthorized');
    expect((await me(body.session_token)).statusCode).toBe(200);
  });

  it('two attempts on one shell exchanged at once: both succeed, one of them upgrading the shell', async () => {
    const shell = await t.container.sessions.createAnonymous(f.project.id, {});
    const tokens = await Promise.all([1, 2].map(async () => (await handoffFor(t, f.project.id, f.userId, { sessionId: shell.session.session_id })).token));
    const responses = await Promise.all(tokens.map((token) => exchange(token)));
    expect(responses.map((r) => r.statusCode)).toEqual([200, 200]);
    // The second one steps the upgraded shell up when it runs after the first (one connection, as
    // on PGlite), or gets a session of its own when it raced the upgrade; it never fails.
    const ids = responses.map((r) => r.json().session.session_id as string);
    expect(ids).toContain(shell.session.session_id);
    for (const r of responses) expect(r.json().session).toMatchObject({ state: 'active', user_id: f.userId });
    const alive = await Promise.all(responses.map(async (r) => (await me(r.json().session_token)).statusCode));
    // A step-up supersedes the token the upgrade issued; separate sessions both stay valid.
    expect(alive.filter((status) => status === 200)).toHaveLength(ids[0] === ids[1] ? 1 : 2);
    expect((await me(shell.session_token)).statusCode).toBe(401);
  });

  it('steps up an active session: factors merged, levels expanded, expiry kept, old token superseded', async () => {
    const first = (await exchange((await handoffFor(t, f.project.id, f.userId)).token)).json();
    t.clock.advance(HOUR);
    const handoff = await handoffFor(t, f.project.id, f.userId, { sessionId: first.session.session_id, factors: [{ method: 'totp' }] });
    const response = await exchange(handoff.token);
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.session.session_id).toBe(first.session.session_id);
    expect(body.session.factors.map((x: { method: string }) => x.method)).toEqual(['password', 'totp']);
    expect(body.session.assurance_levels).toEqual([AAL1, AAL2]);
    expect(body.session.expires_at).toBe(first.session.expires_at);
    expect((await me(first.session_token)).statusCode).toBe(401);
    expect((await me(body.session_token)).json().assurance_levels).toEqual([AAL1, AAL2]);

    // Newest per method wins: a later password replaces the earlier one.
    t.clock.advance(HOUR);
    const again = await exchange((await handoffFor(t, f.project.id, f.userId, { sessionId: first.session.session_id })).token);
    const factors = again.json().session.factors as Array<{ method: string; verified_at: string }>;
    expect(factors).toHaveLength(2);
    expect(factors.find((x) => x.method === 'password')!.verified_at).toBe(t.clock.now().toISOString());
  });

  it('never upgrades another user\'s session, nor an expired one: a new session is created', async () => {
    const otherUser = await createUser(t, f.project.id, { given: 'Grace', family: 'Hopper' });
    const mine = (await exchange((await handoffFor(t, f.project.id, f.userId)).token)).json();
    const theirs = await exchange((await handoffFor(t, f.project.id, otherUser, { sessionId: mine.session.session_id })).token);
    expect(theirs.json().session.session_id).not.toBe(mine.session.session_id);
    expect(theirs.json().session).toMatchObject({ user_id: otherUser, name: 'Grace Hopper' });
    expect((await me(mine.session_token)).json().user_id).toBe(f.userId);

    const shell = (await t.app.inject({ method: 'POST', url: '/sessions', headers: bearer(f.project.project_secret), payload: { project_id: f.project.id } })).json();
    const handoff = await handoffFor(t, f.project.id, f.userId, { sessionId: shell.session.session_id });
    // The completed attempt reset the shell to the full TTL; delete it to make the target vanish.
    await t.container.sessions.delete(f.project.id, shell.session.session_id);
    const fresh = await exchange(handoff.token);
    expect(fresh.statusCode).toBe(200);
    expect(fresh.json().session.session_id).not.toBe(shell.session.session_id);
  });

  it('applies an optional ttl and refuses bad ones without consuming the token', async () => {
    const handoff = await handoffFor(t, f.project.id, f.userId);
    for (const ttl of ['P31D', 'PT721H', 'one hour', 'P1M', 'PT0S', 'P', 'PT']) {
      const response = await exchange(handoff.token, { ttl });
      expect(response.statusCode, ttl).toBe(400);
      expect(errorBody(response).code).toBe('sess.invalid_ttl');
    }
    const response = await exchange(handoff.token, { ttl: 'PT1H30M' });
    expect(response.statusCode).toBe(200);
    expect(response.json().session.expires_at).toBe(new Date(t.clock.now().getTime() + 90 * 60 * SECOND).toISOString());
    expect(String(response.headers['set-cookie'])).toContain('Max-Age=5400');
  });

  it('answers 404 att.not_found alike for unknown, used, expired and other-project tokens', async () => {
    const used = await handoffFor(t, f.project.id, f.userId);
    expect((await exchange(used.token)).statusCode).toBe(200);
    const expired = await handoffFor(t, f.project.id, f.userId);
    const other = await projectWithUser(t);
    const foreign = await handoffFor(t, other.project.id, other.userId);
    t.clock.advance(61 * SECOND);
    const bodies = [];
    for (const token of [used.token, expired.token, foreign.token, 'gh_ho_unknown', 'nonsense', 'x'.repeat(512)]) {
      const response = await exchange(token);
      expect(response.statusCode).toBe(404);
      bodies.push(errorBody(response));
    }
    for (const body of bodies) expect(body).toEqual({ code: 'att.not_found', message: 'The auth attempt was not found.', details: {} });
    // The foreign token was not consumed by the failed attempt... but it has expired by now.
    const late = await exchange(foreign.token, { secret: other.project.project_secret, projectId: other.project.id });
    expect(late.statusCode).toBe(404);
  });

  it('lets a handoff token live 60 seconds: accepted at 59 s, refused at 61 s', async () => {
    const early = await handoffFor(t, f.project.id, f.userId);
    const late = await handoffFor(t, f.project.id, f.userId);
    t.clock.advance(59 * SECOND);
    expect((await exchange(early.token)).statusCode).toBe(200);
    t.clock.advance(2 * SECOND);
    const response = await exchange(late.token);
    expect(response.statusCode).toBe(404);
    expect(errorBody(response).code).toBe('att.not_found');
  });

  it('binds the token to its project: another project cannot exchange it, the own project still can', async () => {
    const other = await projectWithUser(t);
    const handoff = await handoffFor(t, f.project.id, f.userId);
    const stolen = await exchange(handoff.token, { secret: other.project.project_secret, projectId: other.project.id });
    expect(stolen.statusCode).toBe(404);
    expect(errorBody(stolen).code).toBe('att.not_found');
    expect((await exchange(handoff.token)).statusCode).toBe(200);
  });

  it('of 50 concurrent exchanges of one token exactly one succeeds', async () => {
    const handoff = await handoffFor(t, f.project.id, f.userId);
    const responses = await Promise.all(Array.from({ length: 50 }, () => exchange(handoff.token)));
    const statuses = responses.map((r) => r.statusCode).sort();
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 404)).toHaveLength(49);
    const rows = await t.container.db.selectFrom('sessions').select('id').where('project_id', '=', f.project.id).where('user_id', '=', f.userId).execute();
    const winner = responses.find((r) => r.statusCode === 200)!.json();
    expect(rows.map((r) => r.id)).toContain(winner.session.session_id);
  });

  it('replays an idempotent retry with the identical payload without consuming twice', async () => {
    const handoff = await handoffFor(t, f.project.id, f.userId);
    const before = await t.container.db.selectFrom('sessions').select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow();
    const first = await exchange(handoff.token, { key: 'retry-1' });
    expect(first.statusCode).toBe(200);
    t.clock.advance(30 * SECOND);
    const retry = await exchange(handoff.token, { key: 'retry-1' });
    expect(retry.statusCode).toBe(200);
    expect(retry.body).toBe(first.body);
    expect(String(retry.headers['set-cookie'])).toContain(`__service_session=${first.json().session_token}`);
    const after = await t.container.db.selectFrom('sessions').select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n) + 1);
    // Without the key, or with another key, the used token is simply not found.
    expect((await exchange(handoff.token)).statusCode).toBe(404);
    expect((await exchange(handoff.token, { key: 'retry-2' })).statusCode).toBe(404);
    // The same key for a different token is a conflict, not a replay of someone else's session.
    const other = await handoffFor(t, f.project.id, f.userId);
    const conflict = await exchange(other.token, { key: 'retry-1' });
    expect(conflict.statusCode).toBe(409);
    expect(errorBody(conflict).code).toBe('req.idempotency_conflict');
    // Concurrent retries with one key: one exchange, every answer identical.
    const shared = await handoffFor(t, f.project.id, f.userId);
    const burst = await Promise.all(Array.from({ length: 10 }, () => exchange(shared.token, { key: 'burst' })));
    expect(new Set(burst.map((r) => `${r.statusCode} ${r.body}`)).size).toBe(1);
    expect(burst[0].statusCode).toBe(200);
    // After the 5-minute window the key is forgotten.
    t.clock.advance(5 * 60 * SECOND);
    expect((await exchange(handoff.token, { key: 'retry-1' })).statusCode).toBe(404);
    // ...and free for a new request, whose response it then replays.
    const next = await handoffFor(t, f.project.id, f.userId);
    const reused = await exchange(next.token, { key: 'retry-1' });
    expect(reused.statusCode).toBe(200);
    expect(reused.json().session_token).not.toBe(first.json().session_token);
    expect((await exchange(next.token, { key: 'retry-1' })).body).toBe(reused.body);
  });

  it('refuses a malformed Idempotency-Key and bad bodies with 400', async () => {
    const handoff = await handoffFor(t, f.project.id, f.userId);
    expect((await exchange(handoff.token, { key: 'x'.repeat(300) })).statusCode).toBe(400);
    for (const payload of [{}, { handoff_token: '' }, { handoff_token: 5 }, { handoff_token: handoff.token, extra: true }]) {
      const response = await t.app.inject({ method: 'POST', url: `/sessions/exchange?project_id=${f.project.id}`, headers: bearer(f.project.project_secret), payload });
      expect(response.statusCode).toBe(400);
      expect(errorBody(response).code).toBe('req.invalid');
    }
    const noProject = await t.app.inject({ method: 'POST', url: '/sessions/exchange', headers: bearer(f.project.project_secret), payload: { handoff_token: handoff.token } });
    expect(noProject.statusCode).toBe(400);
    expect((await exchange(handoff.token)).statusCode).toBe(200);
  });

  it('answers 401 without a credential, 403 for the preview secret and 404 for another project', async () => {
    const handoff = await handoffFor(t, f.project.id, f.userId);
    const other = await t.createProject();
    expect((await exchange(handoff.token, { secret: 'gh_ps_nope' })).statusCode).toBe(401);
    const preview = await exchange(handoff.token, { secret: f.project.preview_secret });
    expect(preview.statusCode).toBe(403);
    expect(errorBody(preview).code).toBe('auth.forbidden');
    const cross = await exchange(handoff.token, { secret: other.project_secret });
    expect(cross.statusCode).toBe(404);
    expect(errorBody(cross).code).toBe('proj.not_found');
    expect((await exchange(handoff.token)).statusCode).toBe(200);
  });

  it('voids the attempt of a user deleted in the meantime', async () => {
    const userId = await createUser(t, f.project.id);
    const handoff = await handoffFor(t, f.project.id, userId);
    await t.container.db.deleteFrom('users').where('id', '=', userId).execute();
    const response = await exchange(handoff.token);
    expect(response.statusCode).toBe(404);
    expect(errorBody(response).code).toBe('att.not_found');
  });
});
