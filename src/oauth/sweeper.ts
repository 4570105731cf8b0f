import type { Logger } from 'pino';
import type { Clock } from '../core/clock.js';
import type { IpWindowBudget } from '../db/ip-window-budget.js';
import type { OAuthClientStore } from './clients-store.js';
import type { DeviceStore } from './device/store.js';
import type { OAuthStore } from './store.js';
import { runPeriodically } from '../core/periodic.js';

export interface OAuthSweepResult {
  tokens: number;
  authorizations: number;
  /** per-IP authorization budget windows a few minutes past their end */
  authorize_budget: number;
  /** device authorization requests (RFC 8628) */
  device_codes: number;
  /** per-IP wrong-user-code budget windows a few minutes past their end */
  device_code_budget: number;
}

/**
 * Deletes tokens, authorization requests and device requests whose expiry lies more than
 * `retentionMs` in the past (until then a replayed code or refresh token is still recognised as
 * such), and the per-IP budgets' windows a few minutes after they ended.
 */
export class OAuthSweeper {
  constructor(
    private readonly tokens: OAuthStore,
    private readonly authorizations: OAuthClientStore,
    private readonly authorizeBudget: IpWindowBudget,
    private readonly clock: Clock,
    private readonly retentionMs: number,
    private readonly logger?: Logger,
    private readonly device?: { codes: DeviceStore; budget: IpWindowBudget },
  ) {}

  async sweep(): Promise<OAuthSweepResult> {
    const before = new Date(this.clock.now().getTime() - this.retentionMs);
    return {
      tokens: await this.tokens.deleteExpired(before),
      authorizations: await this.authorizations.deleteExpiredAuthorizations(before),
      authorize_budget: await this.authorizeBudget.sweep(this.clock.now()),
      device_codes: (await this.device?.codes.deleteExpired(before)) ?? 0,
      device_code_budget: (await this.device?.budget.sweep(this.clock.now())) ?? 0,
    };
  }

  /** Sweeps every `intervalMs` in the background; returns the stop function. */
  start(intervalMs: number): () => Promise<void> {
    return runPeriodically(() => this.sweep(), intervalMs, this.logger, 'sweep of expired oauth tokens and authorizations');
  }
}
