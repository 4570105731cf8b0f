import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestEngine, type TestEngine } from '../../test/helpers/engine.js';
import { EmbeddedVacuum } from './vacuum.js';

describe('the embedded database vacuum', () => {
  let test: TestEngine;
  beforeAll(async () => {
    test = await openTestEngine();
    await sql`create table vacuum_probe (id text primary key, payload text not null)`.execute(test.engine.db);
  });
  afterAll(async () => test.close());

  const db = () => test.engine.db;
  const heapBytes = async () => Number((await sql<{ bytes: string }>`select pg_relation_size('vacuum_probe') as bytes`.execute(db())).rows[0].bytes);
  /** What a handoff token's table lives through: rows written, then deleted by a sweep. */
  async function churn(rounds: number, from: number): Promise<void> {
    for (let round = from; round < from + rounds; round++) {
      await sql`insert into vacuum_probe select ${`r${round}_`} || g, repeat('x', 200) from generate_series(1, 500) as g`.execute(db());
      await sql`delete from vacuum_probe where id like ${`r${round}_%`}`.execute(db());
    }
  }

  it('keeps a table whose rows come and go from growing with the traffic, and gathers statistics', async () => {
    const vacuum = new EmbeddedVacuum(db());
    await churn(10, 0);
    const unvacuumed = await heapBytes();
    // Ten rounds of 500 rows of 200 bytes: the deleted rows still fill the file.
    expect(unvacuumed).toBeGreaterThan(500_000);

    const result = await vacuum.run();
    expect(result.tables).toBeGreaterThan(30);
    // The table is empty: VACUUM gives its pages back.
    expect(await heapBytes()).toBeLessThan(unvacuumed / 10);

    for (let cycle = 0; cycle < 5; cycle++) {
      await churn(2, 10 + 2 * cycle);
      await vacuum.run();
    }
    expect(await heapBytes()).toBeLessThan(unvacuumed / 10);

    // Every table of the schema has statistics now (-1: never vacuumed or analysed).
    const unanalysed = await sql<{ relname: string }>`select c.relname from pg_class c join pg_tables t on t.tablename = c.relname and t.schemaname = current_schema() where c.reltuples < 0`.execute(db());
    expect(unanalysed.rows).toEqual([]);
  });
});
