import type { Logger } from 'pino';
import type { Clock } from '../core/clock.js';
import type { OAuthClientStore } from './clients-store.js';
import type { OAuthStore } from './store.js';

export interface OAuthSweepResult {
  tokens: number;
  authorizations: number;
}

/**
 * Deletes tokens and authorization requests whose expiry lies more than `retentionMs` in the
 * past (until then a replayed code or refresh token is still recognised as such).
 */
export class OAuthSweeper {
  constructor(
    private readonly tokens: OAuthStore,
    private readonly authorizations: OAuthClientStore,
    private readonly clock: Clock,
    private readonly retentionMs: number,
    private readonly logger?: Logger,
  ) {}

  async sweep(): Promise<OAuthSweepResult> {
    const before = new Date(this.clock.now().getTime() - this.retentionMs);
    return { tokens: await this.tokens.deleteExpired(before), authorizations: await this.authorizations.deleteExpiredAuthorizations(before) };
  }

  /** Runs `sweep` every `intervalMs` without keeping the process alive; returns the stop function. */
  start(intervalMs: number): () => Promise<void> {
    let running: Promise<void> | undefined;
    const timer = setInterval(() => {
      if (running) return;
      running = this.sweep()
        .then((result) => this.logger?.debug({ sweep: result }, 'swept expired oauth tokens and authorizations'))
        .catch((error: unknown) => this.logger?.warn({ err: error }, 'oauth sweep failed'))
        .finally(() => {
          running = undefined;
        });
    }, intervalMs);
    timer.unref();
    return async () => {
      clearInterval(timer);
      await running;
    };
  }
}
