import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openTestEngine, testEngineKind, type TestEngine } from '../../test/helpers/engine.js';
import { CONNECTION_LIFETIME_SECONDS, openPostgres, type Engine } from './engine.js';
import { infersPartialArbiter } from './prepared.js';

describe.skipIf(testEngineKind() === 'pglite')('prepared statements (PostgreSQL only: PGlite runs in-process and prepares nothing)', () => {
  let test: TestEngine;
  let engine: Engine;

  beforeAll(async () => {
    test = await openTestEngine();
    // One connection, so that what is prepared is visible to the next statement.
    engine = await openPostgres(test.url!, 1);
    await sql`create table prep_probe (id text primary key, v int)`.execute(engine.db);
    await sql`insert into prep_probe values ('a', 1), ('b', 2)`.execute(engine.db);
  });
  afterAll(async () => {
    await engine?.close();
    await test?.close();
  });

  const preparedNames = async () =>
    (await sql<{ name: string; statement: string }>`select name, statement from pg_prepared_statements`.execute(engine.db)).rows;
  const read = (id: string) => engine.db.selectFrom('prep_probe' as never).selectAll().where('id' as never, '=', id as never).execute();

  it('names a repeated parameterised statement after a few runs, with the same results', async () => {
    const results = [];
    for (const id of ['a', 'b', 'a', 'b', 'a']) results.push(await read(id));
    expect(results.map((rows) => (rows[0] as { v: number }).v)).toEqual([1, 2, 1, 2, 1]);
    const prepared = await preparedNames();
    expect(prepared.some((row) => row.name.startsWith('gh_') && row.statement.includes('prep_probe'))).toBe(true);
    // Statements without parameters are never named.
    expect(prepared.every((row) => row.statement.includes('$1'))).toBe(true);
  });

  it('names a repeated parameterised write too, with the same effects', async () => {
    for (let i = 0; i < 6; i++) await sql`update prep_probe set v = v + ${1} where id = ${'b'}`.execute(engine.db);
    expect((await read('b'))[0]).toMatchObject({ v: 8 });
    expect((await preparedNames()).some((row) => row.statement.startsWith('update prep_probe'))).toBe(true);
  });

  it('names an upsert whose arbiter is a unique index (its conflict target has no predicate), with the same effects', async () => {
    await sql`create table prep_counter (id text primary key, n int not null)`.execute(engine.db);
    for (let i = 0; i < 8; i++) {
      await sql`insert into prep_counter values (${'c'}, ${1}) on conflict (id) do update set n = prep_counter.n + ${1} where prep_counter.n < ${5}`.execute(engine.db);
    }
    expect((await sql<{ n: number }>`select n from prep_counter`.execute(engine.db)).rows).toEqual([{ n: 5 }]);
    expect((await preparedNames()).some((row) => row.statement.includes('prep_counter'))).toBe(true);
  });

  it('leaves upserts with a partial-index predicate unnamed: one whose predicate is a parameter keeps working past the generic-plan threshold', async () => {
    await sql`create table prep_upsert (id text, kind text, n int)`.execute(engine.db);
    await sql`create unique index prep_upsert_one on prep_upsert (id) where kind = 'password'`.execute(engine.db);
    for (let i = 0; i < 8; i++) {
      await sql`insert into prep_upsert values (${'u'}, ${'password'}, ${i}) on conflict (id) where kind = ${'password'} do update set n = excluded.n`.execute(engine.db);
    }
    const rows = await sql<{ n: number }>`select n from prep_upsert`.execute(engine.db);
    expect(rows.rows).toEqual([{ n: 7 }]);
    expect((await preparedNames()).some((row) => row.statement.includes('prep_upsert'))).toBe(false);
  });

  it('a statement made stale by DDL fails once, then the connection runs unnamed statements', async () => {
    await sql`alter table prep_probe add column extra text`.execute(engine.db);
    const first = await read('a').then(
      () => 'ok',
      (error: { code?: string }) => error.code,
    );
    // PostgreSQL refuses a cached `select *` whose result type changed, once; the next call runs unnamed.
    expect(first).toBe('0A000');
    const again = await read('a');
    expect(again[0]).toMatchObject({ id: 'a', v: 1, extra: null });
    expect((await read('b'))[0]).toMatchObject({ v: 8 });
  });

  it('a connection is retired after its lifetime, and the statements and plans it held with it', async () => {
    // pg-pool times a connection's lifetime with setTimeout from its connect on: fake it before.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const aged = await openPostgres(test.url!, 1);
    try {
      const backend = async () => (await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(aged.db)).rows[0].pid;
      const readAged = (id: string) => aged.db.selectFrom('prep_probe' as never).selectAll().where('id' as never, '=', id as never).execute();
      for (const id of ['a', 'b', 'a', 'b']) await readAged(id);
      const first = await backend();
      const named = async () => (await sql<{ n: number }>`select count(*)::int as n from pg_prepared_statements where statement like '%prep_probe%'`.execute(aged.db)).rows[0].n;
      expect(await named()).toBe(1);

      // A busy connection: never idle for the pool's 10 s idle timeout, which would end it sooner.
      for (let seconds = 5; seconds < CONNECTION_LIFETIME_SECONDS; seconds += 5) {
        vi.advanceTimersByTime(5000);
        expect(await backend()).toBe(first);
      }
      vi.advanceTimersByTime(5000);
      const second = await backend();
      expect(second).not.toBe(first);
      // The new connection holds nothing prepared until the statement repeats there, and then prepares it afresh.
      expect(await named()).toBe(0);
      for (const id of ['a', 'b', 'a']) await readAged(id);
      expect(await named()).toBe(1);
      expect(await backend()).toBe(second);
    } finally {
      vi.useRealTimers();
      await aged.close();
    }
  });
});

describe('which upserts a generic plan can run', () => {
  it('tells an upsert with a partial-index predicate from one without, whatever the target holds', () => {
    expect(infersPartialArbiter('insert into t values ($1) on conflict (id) where kind = $2 do nothing')).toBe(true);
    expect(infersPartialArbiter('insert into t values ($1) on conflict (lower(id), (a + 1))\n  WHERE kind = $2 do nothing')).toBe(true);
    expect(infersPartialArbiter('with a as (insert into t values ($1) on conflict (id) do nothing returning id) insert into u values ($2) on conflict (x) where y do nothing')).toBe(true);
    expect(infersPartialArbiter('insert into t values ($1) on conflict (id) do update set n = t.n + 1 where t.n < $2')).toBe(false);
    expect(infersPartialArbiter('insert into t values ($1) on conflict (lower(id)) do nothing')).toBe(false);
    expect(infersPartialArbiter('insert into t values ($1) on conflict do nothing')).toBe(false);
  });
});
