import type { Kysely } from 'kysely';
import type { Clock } from '../../core/clock.js';
import { AppError } from '../../core/errors.js';
import { IpWindowBudget } from '../../db/ip-window-budget.js';
import type { Database } from '../../db/schema.js';

/**
 * Flow starts per client IP, project and minute (DESIGN §4.6a, rule `ip_flow_starts_per_minute`):
 * a start stores a shell session and a run row for anyone who asks, so the budget is taken in the
 * statement that writes them, and a refused start writes nothing but gets 429 `auth.rate_limited`.
 */
export class FlowStartBudget extends IpWindowBudget {
  constructor(db: Kysely<Database>, clock: Clock) {
    super(db, clock, 'flow_start_budget', (retryAfter) =>
      new AppError('auth.rate_limited', 'Too many flows were started from this address; try again later.', { retry_after_seconds: retryAfter }, { 'retry-after': String(retryAfter) }),
    );
  }
}
