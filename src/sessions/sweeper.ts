import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { AttemptStore } from '../attempts/store.js';
import type { Clock } from '../core/clock.js';
import type { Database } from '../db/schema.js';
import type { EventLog } from '../events/service.js';
import type { SessionService } from './service.js';
import type { IdempotencyStore } from './store.js';
import { runPeriodically } from '../core/periodic.js';

export interface SweepResult {
  sessions: number;
  auth_attempts: number;
  handoff_tokens: number;
  idempotency_records: number;
  /** events past their project's `events.retention_days` */
  events: number;
}

const SESSION_BATCH = 500;

/**
 * Deletes sessions, auth attempts, handoff tokens and idempotency records whose expiry lies more
 * than `retentionMs` in the past. Expired rows keep answering as `expired` (lists) until then.
 * Deleted sessions go through the session deletion hooks, like a revoke (an expired session's end
 * is no `session.revoked` event). Events older than their project's retention go too, in batches.
 */
export class Sweeper {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly sessions: SessionService,
    private readonly attempts: AttemptStore,
    private readonly idempotency: IdempotencyStore,
    private readonly clock: Clock,
    private readonly retentionMs: number,
    private readonly logger?: Logger,
    private readonly events?: EventLog,
  ) {}

  async sweep(): Promise<SweepResult> {
    const before = new Date(this.clock.now().getTime() - this.retentionMs);
    let sessions = 0;
    for (;;) {
      const deleted = await this.db.transaction().execute(async (trx) => {
        const rows = await this.sessions.store.with(trx).deleteExpired(before, SESSION_BATCH);
        await this.sessions.runDeletedHooks(trx, rows);
        return rows.length;
      });
      sessions += deleted;
      if (deleted < SESSION_BATCH) break;
    }
    const handoffTokens = await this.attempts.deleteExpiredHandoffs(before);
    const attempts = await this.attempts.deleteExpired(before);
    const records = await this.idempotency.deleteExpired(before);
    const events = (await this.events?.prune()) ?? 0;
    return { sessions, auth_attempts: attempts, handoff_tokens: handoffTokens, idempotency_records: records, events };
  }

  /** Sweeps every `intervalMs` in the background; returns the stop function. */
  start(intervalMs: number): () => Promise<void> {
    return runPeriodically(() => this.sweep(), intervalMs, this.logger, 'sweep of expired sessions and attempts');
  }
}
