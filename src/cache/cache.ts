import type { ChangeFeed, ChangeTopic } from './feed.js';

/** No entry is served older than this, even if a notification was lost without the loss being noticed. */
export const DEFAULT_MAX_AGE_MS = 10_000;

export interface ChangeCacheOptions {
  /** The topic kind that invalidates entries: `usr` drops the entry keyed by the user id. */
  kind: string;
  /** When true, any change of this kind drops every entry (keys are not the changed row's id). */
  dropAllOnChange?: boolean;
  max?: number;
  maxAgeMs?: number;
}

/**
 * A bounded per-process read-through cache invalidated by the change feed.
 *
 * A value loaded while an invalidation of its key (or of everything) arrived is not stored: the
 * load may have read the row before the change committed. Concurrent misses of one key share one
 * load (a burst of 50 requests when an entry ages out is one read, not 50 that each displace the
 * previous one and so never store anything); an invalidation detaches the load in flight, so a
 * request after the change never joins a read that may predate it. Loads are tracked per key, so
 * a change of one row never discards the loads of others (a session cache sees a change per
 * logout and per exchange). Nothing is served or stored while the feed is
 * not healthy, so the staleness of an entry is bounded by the notification delay while the feed
 * is up, and by `maxAgeMs` in the worst case. Entry age uses the monotonic clock on purpose: it
 * bounds real staleness, it is not a domain expiry.
 */
export class ChangeCache<V> {
  private readonly entries = new Map<string, { value: V; at: number }>();
  /** The load in flight per key, shared by concurrent misses; an invalidation removes it, so that load is not stored. */
  private readonly loading = new Map<string, { value?: Promise<V> }>();
  private readonly max: number;
  private readonly maxAgeMs: number;
  private readonly prefix: string;

  constructor(
    private readonly feed: ChangeFeed,
    private readonly options: ChangeCacheOptions,
  ) {
    this.max = options.max ?? 10_000;
    this.maxAgeMs = options.maxAgeMs ?? DEFAULT_MAX_AGE_MS;
    this.prefix = `${options.kind}:`;
    feed.subscribe((topic) => this.onChange(topic));
  }

  get size(): number {
    return this.entries.size;
  }

  /**
   * The cached value of `key`, or `load()`'s (stored when `keep` allows it and no change raced the
   * load). A miss while another load of `key` is in flight waits for that load instead (and its
   * `keep` decides), so callers of one key must pass the same `load` and `keep`.
   */
  get(key: string, load: () => Promise<V>, keep: (value: V) => boolean = () => true): Promise<V> {
    if (!this.feed.healthy) return load();
    const hit = this.peek(key);
    if (hit !== undefined) return Promise.resolve(hit.value);
    const inFlight = this.loading.get(key)?.value;
    if (inFlight) return inFlight;
    const flight: { value?: Promise<V> } = {};
    this.loading.set(key, flight);
    flight.value = this.loadAndStore(key, flight, load, keep);
    return flight.value;
  }

  /**
   * The fresh cached entry of `key` without a load or a promise, for a hot path that renders
   * synchronously on a hit (a session check); undefined on a miss, then the caller uses `get`.
   * An entry past `maxAgeMs` is dropped here, so its reload is stored as the newest.
   */
  peek(key: string): { readonly value: V } | undefined {
    if (!this.feed.healthy) return undefined;
    const hit = this.entries.get(key);
    if (hit === undefined) return undefined;
    if (performance.now() - hit.at < this.maxAgeMs) return hit;
    this.entries.delete(key);
    return undefined;
  }

  private async loadAndStore(key: string, flight: object, load: () => Promise<V>, keep: (value: V) => boolean): Promise<V> {
    // Only a load that nothing invalidated meanwhile is still the key's; it may store its value.
    const settle = () => {
      const current = this.loading.get(key) === flight;
      if (current) this.loading.delete(key);
      return current;
    };
    let value: V;
    try {
      value = await load();
    } catch (error) {
      settle();
      throw error;
    }
    if (settle() && this.feed.healthy && keep(value)) {
      if (this.entries.size >= this.max) this.entries.delete(this.entries.keys().next().value as string);
      this.entries.set(key, { value, at: performance.now() });
    }
    return value;
  }

  /** Drops one entry (and any load of it in flight) in this process. */
  forget(key: string): void {
    this.loading.delete(key);
    this.entries.delete(key);
  }

  clear(): void {
    this.loading.clear();
    this.entries.clear();
  }

  private onChange(topic: ChangeTopic): void {
    if (topic === '*') return this.clear();
    if (!topic.startsWith(this.prefix)) return;
    if (this.options.dropAllOnChange) this.clear();
    else this.forget(topic.slice(this.prefix.length));
  }
}
