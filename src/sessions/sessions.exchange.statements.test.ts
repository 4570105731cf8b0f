import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, type TestApp } from '../../test/helpers/app.js';
import { statementsOf, watchStatements } from '../../test/helpers/statements.js';
import { handoffFor, projectWithUser, type Fixture } from './test-fixtures.js';

/**
 * What a new-session exchange costs the database (docs/performance.md, "What the hot paths
 * cost"): one statement consumes the token, writes the session and its events (with their
 * webhook deliveries), committed together without BEGIN/COMMIT. Counted on a warm process.
 */
describe('database statements of POST /sessions/exchange', () => {
  let t: TestApp;
  let f: Fixture;
  beforeAll(async () => {
    await watchStatements();
    t = await createTestApp({ outboundAllowPrivate: true });
    for (let i = 0; i < 1000 && !t.container.changes.healthy; i++) await new Promise((resolve) => setTimeout(resolve, 5));
    f = await projectWithUser(t);
  });
  afterAll(async () => t.close());

  const exchange = (token: string) =>
    t.app.inject({ method: 'POST', url: `/sessions/exchange?project_id=${f.project.id}`, headers: bearer(f.project.project_secret), payload: { handoff_token: token } });

  it('a new session is one statement', async () => {
    // Warm: the project behind the secret, the session settings and the profile are cached after the first.
    expect((await exchange((await handoffFor(t, f.project.id, f.userId)).token)).statusCode).toBe(200);
    const handoff = await handoffFor(t, f.project.id, f.userId);
    const { result, statements } = await statementsOf(() => exchange(handoff.token));
    expect(result.statusCode, result.body).toBe(200);
    expect(statements, JSON.stringify(statements, null, 1)).toHaveLength(1);
  });

  it('writes the events of that statement as EventLog.record would, and their webhook deliveries', async () => {
    const hook = await t.app.inject({ method: 'POST', url: `/projects/${f.project.id}/webhooks`, headers: bearer(f.project.project_secret), payload: { url: 'http://127.0.0.1:9/hook', events: ['*'] } });
    expect(hook.statusCode, hook.body).toBe(201);
    const handoff = await handoffFor(t, f.project.id, f.userId, { factors: [{ method: 'password' }, { method: 'totp' }, { method: 'password' }] });
    const response = await exchange(handoff.token);
    expect(response.statusCode, response.body).toBe(200);
    const sessionId: string = response.json().session.session_id;
    const events = await t.app.inject({ method: 'GET', url: `/events?project_id=${f.project.id}&subject_id=${sessionId}`, headers: bearer(f.project.project_secret) });
    const created = events.json().events;
    expect(created).toEqual([{ id: expect.stringMatching(/^evt_/), type: 'session.created', occurred_at: t.clock.now().toISOString(), project_id: f.project.id, actor: { kind: 'self', id: f.userId }, subject: { kind: 'session', id: sessionId }, data: { user_id: f.userId, methods: ['password', 'totp'] } }]);
    const logins = (await t.app.inject({ method: 'GET', url: `/events?project_id=${f.project.id}&type=login.succeeded&subject_id=${f.userId}`, headers: bearer(f.project.project_secret) })).json().events;
    expect(logins[0]).toEqual({ id: expect.stringMatching(/^evt_/), type: 'login.succeeded', occurred_at: t.clock.now().toISOString(), project_id: f.project.id, actor: { kind: 'self', id: f.userId }, subject: { kind: 'user', id: f.userId }, data: { session_id: sessionId, methods: ['password', 'totp'], step_up: false } });
    // The log's order (newest first, then by id) keeps session.created before login.succeeded.
    expect(created[0].id < logins[0].id).toBe(true);
    const deliveries = await sql<{ event_id: string }>`select event_id from webhook_deliveries where webhook_id = ${hook.json().id} and event_id in (${created[0].id}, ${logins[0].id}) order by event_id`.execute(t.container.db);
    expect(deliveries.rows.map((row) => row.event_id)).toEqual([created[0].id, logins[0].id]);
  });
});
