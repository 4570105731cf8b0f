import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestEngine, type TestEngine } from '../../test/helpers/engine.js';
import { reusableStatement } from './reusable.js';

interface ProbeTables {
  reuse_probe: { id: string; v: number; at: Date | null };
}

describe('reusable statements', () => {
  let test: TestEngine;
  let db: Kysely<ProbeTables>;

  beforeAll(async () => {
    test = await openTestEngine();
    db = test.engine.db as unknown as Kysely<ProbeTables>;
    await sql`create table reuse_probe (id text primary key, v int not null, at timestamptz)`.execute(db);
  });
  afterAll(async () => test?.close());

  it('compiles once and runs with each call\'s values, an argument used twice filling both places', async () => {
    let builds = 0;
    const upsert = reusableStatement(db, (a: { id: string; v: number; at: Date }) => {
      builds++;
      const insert = db.insertInto('reuse_probe').values({ id: a.id, v: a.v, at: a.at }).returning(['id', 'v']);
      return sql<{ id: string; v: number; twice: number }>`with inserted as (${insert}) select inserted.*, ${a.v}::int * 2 as twice from inserted`;
    });
    const at = new Date('2026-01-02T03:04:05Z');
    const first = upsert({ id: 'a', v: 1, at });
    const second = upsert({ id: 'b', v: 20, at });
    expect(builds).toBe(1);
    expect(second.sql).toBe(first.sql);
    expect(second.parameters).toEqual(['b', 20, at, 20]);
    expect((await db.executeQuery(first)).rows).toEqual([{ id: 'a', v: 1, twice: 2 }]);
    expect((await db.executeQuery(second)).rows).toEqual([{ id: 'b', v: 20, twice: 40 }]);
    const stored = await db.selectFrom('reuse_probe').select(['id', 'at']).orderBy('id').execute();
    expect(stored.map((row) => [row.id, new Date(row.at!).toISOString()])).toEqual([
      ['a', at.toISOString()],
      ['b', at.toISOString()],
    ]);
  });

  it('refuses a builder whose text could depend on its values', () => {
    const computed = reusableStatement(db, (a: { id: string }) => db.selectFrom('reuse_probe').selectAll().where('id', '=', `${String(a.id)}-x`));
    expect(() => computed({ id: 'a' })).toThrow(/not an argument/);
    const constant = reusableStatement(db, (a: { id: string; v: number }) => db.selectFrom('reuse_probe').selectAll().where('id', '=', a.id).where('v', '=', 3));
    expect(() => constant({ id: 'a', v: 1 })).toThrow(/not an argument/);
    const unused = reusableStatement(db, (a: { id: string; v: number }) => sql`select ${a.id}::text as id`);
    expect(() => unused({ id: 'a', v: 1 })).toThrow(/v never reach/);
    const branching = reusableStatement(db, (a: { at: Date }) => sql`select ${a.at.getTime()}::bigint`);
    expect(() => branching({ at: new Date() })).toThrow(TypeError);
  });
});
