import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, type TestApp } from '../../test/helpers/app.js';
import { testEngineKind } from '../../test/helpers/engine.js';
import { statementsOf, watchStatements } from '../../test/helpers/statements.js';
import pino from 'pino';
import type { ExchangeArgs } from './service.exchange.direct.js';
import { createUser, handoffFor, projectWithUser, type Fixture } from './test-fixtures.js';

/**
 * Exchanges that arrive while earlier ones are at the database go many to a statement
 * (DirectExchanges, src/db/batcher.ts). Each must end as it would have in a statement of its own.
 */
describe('new-session exchanges, batched', () => {
  let t: TestApp;
  let f: Fixture;
  /** The service's warnings and errors, as the composition root wires its logger. */
  const logged: string[] = [];
  beforeAll(async () => {
    await watchStatements();
    t = await createTestApp({}, { logger: pino({ level: 'warn' }, { write: (line: string) => logged.push(line) }) });
    f = await projectWithUser(t);
  });
  afterAll(async () => t.close());

  const exchange = (token: string) =>
    t.app.inject({ method: 'POST', url: `/sessions/exchange?project_id=${f.project.id}`, headers: bearer(f.project.project_secret), payload: { handoff_token: token } });

  /** The values one exchange hands the batch, as DirectExchanges.exchange makes them. */
  function item(token: string, overrides: Partial<ExchangeArgs> = {}): ExchangeArgs {
    const now = t.clock.now();
    const [createdEventId, loginEventId] = t.container.events.newIds(2, now);
    return {
      projectId: f.project.id,
      hash: t.container.attempts.handoffHash(token)!,
      now,
      id: t.container.ids.next('sess'),
      tokenHash: `batch-test-${Math.random()}`,
      expiresAt: new Date(now.getTime() + 3_600_000),
      createdEventId,
      loginEventId,
      ...overrides,
    };
  }

  const eventsOf = async (sessionId: string) =>
    (await sql<{ type: string; subject_id: string; data: { session_id?: string } }>`select type, subject_id, data from events where subject_id = ${sessionId} or data->>'session_id' = ${sessionId} order by id`.execute(t.container.db)).rows;

  it('30 concurrent exchanges: each its own session and events, in fewer statements than exchanges', async () => {
    const handoffs = await Promise.all(Array.from({ length: 30 }, () => handoffFor(t, f.project.id, f.userId)));
    const { result: responses, statements } = await statementsOf(() => Promise.all(handoffs.map((handoff) => exchange(handoff.token))));
    for (const response of responses) expect(response.statusCode, response.body).toBe(200);
    const ids = new Set(responses.map((response) => response.json().session.session_id as string));
    const tokens = new Set(responses.map((response) => response.json().session_token as string));
    expect(ids.size).toBe(30);
    expect(tokens.size).toBe(30);
    const batches = statements.filter((text) => text.includes('unnest('));
    if (testEngineKind() === 'postgres') {
      expect(batches.length).toBeGreaterThan(0);
      expect(statements.length).toBeLessThan(30);
    } else {
      // PGlite runs each statement to its end on this thread before the next request reaches the
      // exchange, so nothing waits and nothing batches: one statement per exchange, as before.
      expect(statements.filter((text) => text.includes('update "handoff_tokens"')).length + batches.length).toBeLessThanOrEqual(30);
    }
    // Each session works, and has exactly its own two events.
    for (const response of responses.slice(0, 5)) {
      const me = await t.app.inject({ method: 'GET', url: '/sessions/me', headers: { cookie: `__service_session=${response.json().session_token}` } });
      expect(me.statusCode, me.body).toBe(200);
      expect(me.json().session_id).toBe(response.json().session.session_id);
    }
    for (const id of ids) expect((await eventsOf(id)).map((event) => event.type)).toEqual(['session.created', 'login.succeeded']);
    // Every token is spent.
    for (const handoff of handoffs.slice(0, 3)) expect((await exchange(handoff.token)).statusCode).toBe(404);
  });

  it('in one batch: a token named twice is spent once, a shell is upgraded alone, unknown, voided and other-project tokens write nothing', async () => {
    const fresh = await handoffFor(t, f.project.id, f.userId);
    const shell = (await t.app.inject({ method: 'POST', url: '/sessions', headers: bearer(f.project.project_secret), payload: { project_id: f.project.id } })).json().session;
    const onShell = await handoffFor(t, f.project.id, f.userId, { sessionId: shell.session_id });
    const goneUser = await createUser(t, f.project.id);
    const voided = await handoffFor(t, f.project.id, goneUser);
    expect((await t.app.inject({ method: 'DELETE', url: `/users/${goneUser}?project_id=${f.project.id}`, headers: bearer(f.project.project_secret) })).statusCode).toBe(204);

    const other = await t.createProject();
    const foreign = await handoffFor(t, f.project.id, f.userId);

    const items = [item(fresh.token), item(fresh.token), item('gh_unknown_token_for_the_batch'), item(onShell.token), item(voided.token), item(foreign.token, { projectId: other.id })];
    const { result: results, statements } = await statementsOf(() => t.container.exchange.direct.run(items));
    // The batch statement wrote one session; the five exchanges it did not write ran alone.
    expect(statements.map((text) => text.includes('unnest('))).toEqual([true, false, false, false, false, false]);
    // Another project cannot spend the token; its own project still can.
    expect(results[5]).toEqual({ status: 'fulfilled', value: undefined });
    expect((await exchange(foreign.token)).statusCode).toBe(200);
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled', 'fulfilled', 'fulfilled', 'fulfilled']);
    const [first, twice, unknown, upgraded, gone] = results.map((result) => (result.status === 'fulfilled' ? result.value : undefined));
    // The token named twice: exactly one of its two exchanges wrote a session.
    expect([first, twice].filter(Boolean)).toHaveLength(1);
    expect(unknown).toBeUndefined();
    expect(gone).toBeUndefined();
    expect(upgraded?.id).toBe(shell.session_id);
    expect(upgraded?.state).toBe('active');
    expect(upgraded?.superseded_token_hash).not.toBeNull();
    const written = (first ?? twice)!;
    expect(written.user_id).toBe(f.userId);
    expect((await eventsOf(written.id)).map((event) => event.type)).toEqual(['session.created', 'login.succeeded']);
    const sessions = await sql<{ count: string }>`select count(*)::text as count from sessions where id in (${items[0].id}, ${items[1].id}, ${items[2].id}, ${items[4].id})`.execute(t.container.db);
    expect(sessions.rows[0].count).toBe('1');
  });

  it('a batch statement that fails writes nothing, and each of its exchanges then gets its own answer', async () => {
    const [a, b, c] = await Promise.all([1, 2, 3].map(() => handoffFor(t, f.project.id, f.userId)));
    // Two exchanges given one session id: the batch's insert fails as a whole.
    const clash = item(a.token);
    const items = [clash, item(b.token, { id: clash.id }), item(c.token)];
    logged.length = 0;
    const { result: results, statements } = await statementsOf(() => t.container.exchange.direct.run(items));
    expect(statements.map((text) => text.includes('unnest('))).toEqual([true, false, false, false]);
    // The failed batch is said in the log by its SQLSTATE (unique violation), never by the row's values.
    const batchLines = logged.map((line) => JSON.parse(line)).filter((line) => String(line.msg).includes('exchange batch'));
    expect(batchLines).toMatchObject([{ level: 40, sqlstate: '23505', exchanges: 3, msg: expect.stringContaining('exchange batch failed') }]);
    expect(logged.join('')).not.toContain(clash.id);
    // Run alone (and at once), one of the two clashing exchanges wins the id and the other fails.
    const clashing = [results[0], results[1]];
    expect(clashing.filter((result) => result.status === 'rejected')).toHaveLength(1);
    const winner = clashing.findIndex((result) => result.status === 'fulfilled');
    expect(clashing[winner]).toMatchObject({ status: 'fulfilled', value: { id: clash.id, user_id: f.userId } });
    expect(results[2]).toMatchObject({ status: 'fulfilled', value: { user_id: f.userId } });
    // The exchange that failed spent nothing: its token still works; the others are spent.
    const [spent, unspent] = winner === 0 ? [a, b] : [b, a];
    const retried = await exchange(unspent.token);
    expect(retried.statusCode, retried.body).toBe(200);
    expect((await exchange(spent.token)).statusCode).toBe(404);
    expect((await exchange(c.token)).statusCode).toBe(404);
  });

  it('of 40 concurrent exchanges of 4 tokens, exactly one per token succeeds', async () => {
    const handoffs = await Promise.all([1, 2, 3, 4].map(() => handoffFor(t, f.project.id, f.userId)));
    const responses = await Promise.all(Array.from({ length: 40 }, (_, index) => exchange(handoffs[index % 4].token)));
    expect(responses.filter((response) => response.statusCode === 200)).toHaveLength(4);
    expect(responses.filter((response) => response.statusCode === 404)).toHaveLength(36);
    const users = new Set(responses.filter((response) => response.statusCode === 200).map((response) => response.json().session.session_id));
    expect(users.size).toBe(4);
  });
});
