import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { Config } from '../config.js';
import type { Clock } from '../core/clock.js';
import type { IdGenerator } from '../core/ids.js';
import type { KeyRing } from '../core/keys.js';
import type { OutboundPolicy } from '../core/outbound-target.js';
import type { Paginator } from '../core/pagination.js';
import { SealedBox } from '../core/sealed-box.js';
import type { Database } from '../db/schema.js';
import type { EventLog } from '../events/service.js';
import { WebhookService } from './service.js';
import { WebhookStore } from './store.js';
import { WebhookWorker } from './worker.js';

export interface Webhooks {
  service: WebhookService;
  /** this node's worker (tests drain it by hand) */
  worker: WebhookWorker;
  /** another worker on the same database, as a second node would run (tests) */
  newWorker(): WebhookWorker;
  /** starts the worker when `webhookIntervalMs` > 0; the stop function */
  start(): () => Promise<void>;
}

/** Wires webhooks. The fan-out into their outbox is part of every event insert (`EventStore.insert`). */
export function createWebhooks(deps: { db: Kysely<Database>; events: EventLog; keys: KeyRing; clock: Clock; ids: IdGenerator; paginator: Paginator; logger?: Logger; outbound: OutboundPolicy; config: Pick<Config, 'webhookIntervalMs' | 'webhookLeaseMs'> }): Webhooks {
  const { db, events, clock, config } = deps;
  const store = new WebhookStore(db);
  const secrets = new SealedBox(deps.keys, 'webhook.secret');
  const policy = deps.outbound;
  const newWorker = () => new WebhookWorker({ store, events, secrets, clock, logger: deps.logger }, { policy, ...(config.webhookLeaseMs ? { leaseMs: config.webhookLeaseMs } : {}) });
  const worker = newWorker();
  const service = new WebhookService({ store, events, secrets, clock, ids: deps.ids, paginator: deps.paginator, policy });
  return {
    service,
    worker,
    newWorker,
    start: () => ((config.webhookIntervalMs ?? 0) > 0 ? worker.start(config.webhookIntervalMs!) : async () => {}),
  };
}
