import { describe, expect, it } from 'vitest';
import { GIVE_UP_AFTER_MS, nextAttemptAt, retryDelayMs, shouldDisableEndpoint } from './backoff.js';

const S = 1000;
const M = 60 * S;
const H = 60 * M;
const first = new Date('2026-03-01T12:00:00Z');
const at = (ms: number) => new Date(first.getTime() + ms);

describe('webhook retry schedule', () => {
  it('waits 5 s, 30 s, 2 min, 10 min, 1 h, then 3 h between attempts', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 12].map(retryDelayMs)).toEqual([5 * S, 30 * S, 2 * M, 10 * M, H, 3 * H, 3 * H, 3 * H]);
    expect(() => retryDelayMs(0)).toThrow(RangeError);
    expect(() => retryDelayMs(1.5)).toThrow(RangeError);
  });

  it('counts each wait from the failed attempt, not from the schedule', () => {
    // The 1st attempt failed after a 10 s timeout: the 2nd comes 5 s after that.
    expect(nextAttemptAt(first, 1, at(10 * S))).toEqual(at(15 * S));
    expect(nextAttemptAt(first, 2, at(15 * S))).toEqual(at(45 * S));
  });

  it('walks the whole schedule and gives up 24 h after the first attempt', () => {
    const attempts: number[] = [0];
    let now = first;
    for (let attempt = 1; ; attempt++) {
      const next = nextAttemptAt(first, attempt, now);
      if (next === null) break;
      attempts.push(next.getTime() - first.getTime());
      now = next; // each attempt fails at once
    }
    const offsets = [0, 5 * S, 35 * S, 155 * S, 755 * S, 755 * S + H];
    for (let k = 1; k <= 7; k++) offsets.push(755 * S + H + k * 3 * H);
    expect(attempts).toEqual(offsets);
    expect(attempts.at(-1)).toBeLessThanOrEqual(GIVE_UP_AFTER_MS);
    expect(attempts.at(-1)! + 3 * H).toBeGreaterThan(GIVE_UP_AFTER_MS);
  });

  it('schedules an attempt exactly at the 24 h mark but none after it', () => {
    expect(nextAttemptAt(first, 9, at(GIVE_UP_AFTER_MS - 3 * H))).toEqual(at(GIVE_UP_AFTER_MS));
    expect(nextAttemptAt(first, 9, at(GIVE_UP_AFTER_MS - 3 * H + 1))).toBeNull();
    expect(nextAttemptAt(first, 1, at(GIVE_UP_AFTER_MS))).toBeNull();
  });

  it('disables an endpoint after 5 days of failures', () => {
    expect(shouldDisableEndpoint(null, at(100 * 24 * H))).toBe(false);
    expect(shouldDisableEndpoint(first, at(5 * 24 * H - 1))).toBe(false);
    expect(shouldDisableEndpoint(first, at(5 * 24 * H))).toBe(true);
  });
});
