import type { PGlite } from '@electric-sql/pglite';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { lockDataDir } from './data-dir-lock.js';
import { makePrivate } from './private-files.js';
import { tracingOn } from '../core/tracing.js';
import { tracedPool } from './traced-pool.js';
import { withPreparedStatements } from './prepared.js';
import type { Database } from './schema.js';

/**
 * One storage entry point over both engines. PGlite (embedded, single connection) is driven
 * through Kysely's PostgreSQL driver by a pool-shaped adapter that hands its only connection to
 * one holder at a time, so transactions behave the same on both engines.
 */
export interface Engine {
  readonly kind: 'pglite' | 'postgres';
  readonly db: Kysely<Database>;
  /** Runs a multi-statement SQL script on one connection (migrations). */
  runScript(script: string): Promise<void>;
  /** Runs `fn` while holding a cross-process lock (migrations on PostgreSQL). */
  withLock<T>(fn: () => Promise<T>): Promise<T>;
  ping(): Promise<void>;
  close(): Promise<void>;
  /**
   * LISTENs on `channel` (PostgreSQL: a dedicated connection outside the pool; PGlite: the
   * embedded instance) and resolves once the subscription is in effect, with a function that
   * ends it. `onLost` runs at most once, when the connection carrying it fails.
   */
  listen(channel: string, onMessage: (payload: string) => void, onLost: (error?: Error) => void): Promise<() => Promise<void>>;
}

class Mutex {
  private tail: Promise<void> = Promise.resolve();

  acquire(): Promise<() => void> {
    let release!: () => void;
    const next = new Promise<void>((resolve) => (release = resolve));
    const ready = this.tail.then(() => release);
    this.tail = this.tail.then(() => next);
    return ready;
  }
}

interface PgLikeResult {
  command: string;
  rowCount: number;
  rows: unknown[];
}

function pgliteAsPool(pglite: PGlite) {
  const mutex = new Mutex();
  return {
    async connect() {
      const release = await mutex.acquire();
      return {
        async query(text: string, params: unknown[]): Promise<PgLikeResult> {
          const result = await pglite.query(text, params);
          const command = text.trimStart().slice(0, 6).toUpperCase();
          return { command, rowCount: result.affectedRows ?? 0, rows: result.rows };
        },
        release,
      };
    },
    async end() {
      await pglite.close();
    },
  };
}

const LOCK_ID = 7_242_011;

/**
 * The embedded engine: on `dataDir`, or in memory. An in-memory engine may start from `template`,
 * a `dumpPgliteTemplate` image (the tests' migrated database: loading one is about three times
 * faster than creating a cluster).
 */
export async function openPglite(dataDir?: string, template?: Blob): Promise<Engine> {
  const unlock = dataDir ? lockDataDir(dataDir) : () => {};
  let pglite: PGlite;
  try {
    // Loaded on demand: a PostgreSQL deployment never pays for the embedded engine's code.
    const { PGlite } = await import('@electric-sql/pglite');
    pglite = dataDir ? await PGlite.create(dataDir) : await PGlite.create(template ? { loadDataDir: template } : {});
    if (dataDir) makePrivate(dataDir);
  } catch (error) {
    unlock();
    throw error;
  }
  const pool = pgliteAsPool(pglite);
  // Statement spans only when tracing is on as the engine opens: off, nothing wraps the pool.
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: (tracingOn() ? tracedPool(pool, 'postgresql') : pool) as never }) });
  const engine: Engine = {
    kind: 'pglite',
    db,
    runScript: async (script) => {
      await db.connection().execute(async () => {
        try {
          await pglite.exec(script);
        } catch (error) {
          await pglite.exec('rollback').catch(() => {});
          throw error;
        }
      });
    },
    // The data directory lock already keeps every other process out.
    withLock: (fn) => fn(),
    ping: async () => {
      await sql`select 1`.execute(db);
    },
    // Through the connection mutex, so LISTEN never lands inside another holder's transaction.
    // PGlite delivers notifications in-process when the notifying transaction commits.
    listen: async (channel, onMessage) => {
      const unlisten = await db.connection().execute(() => pglite.listen(channel, onMessage));
      return () => db.connection().execute(() => unlisten()).catch(() => {});
    },
    close: async () => {
      try {
        await db.destroy();
      } finally {
        unlock();
      }
    },
  };
  embedded.set(engine, pglite);
  return engine;
}

const embedded = new WeakMap<Engine, PGlite>();

/** An image of an embedded engine's whole cluster, which `openPglite(undefined, image)` starts from. */
export async function dumpPgliteTemplate(engine: Engine): Promise<Blob> {
  const pglite = embedded.get(engine);
  if (!pglite) throw new Error('only an embedded (PGlite) engine can be dumped');
  return engine.db.connection().execute(() => pglite.dumpDataDir('none'));
}

/**
 * A pooled PostgreSQL connection is retired after this long (when next idle), and its prepared
 * statements with it (src/db/prepared.ts). A prepared statement keeps its generic plan until
 * PostgreSQL invalidates it, which autovacuum's ANALYZE does, so a plan made while a table was
 * nearly empty can outlive the table's growth for as long as autovacuum lags or is off: found a
 * user by id through `users_project_created`, 2,100 buffers and 7 ms a lookup at 200,000 users
 * of one project, against 4 buffers and 0.03 ms by primary key (docs/performance.md, tenth
 * round). A new connection prepares and plans again on the tables as they are.
 */
export const CONNECTION_LIFETIME_SECONDS = 600;

export async function openPostgres(url: string, poolSize = 20): Promise<Engine> {
  const pool = new pg.Pool({ connectionString: url, max: poolSize, connectionTimeoutMillis: 5000, maxLifetimeSeconds: CONNECTION_LIFETIME_SECONDS });
  // An idle client losing its connection must not crash the process; the next query reconnects.
  pool.on('error', () => {});
  // A client that loses its connection while checked out emits 'error' too, and pg attaches no
  // listener then: without this one the process would die. Its query still fails (503) and the
  // pool discards the broken client on release.
  pool.on('connect', (client) => client.on('error', () => {}));
  const prepared = withPreparedStatements(pool);
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: tracingOn() ? tracedPool(prepared, 'postgresql') : prepared }) });
  return {
    kind: 'postgres',
    db,
    runScript: async (script) => {
      const client = await pool.connect();
      try {
        await client.query(script);
      } catch (error) {
        await client.query('rollback').catch(() => {});
        throw error;
      } finally {
        client.release();
      }
    },
    withLock: async (fn) => {
      const client = await pool.connect();
      try {
        await client.query('select pg_advisory_lock($1)', [LOCK_ID]);
        return await fn();
      } finally {
        await client.query('select pg_advisory_unlock($1)', [LOCK_ID]).catch(() => {});
        client.release();
      }
    },
    ping: async () => {
      await sql`select 1`.execute(db);
    },
    close: () => db.destroy(),
    listen: async (channel, onMessage, onLost) => {
      if (!/^[a-z_]+$/.test(channel)) throw new Error(`invalid channel name ${channel}`);
      const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000, keepAlive: true, keepAliveInitialDelayMillis: 5000 });
      let ended = false;
      const lose = (error?: Error) => {
        if (ended) return;
        ended = true;
        onLost(error);
      };
      client.on('error', lose);
      client.on('end', () => lose());
      client.on('notification', (message) => {
        if (message.channel === channel) onMessage(message.payload ?? '');
      });
      try {
        await client.connect();
        await client.query(`listen ${channel}`);
      } catch (error) {
        ended = true;
        await client.end().catch(() => {});
        throw error;
      }
      return async () => {
        ended = true;
        await client.end().catch(() => {});
      };
    },
  };
}

export function openEngine(options: { databaseUrl?: string; dataDir?: string }): Promise<Engine> {
  return options.databaseUrl ? openPostgres(options.databaseUrl) : openPglite(options.dataDir);
}

/** Node socket errors: the server cannot be reached. */
const SOCKET_ERRORS = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EHOSTUNREACH']);

/**
 * SQLSTATEs of a server that drops or refuses connections (DESIGN §4.6a "Database faults"):
 * class 08 (connection exception), 57P01-57P05 (admin/crash shutdown, cannot connect now, idle
 * session timeout), 53300 (too many connections), and 55000, which is what a database with
 * `ALLOW_CONNECTIONS false` answers a new connection. Nothing in Gatehouse's own SQL raises 55000,
 * so reading it as "unavailable" hides no bug.
 */
function isUnavailableSqlState(code: string): boolean {
  return code.startsWith('08') || /^57P0[1-5]$/.test(code) || code === '53300' || code === '55000';
}

/** True for errors that mean "the database is not reachable right now" rather than a bug. */
export function isConnectionError(error: unknown): boolean {
  const err = error as { code?: unknown; message?: unknown } | undefined;
  if (!err || typeof err !== 'object') return false;
  if (typeof err.code === 'string' && (SOCKET_ERRORS.has(err.code) || isUnavailableSqlState(err.code))) return true;
  const message = typeof err.message === 'string' ? err.message : '';
  return /Connection terminated|connection timeout|timeout exceeded when trying to connect|Client has encountered a connection error|PGlite is closed/i.test(message);
}
