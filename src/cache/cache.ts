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
 * load may have read the row before the change committed. Loads in flight are tracked per key,
 * so a change of one row never discards the loads of others (a session cache sees a change per
 * logout and per exchange). Nothing is served or stored while the feed is
 * not healthy, so the staleness of an entry is bounded by the notification delay while the feed
 * is up, and by `maxAgeMs` in the worst case. Entry age uses the monotonic clock on purpose: it
 * bounds real staleness, it is not a domain expiry.
 */
export class ChangeCache<V> {
  private readonly entries = new Map<string, { value: V; at: number }>();
  /** The latest load in flight per key; an invalidation removes it, so that load is not stored. */
  private readonly loading = new Map<string, object>();
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

  /** The cached value of `key`, or `load()`'s (stored when `keep` allows it and no change raced the load). */
  async get(key: string, load: () => Promise<V>, keep: (value: V) => boolean = () => true): Promise<V> {
    if (!this.feed.healthy) return load();
    const hit = this.entries.get(key);
    if (hit !== undefined) {
      if (performance.now() - hit.at < this.maxAgeMs) return hit.value;
      this.entries.delete(key);
    }
    const ticket = {};
    this.loading.set(key, ticket);
    const settle = () => {
      // Only the latest load of a key that nothing invalidated meanwhile may store its value.
      const current = this.loading.get(key) === ticket;
      if (current) this.loading.delete(key);
      return current;
    };
    const value = await load().catch((error: unknown) => {
      settle();
      throw error;
    });
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
