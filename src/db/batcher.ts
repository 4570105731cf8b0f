import { AsyncResource } from 'node:async_hooks';

/**
 * Natural batching of one kind of durable write: at most `maxInFlight` runs are at the database
 * at once, and what arrives meanwhile waits and goes as one run when a slot frees (up to
 * `maxBatch` items). Under light load every item runs alone and at once, so nothing waits that
 * would not have; under load, one commit, one round trip and one plan serve many items
 * (docs/performance.md, "Issue 38, ninth round"). `run` answers each item on its own: one
 * item's failure is that item's, never its batch-mates'. A run executes in the async context
 * of its first item's caller (its trace span, its log bindings), not of whoever freed the slot.
 */
export class NaturalBatcher<Item, Result> {
  private inFlight = 0;
  private readonly waiting: Array<{ item: Item; resolve: (result: Result) => void; reject: (error: unknown) => void; callerContext: AsyncResource }> = [];

  constructor(
    private readonly run: (items: readonly Item[]) => Promise<Array<PromiseSettledResult<Result>>>,
    private readonly maxInFlight: number,
    private readonly maxBatch: number,
  ) {
    if (maxInFlight < 1 || maxBatch < 1) throw new Error('NaturalBatcher needs at least one run in flight and one item per batch');
  }

  submit(item: Item): Promise<Result> {
    return new Promise<Result>((resolve, reject) => {
      // A resource, not `AsyncResource.bind`: bind also defines a deprecated accessor pair on every
      // bound function, two `util.deprecate` wrappers per item (docs/performance.md, twelfth round).
      this.waiting.push({ item, resolve, reject, callerContext: new AsyncResource('GatehouseBatchedWrite') });
      this.drain();
    });
  }

  private drain(): void {
    while (this.inFlight < this.maxInFlight && this.waiting.length > 0) {
      const batch = this.waiting.splice(0, this.maxBatch);
      this.inFlight++;
      // A run that throws (a bug, not a database answer) fails each of its items alike.
      const settled = batch[0].callerContext.runInAsyncScope(() => this.run(batch.map((entry) => entry.item))).catch((error: unknown) => batch.map((): PromiseSettledResult<Result> => ({ status: 'rejected', reason: error })));
      void settled.then((results) => {
        this.inFlight--;
        batch.forEach((entry, index) => {
          const result = results[index];
          if (result === undefined) entry.reject(new Error('NaturalBatcher: the run answered fewer items than it was given'));
          else if (result.status === 'fulfilled') entry.resolve(result.value);
          else entry.reject(result.reason);
        });
        this.drain();
      });
    }
  }
}
