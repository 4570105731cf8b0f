import { sql, type Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { Clock } from '../core/clock.js';
import type { Database } from '../db/schema.js';
import { runPeriodically } from '../core/periodic.js';
import type { IpWindowBudget } from '../db/ip-window-budget.js';

export interface FlowSweepResult {
  captcha_spent: number;
  ip_failures: number;
  flow_runs: number;
  one_time_codes: number;
  flow_events: number;
  outbox: number;
  webauthn_used_challenges: number;
  mail_recipient_budget: number;
  sso_used_states: number;
  saml_used_assertions: number;
  flow_start_budget: number;
  recovery_links: number;
}

const IP_WINDOW_RETENTION_MS = 60 * 60 * 1000;

const count = (result: { numDeletedRows: bigint }[]) => Number(result[0]?.numDeletedRows ?? 0n);

/**
 * Deletes what the flow engine no longer needs: spent captcha proofs, used passkey challenges
 * and one-time codes past their expiry, per-minute IP counters older than an hour, flow-start
 * windows a few minutes after their end, finished or expired run records,
 * recovery links past their expiry, and events and outbox rows older than the retention. Login failure counters are kept: they
 * carry the "disabled until reset" state.
 */
export class FlowSweeper {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
    private readonly retentionMs: number,
    /** the per-IP flow-start windows: the budget sweeps its own table */
    private readonly flowStarts: IpWindowBudget,
    private readonly logger?: Logger,
  ) {}

  async sweep(): Promise<FlowSweepResult> {
    const now = this.clock.now();
    const before = new Date(now.getTime() - this.retentionMs);
    return {
      captcha_spent: count(await this.db.deleteFrom('captcha_spent').where('expires_at', '<', now).execute()),
      ip_failures: count(await this.db.deleteFrom('ip_failures').where('window_start', '<', new Date(now.getTime() - IP_WINDOW_RETENTION_MS)).execute()),
      flow_runs: count(await this.db.deleteFrom('flow_runs').where(sql<boolean>`coalesce(ended_at, expires_at) < ${before}`).execute()),
      one_time_codes: count(await this.db.deleteFrom('one_time_codes').where('expires_at', '<', before).execute()),
      flow_events: count(await this.db.deleteFrom('flow_events').where('created_at', '<', before).execute()),
      outbox: count(await this.db.deleteFrom('outbox').where('created_at', '<', before).execute()),
      // A used challenge only has to outlive the challenge itself: replays after that fail as expired.
      webauthn_used_challenges: count(await this.db.deleteFrom('webauthn_used_challenges').where('expires_at', '<', now).execute()),
      // A used SSO state only has to outlive its sign-in: a replay after that fails as expired.
      sso_used_states: count(await this.db.deleteFrom('sso_used_states').where('expires_at', '<', now).execute()),
      // A used assertion id only has to outlive its assertion: a replay after that fails as expired.
      saml_used_assertions: count(await this.db.deleteFrom('saml_used_assertions').where('expires_at', '<', now).execute()),
      // A per-recipient window older than a day has ended under any setting the API accepts.
      mail_recipient_budget: count(await this.db.deleteFrom('mail_recipient_budget').where('window_start', '<', new Date(now.getTime() - 24 * 3_600_000)).execute()),
      flow_start_budget: await this.flowStarts.sweep(now),
      // A used link only has to outlive its expiry: after that it fails as expired anyway.
      recovery_links: count(await this.db.deleteFrom('recovery_links').where('expires_at', '<', now).execute()),
    };
  }

  /** Sweeps every `intervalMs` in the background; returns the stop function. */
  start(intervalMs: number): () => Promise<void> {
    return runPeriodically(() => this.sweep(), intervalMs, this.logger, 'sweep of flow records');
  }
}
