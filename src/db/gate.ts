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
