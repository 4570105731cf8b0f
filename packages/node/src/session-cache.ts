import { createHash } from 'node:crypto';

/**
 * Verified sessions kept for a short time, keyed by the token's hash (the token itself is never
 * kept). An entry lives `ttlMs`, never past the session's own end: a revocation is seen at the
 * latest `ttlMs` after it happened. Bounded: the oldest entries go first.
 */
export class SessionCache<T> {
  readonly #entries = new Map<string, { value: T | undefined; until: number }>();

  constructor(
    private readonly ttlMs: number,
    private readonly now: () => number,
    private readonly maxEntries = 10_000,
  ) {}

  static keyOf(token: string): string {
    return createHash('sha256').update(token).digest('base64url');
  }

  get(token: string): { value: T | undefined } | undefined {
    const key = SessionCache.keyOf(token);
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    if (this.now() >= entry.until) {
      this.#entries.delete(key);
      return undefined;
    }
    return { value: entry.value };
  }

  /** `endsAt`: when the session ends anyway (ms); a negative answer (`undefined`) is kept as long as a positive one. */
  set(token: string, value: T | undefined, endsAt = Number.POSITIVE_INFINITY): void {
    if (this.ttlMs <= 0) return;
    const key = SessionCache.keyOf(token);
    this.#entries.delete(key);
    if (this.#entries.size >= this.maxEntries) this.#entries.delete(this.#entries.keys().next().value!);
    this.#entries.set(key, { value, until: Math.min(this.now() + this.ttlMs, endsAt) });
  }

  delete(token: string): void {
    this.#entries.delete(SessionCache.keyOf(token));
  }

  /** Drops every cached answer `matches` says belongs to an ended session (back-channel logout). */
  deleteWhere(matches: (value: T) => boolean): void {
    for (const [key, entry] of this.#entries) if (entry.value !== undefined && matches(entry.value)) this.#entries.delete(key);
  }
}
