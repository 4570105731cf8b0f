import { sql, type Kysely, type SqlBool } from 'kysely';
import { compiledStatement, constantPart, fixedPart, reusablePart, type SqlPart } from './reusable.js';
import type { Database } from './schema.js';

/**
 * A budget that another domain's rows are written under (reserve-first, DESIGN §4.6a): the budget
 * is taken by the first CTE of the statement that writes them, and each row is inserted only where
 * `when` holds, so a spent budget writes nothing, in one round trip.
 */
export interface WriteGate {
  /** Holds inside `write`'s statement once the budget was taken. */
  readonly when: SqlPart<SqlBool>;
  /** Runs `writes` (data-modifying parts gated on `when`) in one statement that takes the budget first; throws the refusal when it is spent. */
  write(writes: SqlPart[]): Promise<void>;
}

/** Holds everywhere: the `when` of a write that no budget gates. */
export const ALWAYS = constantPart<SqlBool>('true');

interface InsertOptions {
  /** Columns whose values are JSON text (or null), cast to jsonb. */
  json?: readonly string[];
  /** `on conflict (<column>) do nothing`. */
  onConflictDoNothing?: string;
}

/**
 * `insert into <table> (<columns>) select <values> where <when>`: one row, written only where the
 * condition holds, compiled once (src/db/reusable.ts; the columns are the first row's keys, the
 * same on every call). PostgreSQL types the selected parameters from the target columns, as for
 * VALUES.
 */
export function insertWhen<T extends keyof Database & string>(db: Kysely<Database>, table: T, options: InsertOptions = {}): (row: Record<string, unknown>, when: SqlPart<SqlBool>) => SqlPart {
  let part: ((args: Record<string, unknown>) => SqlPart) | undefined;
  return (row, when) => {
    part ??= reusablePart(db, (args: Record<string, unknown>) => {
      const columns = Object.keys(row);
      const values = db
        .selectNoFrom(columns.map((column) => (options.json?.includes(column) ? sql`${args[column]}::jsonb` : sql`${args[column]}`).as(column)))
        .where(args[WHEN] as SqlPart<SqlBool>);
      const insert = db.insertInto(table).columns(columns as never).expression(values as never);
      return options.onConflictDoNothing === undefined ? insert : insert.onConflict((oc) => oc.column(options.onConflictDoNothing as never).doNothing());
    });
    return part({ ...row, [WHEN]: when });
  };
}

/** The key `insertWhen` passes its condition under (no column is named so). */
const WHEN = '\u0002when';

/**
 * A `WriteGate` whose budget `take` takes: a data-modifying part that returns a row only when it
 * took one unit (an upsert or update whose WHERE checks the limit). It runs as the statement's
 * first CTE, named `name`; `refuse` makes the error `write` throws when it returned nothing.
 * Made once per budget: `gate` makes each request's gate, and no statement is built twice.
 */
export function takenGates(db: Kysely<Database>, name: string): (take: SqlPart, refuse: () => Error | Promise<Error>) => WriteGate {
  const when = fixedPart<SqlBool>(db, sql`exists (select 1 from ${sql.table(name)})`);
  // One shape per number of writes (a budget gates one or two).
  const statements: Array<(args: Record<string, SqlPart>) => SqlPart> = [];
  const statementFor = (writes: number) =>
    (statements[writes] ??= reusablePart(db, (a: Record<string, SqlPart>) => {
      const rest = Array.from({ length: writes }, (_, i) => sql`, ${sql.table(`${name}_w${i}`)} as (${a[`w${i}`]})`);
      return sql`with ${sql.table(name)} as (${a.take})${sql.join(rest, sql``)} select ${a.when} as taken`;
    }));
  return (take, refuse) => ({
    when,
    write: async (writes) => {
      const args: Record<string, SqlPart> = { take, when };
      writes.forEach((write, i) => (args[`w${i}`] = write));
      const { rows } = await db.executeQuery(compiledStatement<{ taken: boolean }>(statementFor(writes.length)(args)));
      if (rows[0]?.taken !== true) throw await refuse();
    },
  });
}
