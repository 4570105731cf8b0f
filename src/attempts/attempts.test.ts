import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, errorBody, type TestApp } from '../../test/helpers/app.js';
import { HOUR, MINUTE, SECOND } from '../core/clock.js';
import { serviceKey, clientToken } from '../oauth/testing.js';
import { projectWithUser, sessionCookie, type Fixture } from '../sessions/test-fixtures.js';
import { createCompletedAttempt } from './testing.js';

describe('auth attempts and POST /auth_attempts/{id}/handoff', () => {
  let t: TestApp;
  let f: Fixture;
  beforeAll(async () => {
    t = await createTestApp();
    f = await projectWithUser(t);
  });
  afterAll(async () => t.close());

  const handoff = (id: string, options: { secret?: string; key?: string } = {}) =>
    t.app.inject({
      method: 'POST',
      url: `/auth_attempts/${id}/handoff`,
      headers: { ...bearer(options.secret ?? f.project.project_secret), ...(options.key ? { 'idempotency-key': options.key } : {}) },
    });

  it('walks pending -> completed -> handed_off through the service API', async () => {
    const attempts = t.container.attempts;
    const attempt = await attempts.create(f.project.id);
    expect(attempt).toMatchObject({ state: 'pending', factors: [] });
    expect(attempt.expires_at).toBe(new Date(t.clock.now().getTime() + 15 * MINUTE).toISOString());
    // A factor must name its user when the attempt has none; completion needs a factor.
    await expect(attempts.recordFactor(f.project.id, attempt.id, { method: 'password' })).rejects.toMatchObject({ code: 'att.invalid_state' });
    await expect(attempts.complete(f.project.id, attempt.id)).rejects.toMatchObject({ code: 'att.invalid_state' });
    const withFactor = await attempts.recordFactor(f.project.id, attempt.id, { method: 'password', userId: f.userId });
    expect(withFactor).toMatchObject({ user_id: f.userId, factors: [{ method: 'password', payload: { user_id: f.userId } }] });
    await expect(attempts.recordFactor(f.project.id, attempt.id, { method: 'otp', userId: 'usr_someoneelse0000000000' })).rejects.toMatchObject({
      code: 'att.invalid_state',
    });
    const completed = await attempts.complete(f.project.id, attempt.id);
    expect(completed.state).toBe('completed');
    await expect(attempts.recordFactor(f.project.id, attempt.id, { method: 'otp' })).rejects.toMatchObject({ code: 'att.invalid_state' });
    const minted = await attempts.handoff(f.project.id, attempt.id);
    expect(minted.handoff_token).toMatch(/^gh_ho_[\w-]{43}$/);
    expect(minted.handoff_token_expires_at).toBe(new Date(t.clock.now().getTime() + 60 * SECOND).toISOString());
    expect((await attempts.get(f.project.id, attempt.id)).state).toBe('handed_off');
    const row = await t.container.db.selectFrom('handoff_tokens').selectAll().where('attempt_id', '=', attempt.id).executeTakeFirstOrThrow();
    expect(row.token_hash).toHaveLength(64);
    expect(JSON.stringify(row)).not.toContain(minted.handoff_token);
    // Another project never sees the attempt.
    const other = await t.createProject();
    await expect(attempts.get(other.id, attempt.id)).rejects.toMatchObject({ code: 'att.not_found' });
    await expect(attempts.create(other.id, { sessionId: 'sess_doesnotexist000000000' })).rejects.toMatchObject({ code: 'sess.not_found' });
  });

  it('resets an anonymous shell to the full session TTL when its attempt completes', async () => {
    const shell = await t.container.sessions.createAnonymous(f.project.id, {});
    t.clock.advance(9 * MINUTE);
    await createCompletedAttempt(t.container.attempts, f.project.id, f.userId, { sessionId: shell.session.session_id });
    const read = await t.container.sessions.get(f.project.id, shell.session.session_id);
    expect(read.state).toBe('building');
    expect(read.expires_at).toBe(new Date(t.clock.now().getTime() + 24 * HOUR).toISOString());
    t.clock.advance(2 * MINUTE);
    expect((await t.app.inject({ method: 'GET', url: '/sessions/me', headers: sessionCookie(shell.session_token) })).statusCode).toBe(200);
  });

  it('creates an attempt with its first factor, and completes and hands it off in one step (what flows do)', async () => {
    const attempts = t.container.attempts;
    const shell = await t.container.sessions.createAnonymous(f.project.id, {});
    t.clock.advance(9 * MINUTE);
    await expect(attempts.create(f.project.id, { firstFactor: { method: 'password' } })).rejects.toMatchObject({ code: 'att.invalid_state' });
    const attempt = await attempts.create(f.project.id, { sessionId: shell.session.session_id, firstFactor: { method: 'password', userId: f.userId } });
    expect(attempt).toMatchObject({ state: 'pending', user_id: f.userId, factors: [{ method: 'password', payload: { user_id: f.userId } }] });
    const minted = await attempts.completeAndHandOff(f.project.id, attempt.id);
    expect((await attempts.get(f.project.id, attempt.id)).state).toBe('handed_off');
    // The shell got the full TTL, as with complete().
    expect((await t.container.sessions.get(f.project.id, shell.session.session_id)).expires_at).toBe(new Date(t.clock.now().getTime() + 24 * HOUR).toISOString());
    await expect(attempts.completeAndHandOff(f.project.id, attempt.id)).rejects.toMatchObject({ code: 'att.already_handed_off' });
    const upgraded = await t.container.exchange.exchange(f.project.id, { handoffToken: minted.handoff_token });
    expect(upgraded.session).toMatchObject({ session_id: shell.session.session_id, state: 'active', user_id: f.userId });
    // Without a factor nothing is handed off, and the step-by-step errors come back.
    const empty = await attempts.create(f.project.id);
    await expect(attempts.completeAndHandOff(f.project.id, empty.id)).rejects.toMatchObject({ code: 'att.invalid_state' });
    expect((await attempts.get(f.project.id, empty.id)).state).toBe('pending');
  });

  it('of 20 concurrent completeAndHandOff calls exactly one mints a token', async () => {
    const attempts = t.container.attempts;
    const attempt = await attempts.create(f.project.id, { firstFactor: { method: 'password', userId: f.userId } });
    const results = await Promise.allSettled(Array.from({ length: 20 }, () => attempts.completeAndHandOff(f.project.id, attempt.id)));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    for (const r of results) if (r.status === 'rejected') expect(r.reason).toMatchObject({ code: 'att.already_handed_off' });
  });

  it('mints a handoff only for a completed attempt, once', async () => {
    const pending = await t.container.attempts.create(f.project.id, { userId: f.userId });
    const refused = await handoff(pending.id);
    expect(refused.statusCode).toBe(409);
    expect(errorBody(refused).code).toBe('att.not_completed');

    const attempt = await createCompletedAttempt(t.container.attempts, f.project.id, f.userId);
    const first = await handoff(attempt.id);
    expect(first.statusCode).toBe(201);
    expect(first.json()).toEqual({
      auth_attempt_id: attempt.id,
      handoff_token: expect.stringMatching(/^gh_ho_/),
      handoff_token_expires_at: new Date(t.clock.now().getTime() + 60 * SECOND).toISOString(),
    });
    const second = await handoff(attempt.id);
    expect(second.statusCode).toBe(409);
    expect(errorBody(second)).toMatchObject({
      code: 'att.already_handed_off',
      message: 'The auth attempt was already handed off; no new handoff can be created and the previous token is only returned with the same retry key.',
    });
  });

  it('replays the earlier token for the same Idempotency-Key within 5 minutes only', async () => {
    const attempt = await createCompletedAttempt(t.container.attempts, f.project.id, f.userId);
    const first = await handoff(attempt.id, { key: 'k-1' });
    expect(first.statusCode).toBe(201);
    t.clock.advance(4 * MINUTE);
    const replay = await handoff(attempt.id, { key: 'k-1' });
    expect(replay.statusCode).toBe(201);
    expect(replay.json()).toEqual(first.json());
    expect(errorBody(await handoff(attempt.id, { key: 'k-2' })).code).toBe('att.already_handed_off');
    expect(errorBody(await handoff(attempt.id)).code).toBe('att.already_handed_off');
    t.clock.advance(MINUTE);
    expect(errorBody(await handoff(attempt.id, { key: 'k-1' })).code).toBe('att.already_handed_off');
    // Only one token was ever minted.
    const rows = await t.container.db.selectFrom('handoff_tokens').select('token_hash').where('attempt_id', '=', attempt.id).execute();
    expect(rows).toHaveLength(1);

    // Concurrent creations with one key: one token, every answer identical.
    const raced = await createCompletedAttempt(t.container.attempts, f.project.id, f.userId);
    const burst = await Promise.all(Array.from({ length: 10 }, () => handoff(raced.id, { key: 'race' })));
    expect(new Set(burst.map((r) => `${r.statusCode} ${r.body}`)).size).toBe(1);
    expect(burst[0].statusCode).toBe(201);
    // Concurrent creations without a key: exactly one wins.
    const plain = await createCompletedAttempt(t.container.attempts, f.project.id, f.userId);
    const statuses = (await Promise.all(Array.from({ length: 10 }, () => handoff(plain.id)))).map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(9);
  });

  it('answers 404 for unknown, expired and other-project attempts, 401 and 403 without the right credential', async () => {
    const attempt = await createCompletedAttempt(t.container.attempts, f.project.id, f.userId);
    const other = await t.createProject();
    for (const response of [await handoff('att_doesnotexist0000000000'), await handoff('%20'), await handoff(attempt.id, { secret: other.project_secret })]) {
      expect(response.statusCode).toBe(404);
      expect(errorBody(response).code).toBe('att.not_found');
    }
    expect((await handoff(attempt.id, { secret: 'gh_ps_nope' })).statusCode).toBe(401);
    const preview = await handoff(attempt.id, { secret: f.project.preview_secret });
    expect(preview.statusCode).toBe(403);
    expect(errorBody(preview)).toMatchObject({ code: 'auth.forbidden', details: { required_scope: 'auth_attempt.write' } });
    expect((await handoff(attempt.id, { key: 'spaces are not allowed' })).statusCode).toBe(400);

    const stale = await createCompletedAttempt(t.container.attempts, f.project.id, f.userId);
    t.clock.advance(15 * MINUTE);
    expect(errorBody(await handoff(stale.id)).code).toBe('att.not_found');
    // The admin token may hand off any project's attempt.
    const fresh = await createCompletedAttempt(t.container.attempts, f.project.id, f.userId);
    expect((await handoff(fresh.id, { secret: t.adminToken })).statusCode).toBe(201);
  });

  it('accepts a service-key access token holding auth_attempt.write, refuses one without it', async () => {
    const writer = await serviceKey(t, f.project, ['auth_attempt.write']);
    const reader = await serviceKey(t, f.project, ['session.read']);
    const attempt = await createCompletedAttempt(t.container.attempts, f.project.id, f.userId);
    const denied = await handoff(attempt.id, { secret: await clientToken(t, reader.client_id, reader.client_secret) });
    expect(denied.statusCode).toBe(403);
    expect((await handoff(attempt.id, { secret: await clientToken(t, writer.client_id, writer.client_secret) })).statusCode).toBe(201);
  });
});
