import { AsyncLocalStorage } from 'node:async_hooks';
import { describe, expect, it } from 'vitest';
import { NaturalBatcher } from './batcher.js';

/** A run the test finishes by hand: each call's items, and a way to answer them. */
function controlledRun() {
  const calls: Array<{ items: readonly number[]; answer: (results: Array<PromiseSettledResult<string>>) => void; fail: (error: Error) => void }> = [];
  const run = (items: readonly number[]) =>
    new Promise<Array<PromiseSettledResult<string>>>((resolve, reject) => {
      calls.push({ items, answer: resolve, fail: reject });
    });
  const ok = (items: readonly number[]) => items.map((item): PromiseSettledResult<string> => ({ status: 'fulfilled', value: `r${item}` }));
  return { calls, run, ok };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('NaturalBatcher', () => {
  it('runs items alone and at once while slots are free, and what waits as one batch when a slot frees', async () => {
    const { calls, run, ok } = controlledRun();
    const batcher = new NaturalBatcher(run, 2, 3);
    const results = [1, 2, 3, 4, 5, 6].map((item) => batcher.submit(item));
    expect(calls.map((call) => call.items)).toEqual([[1], [2]]);

    calls[0].answer(ok(calls[0].items));
    await settle();
    // One slot freed: the waiting items go together, at most maxBatch of them.
    expect(calls.map((call) => call.items)).toEqual([[1], [2], [3, 4, 5]]);
    calls[1].answer(ok(calls[1].items));
    await settle();
    expect(calls.map((call) => call.items)).toEqual([[1], [2], [3, 4, 5], [6]]);
    calls[2].answer(ok(calls[2].items));
    calls[3].answer(ok(calls[3].items));
    expect(await Promise.all(results)).toEqual(['r1', 'r2', 'r3', 'r4', 'r5', 'r6']);
  });

  it("answers each item on its own: one item's failure is not its batch-mates'", async () => {
    const { calls, run } = controlledRun();
    const batcher = new NaturalBatcher(run, 1, 10);
    const first = batcher.submit(1);
    const rest = [2, 3, 4].map((item) => batcher.submit(item));
    calls[0].answer([{ status: 'fulfilled', value: 'r1' }]);
    await settle();
    expect(calls[1].items).toEqual([2, 3, 4]);
    calls[1].answer([{ status: 'fulfilled', value: 'r2' }, { status: 'rejected', reason: new Error('three failed') }, { status: 'fulfilled', value: 'r4' }]);
    expect(await first).toBe('r1');
    expect(await Promise.allSettled(rest)).toEqual([
      { status: 'fulfilled', value: 'r2' },
      { status: 'rejected', reason: new Error('three failed') },
      { status: 'fulfilled', value: 'r4' },
    ]);
  });

  it('fails every item of a run that throws, and of one that answers too few, and goes on with the next', async () => {
    const { calls, run, ok } = controlledRun();
    const batcher = new NaturalBatcher(run, 1, 10);
    const first = batcher.submit(1);
    const second = [2, 3].map((item) => batcher.submit(item));
    calls[0].fail(new Error('connection lost'));
    await expect(first).rejects.toThrow('connection lost');
    await settle();
    calls[1].answer([{ status: 'fulfilled', value: 'r2' }]);
    const [two, three] = await Promise.allSettled(second);
    expect(two).toEqual({ status: 'fulfilled', value: 'r2' });
    expect(three.status === 'rejected' && String(three.reason)).toMatch(/fewer items/);

    const later = batcher.submit(7);
    await settle();
    calls[2].answer(ok(calls[2].items));
    expect(await later).toBe('r7');
  });

  it("runs a batch in its first item's caller's async context, not in that of the run that freed the slot", async () => {
    const caller = new AsyncLocalStorage<string>();
    const seen: Array<string | undefined> = [];
    const { calls, run, ok } = controlledRun();
    const batcher = new NaturalBatcher((items: readonly number[]) => {
      seen.push(caller.getStore());
      return run(items);
    }, 1, 10);
    const results = ['request-1', 'request-2', 'request-3'].map((name, index) => caller.run(name, () => batcher.submit(index + 1)));
    calls[0].answer(ok(calls[0].items));
    await settle();
    calls[1].answer(ok(calls[1].items));
    await Promise.all(results);
    expect(calls.map((call) => call.items)).toEqual([[1], [2, 3]]);
    expect(seen).toEqual(['request-1', 'request-2']);
  });

  it('refuses a batcher that could never run anything', () => {
    expect(() => new NaturalBatcher(async () => [], 0, 1)).toThrow();
    expect(() => new NaturalBatcher(async () => [], 1, 0)).toThrow();
  });
});
