import { afterEach, describe, expect, it, vi } from 'vitest';
import { runPeriodically } from './periodic.js';

describe('runPeriodically', () => {
  afterEach(() => vi.useRealTimers());

  it('runs on every interval, never overlaps, and stop waits for the run in progress', async () => {
    vi.useFakeTimers();
    let started = 0;
    let finish!: () => void;
    const task = () => {
      started++;
      return new Promise<void>((resolve) => (finish = resolve));
    };
    const stop = runPeriodically(task, 1000, undefined, 'test');
    await vi.advanceTimersByTimeAsync(1000);
    expect(started).toBe(1);
    await vi.advanceTimersByTimeAsync(3000);
    expect(started).toBe(1);
    let stopped = false;
    const stopping = stop().then(() => (stopped = true));
    await vi.advanceTimersByTimeAsync(0);
    expect(stopped).toBe(false);
    finish();
    await stopping;
    expect(stopped).toBe(true);
    await vi.advanceTimersByTimeAsync(5000);
    expect(started).toBe(1);
  });

  it('logs a failed run and keeps going', async () => {
    vi.useFakeTimers();
    const warnings: string[] = [];
    let runs = 0;
    const stop = runPeriodically(
      async () => {
        runs++;
        throw new Error('boom');
      },
      500,
      { debug: () => {}, warn: (_o, message) => warnings.push(message) },
      'sweep',
    );
    await vi.advanceTimersByTimeAsync(1000);
    expect(runs).toBe(2);
    expect(warnings).toEqual(['sweep failed', 'sweep failed']);
    await stop();
  });
});
