import type { Clock } from '../../core/clock.js';
import { AppError } from '../../core/errors.js';
import type { Courier } from '../../courier/service.js';
import type { RiskRules, RiskService } from './service.js';

export interface MailBudgetDeps {
  clock: Clock;
  courier: Pick<Courier, 'takeRecipientBudget' | 'recipientWindowStart'>;
  risk: Pick<RiskService, 'accountKey'>;
}

/**
 * Takes one message of an address's budget (DESIGN §4.6a: per project, folded address and
 * window, across flows, purposes and operator-sent links) in one statement, before anything is
 * issued. Spent: 429 `auth.rate_limited` with `Retry-After` and `details` plus the seconds.
 */
export async function takeMailBudget(deps: MailBudgetDeps, projectId: string, rules: RiskRules, address: string, details: Record<string, unknown> = {}): Promise<void> {
  if (rules.mail_per_recipient <= 0) return;
  const key = deps.risk.accountKey(projectId, address);
  const windowMs = rules.mail_per_recipient_window_seconds * 1000;
  const now = deps.clock.now();
  if (await deps.courier.takeRecipientBudget(projectId, key, now, windowMs, rules.mail_per_recipient)) return;
  const started = await deps.courier.recipientWindowStart(projectId, key);
  const retryAfter = Math.max(1, Math.ceil(((started?.getTime() ?? now.getTime()) + windowMs - now.getTime()) / 1000));
  throw new AppError(
    'auth.rate_limited',
    'Too many messages were sent to this address; try again later.',
    { ...details, retry_after_seconds: retryAfter },
    { 'retry-after': String(retryAfter) },
  );
}
