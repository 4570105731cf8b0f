/**
 * The retry schedule of a webhook delivery (docs/design/events.md §3): after a failed attempt the
 * next one comes 5 s, 30 s, 2 min, 10 min, 1 h later, then every 3 h; no attempt is scheduled
 * later than 24 h after the first one, and the delivery is then `failed`. Pure: the worker passes
 * the clock.
 */

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/** The wait after the 1st, 2nd, … failed attempt; the last one repeats. */
export const RETRY_DELAYS_MS: readonly number[] = [5 * SECOND, 30 * SECOND, 2 * MINUTE, 10 * MINUTE, HOUR, 3 * HOUR];
/** No attempt is made later than this after the first attempt. */
export const GIVE_UP_AFTER_MS = 24 * HOUR;
/** An endpoint whose deliveries have failed without a success for this long is disabled. */
export const DISABLE_ENDPOINT_AFTER_MS = 5 * 24 * HOUR;

/** The wait after the `attempt`-th failed attempt (1-based). */
export function retryDelayMs(attempt: number): number {
  if (!Number.isInteger(attempt) || attempt < 1) throw new RangeError('attempt counts from 1');
  return RETRY_DELAYS_MS[Math.min(attempt, RETRY_DELAYS_MS.length) - 1];
}

/**
 * When to try again after the `attempt`-th attempt (1-based) failed at `now`, or `null` when that
 * would be more than 24 h after `firstAttemptAt` (give up: the delivery is `failed`).
 */
export function nextAttemptAt(firstAttemptAt: Date, attempt: number, now: Date): Date | null {
  const next = now.getTime() + retryDelayMs(attempt);
  return next > firstAttemptAt.getTime() + GIVE_UP_AFTER_MS ? null : new Date(next);
}

/** Whether an endpoint failing since `failingSince` (no success in between) is to be disabled. */
export function shouldDisableEndpoint(failingSince: Date | null, now: Date): boolean {
  return failingSince !== null && now.getTime() - failingSince.getTime() >= DISABLE_ENDPOINT_AFTER_MS;
}
