import type { Logger } from 'pino';
import type { Clock } from '../core/clock.js';
import { runPeriodically } from '../core/periodic.js';
import type { SealedBox } from '../core/sealed-box.js';
import type { EventLog } from '../events/service.js';
import { SYSTEM } from '../events/types.js';
import { nextAttemptAt, shouldDisableEndpoint } from './backoff.js';
import { signedHeaders } from './signature.js';
import type { ClaimedDelivery, DeliveryRow, WebhookStore } from './store.js';
import { deliver, type DeliveryResult } from '../core/outbound.js';
import type { OutboundPolicy } from '../core/outbound-target.js';

export interface WebhookWorkerOptions {
  /** how long a claim is a worker's alone; a node killed mid-delivery frees its rows after it (default 60 s) */
  leaseMs: number;
  /** deliveries claimed per round (default 20) */
  batch: number;
  /** which targets may be reached (`outboundPolicy` of the configuration; default: public addresses only) */
  policy: OutboundPolicy;
  /** one delivery's deadline (default 10 s) */
  timeoutMs: number;
}

export const WORKER_DEFAULTS: WebhookWorkerOptions = { leaseMs: 60_000, batch: 20, policy: {}, timeoutMs: 10_000 };

/**
 * Sends webhook deliveries from the outbox (docs/events.md "Webhooks"). Any number of nodes run
 * one each: a round claims due rows with a lease (one statement; `WebhookStore.claim`), posts them
 * concurrently, and settles each while its lease still holds. At least once: a node that dies after
 * posting but before settling leaves a lease that runs out, and the row is posted again with the
 * same `webhook-id`. Failures retry on the schedule of `backoff.ts` for 24 h; an endpoint failing
 * for 5 days is disabled with the event `webhook.disabled`.
 */
export class WebhookWorker {
  private readonly options: WebhookWorkerOptions;

  constructor(
    private readonly deps: { store: WebhookStore; events: EventLog; secrets: SealedBox; clock: Clock; logger?: Logger },
    options: Partial<WebhookWorkerOptions> = {},
  ) {
    this.options = { ...WORKER_DEFAULTS, ...options };
  }

  /** One round: claims, posts and settles; how many deliveries were attempted. */
  async drainOnce(): Promise<number> {
    const now = this.deps.clock.now();
    const lease = new Date(now.getTime() + this.options.leaseMs);
    const claimed = await this.deps.store.claim(now, lease, this.options.batch);
    await Promise.all(claimed.map((claim) => this.attempt(claim, lease)));
    return claimed.length;
  }

  /** Rounds until nothing is due (tests, shutdown); at most `maxRounds`. */
  async drain(maxRounds = 100): Promise<number> {
    let total = 0;
    for (let round = 0; round < maxRounds; round++) {
      const sent = await this.drainOnce();
      total += sent;
      if (sent === 0) break;
    }
    return total;
  }

  start(intervalMs: number): () => Promise<void> {
    return runPeriodically(() => this.drain(10), intervalMs, this.deps.logger, 'webhook deliveries');
  }

  private async attempt({ delivery, webhook, event }: ClaimedDelivery, lease: Date): Promise<void> {
    const { secrets, clock } = this.deps;
    const now = clock.now();
    const current = secrets.open(webhook.secret_sealed);
    const previous = webhook.previous_secret_sealed && webhook.previous_until && webhook.previous_until > now ? secrets.open(webhook.previous_secret_sealed) : undefined;
    let result: DeliveryResult;
    if (!current) {
      result = { ok: false, error: 'the signing secret cannot be opened (was GATEHOUSE_SECRET changed?)', durationMs: 0 };
    } else {
      const payload = {
        id: event.id,
        type: event.type,
        occurred_at: event.occurred_at.toISOString(),
        project_id: event.project_id,
        actor: { kind: event.actor_kind, id: event.actor_id },
        subject: { kind: event.subject_kind, id: event.subject_id },
        data: event.data,
      };
      const body = JSON.stringify({ type: event.type, timestamp: event.occurred_at.toISOString(), data: payload });
      const headers = signedHeaders({ secrets: previous ? [current, previous] : [current], id: delivery.id, timestamp: now, body });
      result = await deliver({ url: webhook.url, headers: { ...headers, 'user-agent': 'Gatehouse-Webhooks/1' }, body, ...this.options.policy, timeoutMs: this.options.timeoutMs });
    }
    await this.settle(delivery, webhook.failing_since, lease, result);
  }

  private async settle(delivery: DeliveryRow, failingSince: Date | null, lease: Date, result: DeliveryResult): Promise<void> {
    const { store, events, clock, logger } = this.deps;
    const now = clock.now();
    const common = { last_status_code: result.status ?? null, last_error: result.ok ? null : (result.error ?? `HTTP ${result.status ?? '?'}`).slice(0, 500) };
    if (result.ok) {
      // Only an endpoint that was failing when claimed has a streak to end.
      if ((await store.settle(delivery.id, lease, { ...common, status: 'delivered', delivered_at: now })) && failingSince) await store.markHealthy(delivery.webhook_id);
      return;
    }
    const next = nextAttemptAt(delivery.first_attempt_at ?? now, delivery.attempts, now);
    const settled = await store.settle(delivery.id, lease, next ? { ...common, next_at: next } : { ...common, status: 'failed' });
    logger?.warn({ webhook_id: delivery.webhook_id, delivery_id: delivery.id, attempt: delivery.attempts, status: result.status, reason: result.reason, retry_at: next?.toISOString() }, 'webhook delivery failed');
    if (!settled) return;
    const since = failingSince ?? now;
    if (!failingSince) await store.markFailing(delivery.webhook_id, now);
    if (shouldDisableEndpoint(since, now)) {
      await events.transaction(async (trx) => {
        if (await store.with(trx).disable(delivery.webhook_id, now)) {
          await events.record(trx, { type: 'webhook.disabled', projectId: delivery.project_id, actor: SYSTEM, subjectId: delivery.webhook_id, data: { failing_since: since.toISOString() } });
        }
      });
    }
  }
}
