import { sql, type Compilable, type Expression, type Kysely, type SqlBool } from 'kysely';
import type { Database } from './schema.js';

/**
 * A budget that another domain's rows are written under (reserve-first, DESIGN §4.6a): the budget
 * is taken by the first CTE of the statement that writes them, and each row is inserted only where
 * `when` holds, so a spent budget writes nothing, in one round trip.
 */
export interface WriteGate {
  /** Holds inside `write`'s statement once the budget was taken. */
  readonly when: Expression<SqlBool>;
  /** Runs `writes` (data-modifying queries gated on `when`) in one statement that takes the budget first; throws the refusal when it is spent. */
  write(writes: Compilable[]): Promise<void>;
}

/**
 * `insert into <table> (<columns>) select <values> where <when>`: one row, written only where the
 * condition holds. PostgreSQL types the selected parameters from the target columns, as for VALUES.
 */
export function insertWhen<T extends keyof Database & string>(db: Kysely<Database>, table: T, row: Record<string, unknown>, when: Expression<SqlBool>) {
  const columns = Object.keys(row);
  const values = db.selectNoFrom(columns.map((column) => sql`${row[column]}`.as(column))).where(when);
  return db.insertInto(table).columns(columns as never).expression(values as never);
}

/**
 * A `WriteGate` whose budget `take` takes: a data-modifying query that returns a row only when it
 * took one unit (an upsert or update whose WHERE checks the limit). It runs as the statement's
 * first CTE, named `name`; `refuse` makes the error `write` throws when it returned nothing.
 */
export function takenGate(db: Kysely<Database>, name: string, take: Compilable, refuse: () => Error | Promise<Error>): WriteGate {
  const when = sql<boolean>`exists (select 1 from ${sql.table(name)})`;
  return {
    when,
    write: async (writes) => {
      const rest = writes.map((write, i) => sql`, ${sql.table(`${name}_w${i}`)} as (${write})`);
      const { rows } = await sql<{ taken: boolean }>`with ${sql.table(name)} as (${take})${sql.join(rest, sql``)} select ${when} as taken`.execute(db);
      if (rows[0]?.taken !== true) throw await refuse();
    },
  };
}
