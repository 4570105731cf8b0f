import type { Logger } from 'pino';
import type { Clock } from '../core/clock.js';
import type { IpWindowBudget } from '../db/ip-window-budget.js';
import type { OAuthClientStore } from './clients-store.js';
import type { OAuthStore } from './store.js';
import { runPeriodically } from '../core/periodic.js';

export interface OAuthSweepResult {
  tokens: number;
  authorizations: number;
  /** per-IP authorization budget windows a few minutes past their end */
  authorize_budget: number;
}

/**
 * Deletes tokens and authorization requests whose expiry lies more than `retentionMs` in the
 * past (until then a replayed code or refresh token is still recognised as such), and the per-IP
 * authorization budget's windows a few minutes after they ended.
 */
export class OAuthSweeper {
  constructor(
    private readonly tokens: OAuthStore,
    private readonly authorizations: OAuthClientStore,
    private readonly authorizeBudget: IpWindowBudget,
    private readonly clock: Clock,
    private readonly retentionMs: number,
    private readonly logger?: Logger,
  ) {}

  async sweep(): Promise<OAuthSweepResult> {
    const before = new Date(this.clock.now().getTime() - this.retentionMs);
    return {
      tokens: await this.tokens.deleteExpired(before),
      authorizations: await this.authorizations.deleteExpiredAuthorizations(before),
      authorize_budget: await this.authorizeBudget.sweep(this.clock.now()),
    };
  }

  /** Sweeps every `intervalMs` in the background; returns the stop function. */
  start(intervalMs: number): () => Promise<void> {
    return runPeriodically(() => this.sweep(), intervalMs, this.logger, 'sweep of expired oauth tokens and authorizations');
  }
}
