import { sql, type RawBuilder, type SelectQueryBuilder } from 'kysely';
import type { Cursor } from '../core/pagination.js';

/** JSON values go to jsonb columns as text so that pg never mistakes a JS array for a SQL array. */
export function jsonb<T>(value: T): RawBuilder<T> {
  return sql<T>`${JSON.stringify(value)}::jsonb`;
}

/** Keyset condition for cursor pagination over (created_at, id). */
export function afterCursor<DB, TB extends keyof DB, O>(
  query: SelectQueryBuilder<DB, TB, O>,
  table: string,
  cursor: Cursor | undefined,
  direction: 'asc' | 'desc' = 'asc',
): SelectQueryBuilder<DB, TB, O> {
  const createdAt = sql.ref(`${table}.created_at`);
  const id = sql.ref(`${table}.id`);
  let next = query;
  if (cursor) {
    next =
      direction === 'asc'
        ? next.where(sql<boolean>`(${createdAt}, ${id}) > (${cursor.createdAt}, ${cursor.id})`)
        : next.where(sql<boolean>`(${createdAt}, ${id}) < (${cursor.createdAt}, ${cursor.id})`);
  }
  return next.orderBy(sql`${createdAt} ${sql.raw(direction)}, ${id} ${sql.raw(direction)}`) as SelectQueryBuilder<DB, TB, O>;
}

/** PostgreSQL's unique_violation, the same code on both engines. */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  const err = error as { code?: string; constraint?: string } | undefined;
  if (err?.code !== '23505') return false;
  return constraint === undefined || err.constraint === constraint;
}

/**
 * PostgreSQL's class 22 "data exception" (a NUL byte in text, `\u0000` in jsonb, a number out of
 * range...): the database refused a value the client sent, which no JSON Schema fully rules out.
 */
export function isDataException(error: unknown): boolean {
  const code = (error as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' && /^22[0-9A-Z]{3}$/.test(code);
}

/**
 * `left = right` for two NOT NULL columns, as a check on a row that another condition already
 * finds by primary key (the project of a row found by id). Written `is not distinct from`, which
 * the planner can only filter on: it is no index condition and puts the columns in no
 * equivalence class. With a plain `=`, a generic plan made while the tables were near empty may
 * find the row through a `(project_id, ...)` index instead, and keep reading every row of the
 * project once the table has grown (src/sessions/sessions.exchange.plan-growth.test.ts).
 */
export function equalsAsFilter(left: string, right: string): RawBuilder<boolean> {
  return valueEqualsAsFilter(left, sql.ref(right));
}

/** `equalsAsFilter` for a column and a value: `column = value`, only ever a filter (see there). */
export function valueEqualsAsFilter(column: string, value: unknown): RawBuilder<boolean> {
  return sql<boolean>`${sql.ref(column)} is not distinct from ${value}`;
}
