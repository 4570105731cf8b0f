import type { Logger } from 'pino';
import type { Engine } from '../db/engine.js';

/** The NOTIFY channel the change triggers of migration 0050 write to. */
export const CHANGE_CHANNEL = 'gatehouse_changes';

/** `proj:<id>` or `usr:<id>` for one changed row; `*` for "anything may have changed". */
export type ChangeTopic = string;
export type ChangeHandler = (topic: ChangeTopic) => void;

const RETRY_MIN_MS = 500;
const RETRY_MAX_MS = 15_000;

/**
 * Row-change notifications for per-process caches. Triggers on `projects` and `users`
 * (migration 0050) call `pg_notify` on every UPDATE and DELETE, whoever the writer is; this feed
 * LISTENs on a dedicated connection (PostgreSQL, one per process) or on the embedded instance
 * (PGlite, delivered in-process at commit) and hands the topics to the caches.
 *
 * `healthy` is true only while the subscription is in effect. Caches answer from memory only
 * then: while the feed is starting, after the connection is lost and until LISTEN is in effect
 * again, every lookup goes to the database, and every (re)connection clears them (`*`), so a
 * notification lost with a connection never leaves a stale entry behind.
 */
export class ChangeFeed {
  private readonly handlers = new Set<ChangeHandler>();
  private healthyNow = false;
  private stopped = false;
  private unlisten: (() => Promise<void>) | undefined;
  private retryTimer: NodeJS.Timeout | undefined;
  private retryMs = RETRY_MIN_MS;
  private waiters: Array<{ topic: ChangeTopic; resolve: () => void }> = [];

  constructor(
    private readonly engine: Pick<Engine, 'listen'>,
    private readonly logger?: Pick<Logger, 'warn' | 'info'>,
  ) {}

  get healthy(): boolean {
    return this.healthyNow;
  }

  subscribe(handler: ChangeHandler): () => void {
    this.handlers.add(handler);
    return () => this.handlers.delete(handler);
  }

  /** Starts listening in the background; the returned closer stops it (container closers). */
  start(): () => Promise<void> {
    void this.connect();
    return () => this.stop();
  }

  /**
   * Tells this process's caches at once about a change it has just committed itself; the
   * notification still follows (and reaches the other processes).
   */
  publishLocal(topic: ChangeTopic): void {
    this.emit(topic);
  }

  /** Resolves when `topic` (or `*`) arrives next; lets tests wait for a delivery instead of sleeping. */
  next(topic: ChangeTopic): Promise<void> {
    return new Promise((resolve) => this.waiters.push({ topic, resolve }));
  }

  private emit(topic: ChangeTopic): void {
    for (const handler of this.handlers) handler(topic);
    if (this.waiters.length === 0) return;
    const waiting = this.waiters;
    this.waiters = [];
    for (const waiter of waiting) {
      if (waiter.topic === topic || topic === '*') waiter.resolve();
      else this.waiters.push(waiter);
    }
  }

  private async connect(): Promise<void> {
    if (this.stopped) return;
    try {
      const unlisten = await this.engine.listen(CHANGE_CHANNEL, (payload) => this.emit(payload), (error) => this.lost(error));
      if (this.stopped) {
        await unlisten();
        return;
      }
      this.unlisten = unlisten;
      // Anything may have changed while nobody listened.
      this.emit('*');
      this.healthyNow = true;
      this.retryMs = RETRY_MIN_MS;
    } catch (error) {
      this.lost(error as Error);
    }
  }

  private lost(error?: Error): void {
    const wasHealthy = this.healthyNow;
    this.healthyNow = false;
    this.unlisten = undefined;
    this.emit('*');
    if (this.stopped || this.retryTimer) return;
    if (wasHealthy) this.logger?.warn({ err: error }, 'change notifications lost; caches bypassed until they are back');
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      void this.connect();
    }, this.retryMs);
    this.retryTimer.unref();
    this.retryMs = Math.min(this.retryMs * 2, RETRY_MAX_MS);
  }

  private async stop(): Promise<void> {
    this.stopped = true;
    this.healthyNow = false;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
    const unlisten = this.unlisten;
    this.unlisten = undefined;
    await unlisten?.();
    this.emit('*');
  }
}
