import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { EMBEDDED_VACUUM_INTERVAL_MS } from '../src/db/vacuum.js';
import { createTestApp, type TestApp } from './helpers/app.js';
import { testEngineKind } from './helpers/engine.js';

/** The composition starts the vacuum on the embedded engine when its sweepers run (src/db/vacuum.ts has the how). */
describe.skipIf(testEngineKind() === 'postgres')('the embedded database is vacuumed in the background', () => {
  let t: TestApp;
  beforeAll(async () => {
    // The periodic work is timed with setInterval from the container's creation on: fake it first.
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    t = await createTestApp({ sweepIntervalMs: 60_000 });
  });
  afterAll(async () => {
    await t.close();
    vi.useRealTimers();
  });

  it('gives back the pages of deleted rows and gathers statistics every ten minutes', async () => {
    const db = t.container.db;
    await sql`create table vacuum_wiring (id int primary key, payload text not null)`.execute(db);
    await sql`insert into vacuum_wiring select g, repeat('x', 200) from generate_series(1, 3000) as g`.execute(db);
    await sql`delete from vacuum_wiring`.execute(db);
    const heap = async () => Number((await sql<{ bytes: string }>`select pg_relation_size('vacuum_wiring') as bytes`.execute(db)).rows[0].bytes);
    const analysed = async () => (await sql<{ n: number }>`select reltuples::int as n from pg_class where relname = 'vacuum_wiring'`.execute(db)).rows[0].n >= 0;
    const before = await heap();
    expect(before).toBeGreaterThan(500_000);

    vi.advanceTimersByTime(EMBEDDED_VACUUM_INTERVAL_MS - 60_000);
    expect(await analysed()).toBe(false);
    vi.advanceTimersByTime(60_000);
    await vi.waitFor(async () => expect(await analysed()).toBe(true), { timeout: 10_000, interval: 50 });
    expect(await heap()).toBeLessThan(before / 10);
  });
});
