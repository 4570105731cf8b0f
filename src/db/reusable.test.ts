import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestEngine, type TestEngine } from '../../test/helpers/engine.js';
import { compiledStatement, constantPart, reusablePart, reusableStatement, SqlPart } from './reusable.js';

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

  it('nests parts another domain built: their text where the builder put it, every value numbered in the order of the text', async () => {
    let builds = 0;
    const guarded = reusablePart(db, (a: { id: string; when: SqlPart<boolean> }) => {
      builds++;
      return db.selectFrom('reuse_probe').select('id').where('id', '=', a.id).where(a.when);
    });
    const vAbove = reusablePart(db, (a: { v: number }) => sql<boolean>`v > ${a.v}::int`);
    const outer = reusablePart(db, (a: { inner: SqlPart; label: string }) => sql<{ id: string; label: string }>`select inner_rows.id, ${a.label}::text as label from (${a.inner}) as inner_rows`);
    const statement = compiledStatement<{ id: string; label: string }>(outer({ inner: guarded({ id: 'b', when: vAbove({ v: 10 }) }), label: 'x' }));
    expect(statement.parameters).toEqual(['x', 'b', 10]);
    expect(statement.sql.match(/\$\d+/g)).toEqual(['$1', '$2', '$3']);
    expect((await db.executeQuery(statement)).rows).toEqual([{ id: 'b', label: 'x' }]);
    // Another nested part of another shape, with the same builders: nothing is built again.
    const none = compiledStatement<{ id: string }>(outer({ inner: guarded({ id: 'b', when: constantPart('false') }), label: 'y' }));
    expect(none.parameters).toEqual(['y', 'b']);
    expect((await db.executeQuery(none)).rows).toEqual([]);
    expect(builds).toBe(1);
  });

  it('is an expression a Kysely builder takes, with the same result as the composed text', async () => {
    const vAbove = reusablePart(db, (a: { v: number }) => sql<boolean>`v > ${a.v}::int`);
    const rows = await db.selectFrom('reuse_probe').select('id').where(vAbove({ v: 10 })).where('id', '=', 'b').execute();
    expect(rows).toEqual([{ id: 'b' }]);
  });

  it('refuses a nested part where a value was, a value where a part was, another set of arguments, and text that could hold a parameter', () => {
    const guarded = reusablePart(db, (a: { id: string; when: SqlPart<boolean> }) => db.selectFrom('reuse_probe').select('id').where('id', '=', a.id).where(a.when));
    guarded({ id: 'a', when: constantPart('true') });
    expect(() => guarded({ id: 'a', when: true as unknown as SqlPart<boolean> })).toThrow(/when must be an SqlPart/);
    expect(() => guarded({ id: constantPart('x') as unknown as string, when: constantPart('true') })).toThrow(/id must not be an SqlPart/);
    expect(() => constantPart('v = $1')).toThrow(/parameter/);
    const insert = reusablePart(db, (a: Record<string, unknown>) => db.insertInto('reuse_probe').values({ id: a.id as string, v: a.v as number, at: a.at as Date }));
    insert({ id: 'a', v: 1, at: null });
    expect(() => insert({ id: 'a', v: 1 })).toThrow(/2 arguments where the first call passed 3/);
    expect(() => insert({ id: 'a', v: 1, at: null, extra: 2 })).toThrow(/4 arguments/);
    const dollar = reusablePart(db, (a: { id: string }) => sql`select '$1' as text, ${a.id}::text as id`);
    expect(() => dollar({ id: 'a' })).toThrow(/out of order/);
  });
});
