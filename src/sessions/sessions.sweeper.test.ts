import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { bearer, createTestApp, type TestApp } from '../../test/helpers/app.js';
import { HOUR, MINUTE } from '../core/clock.js';
import { IdempotencyStore } from './store.js';
import { Sweeper } from './sweeper.js';
import { handoffFor, projectWithUser, type Fixture } from './test-fixtures.js';

describe('sweeper', () => {
  let t: TestApp;
  let f: Fixture;
  beforeAll(async () => {
    t = await createTestApp({ retentionMs: HOUR });
    f = await projectWithUser(t);
  });
  afterAll(async () => t.close());

  const count = async (table: 'sessions' | 'auth_attempts' | 'handoff_tokens' | 'idempotency_records') =>
    Number((await t.container.db.selectFrom(table).select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow()).n);

  it('deletes sessions, attempts, handoff tokens and idempotency records only once past the retention', async () => {
    const shell = await t.container.sessions.createAnonymous(f.project.id);
    const handoff = await handoffFor(t, f.project.id, f.userId);
    const exchanged = await t.app.inject({
      method: 'POST',
      url: `/sessions/exchange?project_id=${f.project.id}`,
      headers: { ...bearer(f.project.project_secret), 'idempotency-key': 'sweep-me' },
      payload: { handoff_token: handoff.token, ttl: 'PT2H' },
    });
    expect(exchanged.statusCode).toBe(200);
    const deleted: string[] = [];
    t.container.sessions.onDeleted(async (_trx, row) => {
      deleted.push(row.id);
    });
    const before = { sessions: await count('sessions'), auth_attempts: await count('auth_attempts'), handoff_tokens: await count('handoff_tokens'), idempotency_records: await count('idempotency_records') };
    expect(before).toEqual({ sessions: 2, auth_attempts: 1, handoff_tokens: 1, idempotency_records: 1 });

    // Expired but within the retention: everything stays (and lists as expired).
    t.clock.advance(30 * MINUTE);
    expect(await t.container.sweeper.sweep()).toEqual({ sessions: 0, auth_attempts: 0, handoff_tokens: 0, idempotency_records: 0, events: 0 });
    const listed = await t.app.inject({ method: 'GET', url: `/sessions?project_id=${f.project.id}&state=expired`, headers: bearer(f.project.project_secret) });
    expect(listed.json().sessions.map((s: { session_id: string }) => s.session_id)).toEqual([shell.session.session_id]);

    // Shell (10 min), attempt (15 min), token (60 s), record (5 min) are now more than 1 h past expiry.
    t.clock.advance(50 * MINUTE);
    expect(await t.container.sweeper.sweep()).toEqual({ sessions: 1, auth_attempts: 1, handoff_tokens: 1, idempotency_records: 1, events: 0 });
    expect(deleted).toEqual([shell.session.session_id]);
    expect(await count('sessions')).toBe(1);

    // The exchanged session (2 h) goes an hour after its expiry.
    t.clock.advance(2 * HOUR);
    expect((await t.container.sweeper.sweep()).sessions).toBe(1);
    expect(await count('sessions')).toBe(0);
    expect(deleted).toEqual([shell.session.session_id, exchanged.json().session.session_id]);
  });

  it('runs periodically on its timer and stops cleanly', async () => {
    const sweeper = new Sweeper(t.container.db, t.container.sessions, t.container.attempts.store, new IdempotencyStore(t.container.db), t.clock, 0);
    const shell = await t.container.sessions.createAnonymous(f.project.id);
    t.clock.advance(11 * MINUTE);
    const stop = sweeper.start(5);
    // Waits for the background timer (not for an expiry: the clock was moved above).
    await vi.waitFor(async () => {
      expect(await t.container.db.selectFrom('sessions').select('id').where('id', '=', shell.session.session_id).executeTakeFirst()).toBeUndefined();
    }, { timeout: 5000, interval: 10 });
    await stop();
  });
});
