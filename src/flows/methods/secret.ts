import type { BudgetedFactor } from '../risk/service.js';
import type { StepContext } from './method.js';

/**
 * The account a guess at `factor` counts against (`RiskService.accountKeyFor`): the identified
 * user's counter of the factor, else the typed identifier's. The engine's pre-check reads the
 * same key (runtime/engine.ts), so the captcha decision and the lock-out agree.
 */
export function guessKey({ run }: StepContext, factor: BudgetedFactor): string {
  return run.deps.risk.accountKeyFor(run.projectId, { userId: run.frame.u, identifier: run.collectedIdentifier() }, factor);
}

/**
 * What the password, TOTP and recovery codes share (DESIGN §4.6a): a guess takes its attempt
 * before the comparison, in one statement, so of any burst of concurrent guesses at one user's
 * factor at most `account_lock_after + 1` are compared. A guess at a locked or disabled factor is
 * not taken; it fails like a wrong one without a comparison and counts against the IP only, so
 * that a lock cannot be extended forever. A right answer resets this factor's counter only.
 *
 * `compare` checks the secret of the identified user (undefined: wrong). Without a `dummy`, a
 * guess with no identified user is refused untaken; with one, an unknown identifier is counted
 * like an account and the dummy costs what a comparison would. Returns the user and what
 * `compare` gave, or undefined for a failed guess (the caller answers it like a wrong one).
 */
export async function checkSecret<T>(
  ctx: StepContext,
  factor: BudgetedFactor,
  compare: (userId: string) => Promise<T | undefined>,
  dummy?: () => Promise<unknown>,
): Promise<{ userId: string; value: T } | undefined> {
  const { run } = ctx;
  const { deps, frame, projectId } = run;
  const userId = frame.u;
  const key = guessKey(ctx, factor);
  const [signals, rules] = await Promise.all([run.signals(key), run.riskRules()]);
  const counted = userId !== undefined || dummy !== undefined;
  const taken = counted && !deps.risk.blocked(signals.account, rules) && (await deps.risk.takeAttempt(projectId, key, rules));
  let value: T | undefined;
  if (taken && userId !== undefined) value = await compare(userId);
  else await dummy?.();
  if (value === undefined || userId === undefined) {
    await deps.risk.recordIpFailure(projectId, run.ctx.ip);
    return undefined;
  }
  await deps.risk.recordSuccess(projectId, key, userId, run.entry.ss, signals, true);
  return { userId, value };
}
