import { createHash } from 'node:crypto';
import type pg from 'pg';

/** A statement text seen this often is prepared, by name, on each connection that runs it. */
const PREPARE_AFTER = 3;
/** Distinct statement texts that get a name (Kysely builds few; IN-lists of every length would not fit). */
const MAX_NAMED_TEXTS = 500;
/** Prepared statements one server connection may hold. */
const MAX_PER_CONNECTION = 200;
/** What `names` holds for a text that runs unnamed for good. */
const NEVER = '';

/** Where an `ON CONFLICT` names its conflict target. */
const CONFLICT_TARGET = /\bon\s+conflict\s*\(/gi;

/**
 * True for `INSERT ... ON CONFLICT (<columns>) WHERE <predicate>`: the arbiter is a partial unique
 * index, found by proving its predicate from the statement's, which a generic plan cannot do when
 * the predicate holds a parameter (error 42P10). Any other upsert runs on a generic plan as well.
 */
export function infersPartialArbiter(text: string): boolean {
  for (const target of text.matchAll(CONFLICT_TARGET)) {
    let depth = 1;
    let at = target.index! + target[0].length;
    for (; at < text.length && depth > 0; at++) {
      if (text[at] === '(') depth++;
      else if (text[at] === ')') depth--;
    }
    if (/^\s*where\b/i.test(text.slice(at, at + 16))) return true;
  }
  return false;
}
/** "cached plan must not change result type" (a column added under a running `select *`), "invalid statement name". */
const STALE_STATEMENT = new Set(['0A000', '26000']);

interface Tracked {
  prepared: Set<string>;
  /** Set after a stale-statement error: this connection runs unnamed statements from then on. */
  disabled: boolean;
}

/**
 * Wraps a pg pool so that statements with parameters that Kysely sends again and again run as
 * named prepared statements: PostgreSQL then parses them once per connection and, after five runs,
 * may reuse a generic plan, instead of parsing and planning on every call (the session check and
 * the exchange's insert are such statements). Not an upsert whose arbiter is a partial index
 * (`infersPartialArbiter`). Bounded per
 * process and per connection; statements without parameters (BEGIN, COMMIT, scripts) are left
 * alone. A connection
 * that meets a stale prepared statement after DDL (error 0A000) answers that one query with the
 * error and runs unnamed statements afterwards.
 */
export function withPreparedStatements(pool: pg.Pool): { connect(): Promise<pg.PoolClient>; end(): Promise<void> } {
  const counts = new Map<string, number>();
  const names = new Map<string, string>();
  const tracked = new WeakMap<pg.PoolClient, Tracked>();

  /** The text's statement name; undefined while it runs unnamed (not yet repeated, or never: NEVER). */
  function nameFor(text: string): string | undefined {
    const known = names.get(text);
    if (known !== undefined) return known === NEVER ? undefined : known;
    if (names.size >= MAX_NAMED_TEXTS) return undefined;
    const count = (counts.get(text) ?? 0) + 1;
    if (count < PREPARE_AFTER) {
      if (counts.size >= 10 * MAX_NAMED_TEXTS) counts.clear();
      counts.set(text, count);
      return undefined;
    }
    counts.delete(text);
    // Decided once per text, when it first repeats, not on every call.
    if (infersPartialArbiter(text)) {
      names.set(text, NEVER);
      return undefined;
    }
    const name = `gh_${createHash('sha1').update(text).digest('hex').slice(0, 20)}`;
    names.set(text, name);
    return name;
  }

  function wrap(client: pg.PoolClient): pg.PoolClient {
    if (tracked.has(client)) return client;
    const state: Tracked = { prepared: new Set(), disabled: false };
    tracked.set(client, state);
    const query = client.query.bind(client) as (config: unknown, values?: unknown) => Promise<pg.QueryResult>;
    const patched = (text: unknown, values?: unknown) => {
      if (state.disabled || typeof text !== 'string' || !Array.isArray(values) || values.length === 0) {
        return query(text, values);
      }
      const name = nameFor(text);
      if (name === undefined) return query(text, values);
      if (!state.prepared.has(name)) {
        if (state.prepared.size >= MAX_PER_CONNECTION) return query(text, values);
        state.prepared.add(name);
      }
      return query({ name, text, values }).catch((error: { code?: string }) => {
        if (error?.code !== undefined && STALE_STATEMENT.has(error.code)) state.disabled = true;
        throw error;
      });
    };
    (client as unknown as { query: typeof patched }).query = patched;
    return client;
  }

  return {
    connect: async () => wrap(await pool.connect()),
    end: () => pool.end(),
  };
}
