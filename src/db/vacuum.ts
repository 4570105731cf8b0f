import { sql, type Kysely } from 'kysely';
import { runPeriodically, type TaskLogger } from '../core/periodic.js';
import type { Database } from './schema.js';

/** How often the embedded database is vacuumed and analysed. */
export const EMBEDDED_VACUUM_INTERVAL_MS = 10 * 60 * 1000;

export interface VacuumResult {
  tables: number;
  ms: number;
}

/**
 * Autovacuum's work for the embedded database. PGlite runs PostgreSQL in single-user mode, where
 * no autovacuum worker ever starts: without this, every row deleted or updated (each handoff
 * token, swept session, flow run and budget window) stays in its table and index files for good,
 * and the files grow with the traffic rather than with the data. No statistics are gathered
 * either, so the planner guesses table sizes. PostgreSQL has autovacuum and never runs this.
 *
 * One table per statement, so that requests queued on the single connection go in between.
 */
export class EmbeddedVacuum {
  constructor(private readonly db: Kysely<Database>) {}

  async run(): Promise<VacuumResult> {
    const started = performance.now();
    const tables = await sql<{ name: string }>`select tablename as name from pg_tables where schemaname = current_schema() order by tablename`.execute(this.db);
    for (const { name } of tables.rows) await sql`vacuum (analyze) ${sql.table(name)}`.execute(this.db);
    return { tables: tables.rows.length, ms: Math.round(performance.now() - started) };
  }

  /** Runs every `intervalMs` in the background; returns the stop function. */
  start(intervalMs: number, logger?: TaskLogger): () => Promise<void> {
    return runPeriodically(() => this.run(), intervalMs, logger, 'vacuum of the embedded database');
  }
}
