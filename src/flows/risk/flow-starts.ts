import { sql, type Kysely } from 'kysely';
import type { Clock } from '../../core/clock.js';
import { AppError } from '../../core/errors.js';
import type { WriteGate } from '../../db/gate.js';
import type { Database } from '../../db/schema.js';

export interface FlowStartTables {
  flow_start_budget: { project_id: string; ip: string; window_start: Date; count: number };
}

const WINDOW_MS = 60_000;
/** The sweeper keeps windows a little past their end, for processes whose clocks differ slightly. */
export const FLOW_START_RETENTION_MS = 5 * WINDOW_MS;
const TAKEN = 'flow_start_taken';

/**
 * Flow starts per client IP, project and minute (DESIGN §4.6a, rule `ip_flow_starts_per_minute`):
 * a start stores a shell session and a run row for anyone who asks, so the budget is taken in the
 * statement that writes them, and a refused start writes nothing but gets 429 `auth.rate_limited`.
 */
export class FlowStartBudget {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
  ) {}

  /** The gate a start's rows are written under; undefined when `limit` is 0 (no limit). */
  gate(projectId: string, ip: string, limit: number): WriteGate | undefined {
    if (limit <= 0) return undefined;
    const now = this.clock.now().getTime();
    const windowStart = Math.floor(now / WINDOW_MS) * WINDOW_MS;
    // Counts only while under the limit, so concurrent starts past it find no row returned.
    const take = this.db
      .insertInto('flow_start_budget')
      .values({ project_id: projectId, ip, window_start: new Date(windowStart), count: 1 })
      .onConflict((oc) =>
        oc
          .columns(['project_id', 'ip', 'window_start'])
          .doUpdateSet({ count: sql`flow_start_budget.count + 1` })
          .where('flow_start_budget.count', '<', limit),
      )
      .returning('count');
    const when = sql<boolean>`exists (select 1 from ${sql.table(TAKEN)})`;
    const retryAfter = Math.max(1, Math.ceil((windowStart + WINDOW_MS - now) / 1000));
    return {
      when,
      write: async (writes) => {
        const rest = writes.map((write, i) => sql`, ${sql.table(`${TAKEN}_w${i}`)} as (${write})`);
        const { rows } = await sql<{ taken: boolean }>`with ${sql.table(TAKEN)} as (${take})${sql.join(rest, sql``)} select ${when} as taken`.execute(this.db);
        if (rows[0]?.taken !== true) {
          throw new AppError('auth.rate_limited', 'Too many flows were started from this address; try again later.', { retry_after_seconds: retryAfter }, { 'retry-after': String(retryAfter) });
        }
      },
    };
  }
}
