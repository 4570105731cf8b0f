import { sql, type Kysely } from 'kysely';
import type { Clock } from '../core/clock.js';
import { takenGates, type WriteGate } from './gate.js';
import { reusablePart, type SqlPart } from './reusable.js';
import type { Database } from './schema.js';

/** The shape of a per-IP, per-project, per-minute budget table (one row per window). */
export interface IpWindowRow {
  project_id: string;
  ip: string;
  window_start: Date;
  count: number;
}

/** The tables that hold such windows (primary key project_id, ip, window_start). */
export type IpWindowTable = { [K in keyof Database]: Database[K] extends IpWindowRow ? K : never }[keyof Database];

const WINDOW_MS = 60_000;
/** Sweepers keep windows a little past their end, for processes whose clocks differ slightly. */
export const IP_WINDOW_RETENTION_MS = 5 * WINDOW_MS;

/**
 * Unauthenticated writes per client IP, project and minute (DESIGN §4.6a "Unauthenticated writes
 * are budgeted"): the window's count is taken by the first CTE of the statement that writes the
 * rows (reserve-first, `WriteGate`), so concurrent requests past the limit write nothing.
 * `refuse` makes the domain's answer from the seconds left in the window.
 */
export class IpWindowBudget {
  /** Counts only while under the limit, so concurrent requests past it find no row returned. */
  private readonly take: (args: { projectId: string; ip: string; windowStart: Date; limit: number }) => SqlPart;
  private readonly gates: ReturnType<typeof takenGates>;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
    private readonly table: IpWindowTable,
    private readonly refuse: (retryAfterSeconds: number) => Error,
  ) {
    // The tables share one shape; Kysely is told one of them so the query stays typed.
    const typed = table as 'flow_start_budget';
    this.take = reusablePart(db, (a) =>
      db
        .insertInto(typed)
        .values({ project_id: a.projectId, ip: a.ip, window_start: a.windowStart, count: sql.lit(1) })
        .onConflict((oc) =>
          oc
            .columns(['project_id', 'ip', 'window_start'])
            .doUpdateSet({ count: sql`${sql.table(table)}.count + 1` })
            .where(sql.ref(`${table}.count`), '<', a.limit),
        )
        .returning('count'),
    );
    this.gates = takenGates(db, `${table}_taken`);
  }

  /** The gate the rows are written under; undefined when `limit` is 0 (no limit). */
  gate(projectId: string, ip: string, limit: number): WriteGate | undefined {
    if (limit <= 0) return undefined;
    const now = this.clock.now().getTime();
    const windowStart = Math.floor(now / WINDOW_MS) * WINDOW_MS;
    const retryAfter = Math.max(1, Math.ceil((windowStart + WINDOW_MS - now) / 1000));
    return this.gates(this.take({ projectId, ip, windowStart: new Date(windowStart), limit }), () => this.refuse(retryAfter));
  }

  /** Drops windows that ended more than `IP_WINDOW_RETENTION_MS` ago; returns how many. */
  async sweep(now: Date): Promise<number> {
    const result = await this.db.deleteFrom(this.table as 'flow_start_budget').where('window_start', '<', new Date(now.getTime() - IP_WINDOW_RETENTION_MS)).executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
