import type { Clock } from '../core/clock.js';
import { AppError, notFoundError } from '../core/errors.js';
import { looksLikeId, type IdGenerator } from '../core/ids.js';
import type { Page, PageRequest, Paginator } from '../core/pagination.js';
import type { SealedBox } from '../core/sealed-box.js';
import type { EventLog } from '../events/service.js';
import { EVENT_TYPES, isEventType, type Actor } from '../events/types.js';
import { newWebhookSecret } from './signature.js';
import type { DeliveryRow, WebhookRow, WebhookStore } from './store.js';
import { checkTargetUrl, OutboundTargetError, resolveTarget, type OutboundPolicy } from '../core/outbound-target.js';

/** How long the previous secret signs beside the new one after a rotation. */
export const ROTATION_OVERLAP_MS = 24 * 60 * 60 * 1000;
const MAX_EVENTS = 50;

export interface WebhookResource {
  id: string;
  project_id: string;
  url: string;
  events: string[];
  description?: string;
  enabled: boolean;
  disabled_at?: string;
  failing_since?: string;
  created_at: string;
  updated_at: string;
}

export interface DeliveryResource {
  id: string;
  event_id: string;
  event_type: string;
  occurred_at: string;
  status: DeliveryRow['status'];
  attempts: number;
  next_attempt_at?: string;
  last_status_code?: number;
  last_error?: string;
  delivered_at?: string;
  created_at: string;
}

export interface WebhookInput {
  url?: string;
  events?: string[];
  description?: string | null;
  enabled?: boolean;
}

const iso = (date: Date | null) => (date ? date.toISOString() : undefined);

export function toWebhookResource(row: WebhookRow): WebhookResource {
  return {
    id: row.id,
    project_id: row.project_id,
    url: row.url,
    events: row.events,
    ...(row.description !== null ? { description: row.description } : {}),
    enabled: row.disabled_at === null,
    ...(row.disabled_at ? { disabled_at: iso(row.disabled_at) } : {}),
    ...(row.failing_since ? { failing_since: iso(row.failing_since) } : {}),
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

/** A delivery with the type of the event it carries (read from the event log: `eventTypes` of the store). */
export function toDeliveryResource(row: DeliveryRow, eventType: string): DeliveryResource {
  return {
    id: row.id,
    event_id: row.event_id,
    event_type: eventType,
    occurred_at: row.occurred_at.toISOString(),
    status: row.status,
    attempts: row.attempts,
    ...(row.status === 'pending' ? { next_attempt_at: row.next_at.toISOString() } : {}),
    ...(row.last_status_code !== null ? { last_status_code: row.last_status_code } : {}),
    ...(row.last_error !== null ? { last_error: row.last_error } : {}),
    ...(row.delivered_at ? { delivered_at: row.delivered_at.toISOString() } : {}),
    created_at: row.created_at.toISOString(),
  };
}

const invalidField = (path: string, message: string) => new AppError('req.invalid', 'The request is invalid.', { errors: [{ path, message }] });

/**
 * Webhook endpoints of a project (DESIGN §4.18): registered with a URL that must be a public
 * https target (checked here, and again before each delivery: DNS can change), the event types
 * they want, and a `whsec_` secret shown once. Every change is an event in its own transaction.
 */
export class WebhookService {
  constructor(
    private readonly deps: {
      store: WebhookStore;
      events: EventLog;
      secrets: SealedBox;
      clock: Clock;
      ids: IdGenerator;
      paginator: Paginator;
      /** which targets may be registered (`outboundPolicy` of the configuration) */
      policy: OutboundPolicy;
    },
  ) {}

  private async checkUrl(url: string): Promise<void> {
    try {
      checkTargetUrl(url, this.deps.policy);
      // A name that does not resolve yet may be registered; one that resolves to a private address may not.
      await resolveTarget(url, this.deps.policy).catch((error: unknown) => {
        if (!(error instanceof OutboundTargetError) || error.reason !== 'dns_failure') throw error;
      });
    } catch (error) {
      if (error instanceof OutboundTargetError) throw invalidField('body/url', `${error.reason}: ${error.message}`);
      throw error;
    }
  }

  private checkEvents(events: string[]): string[] {
    const unique = [...new Set(events)];
    if (unique.length === 0 || unique.length > MAX_EVENTS) throw invalidField('body/events', `must name 1 to ${MAX_EVENTS} event types, or "*"`);
    const unknown = unique.filter((type) => type !== '*' && !isEventType(type));
    // The known types come with the refusal, as GET /events lists them for an unknown type filter.
    if (unknown.length > 0) throw new AppError('req.invalid', 'The request is invalid.', { errors: [{ path: 'body/events', message: `unknown event type "${unknown[0].slice(0, 100)}"` }], known_types: EVENT_TYPES });
    return unique.includes('*') ? ['*'] : unique;
  }

  async create(projectId: string, input: { url: string; events: string[]; description?: string }, actor: Actor): Promise<WebhookResource & { secret: string }> {
    await this.checkUrl(input.url);
    const events = this.checkEvents(input.events);
    const secret = newWebhookSecret();
    const now = this.deps.clock.now();
    const row: WebhookRow = {
      id: this.deps.ids.next('wh'),
      project_id: projectId,
      url: input.url,
      events,
      description: input.description ?? null,
      secret_sealed: this.deps.secrets.seal(secret),
      previous_secret_sealed: null,
      previous_until: null,
      disabled_at: null,
      failing_since: null,
      created_at: now,
      updated_at: now,
    };
    await this.deps.events.transaction(async (trx) => {
      await this.deps.store.with(trx).insert(row);
      await this.deps.events.record(trx, { type: 'webhook.created', projectId, actor, subjectId: row.id, data: { url: row.url, events } });
    });
    return { ...toWebhookResource(row), secret };
  }

  async get(projectId: string, id: string): Promise<WebhookResource> {
    return toWebhookResource(await this.row(projectId, id));
  }

  private async row(projectId: string, id: string): Promise<WebhookRow> {
    const row = looksLikeId(id, 'wh') ? await this.deps.store.find(projectId, id) : undefined;
    if (!row) throw notFoundError('webhook.not_found');
    return row;
  }

  async list(projectId: string, request: PageRequest): Promise<Page<WebhookResource>> {
    const scope = `webhooks:${projectId}`;
    const cursor = request.pageToken ? this.deps.paginator.decode(request.pageToken, scope) : undefined;
    const limit = this.deps.paginator.limitOf(request);
    const rows = await this.deps.store.list(projectId, cursor, limit);
    return this.deps.paginator.page(rows, limit, scope, (row) => ({ createdAt: row.created_at, id: row.id }), toWebhookResource);
  }

  /** Changes the URL, events, description; `enabled: true` re-enables a disabled endpoint (its failure clock restarts). */
  async update(projectId: string, id: string, input: WebhookInput, actor: Actor): Promise<WebhookResource> {
    await this.row(projectId, id);
    if (input.url !== undefined) await this.checkUrl(input.url);
    const events = input.events !== undefined ? this.checkEvents(input.events) : undefined;
    const now = this.deps.clock.now();
    const changes: Parameters<WebhookStore['update']>[2] = { updated_at: now };
    if (input.url !== undefined) changes.url = input.url;
    if (events !== undefined) changes.events = events;
    if (input.description !== undefined) changes.description = input.description;
    if (input.enabled === true) Object.assign(changes, { disabled_at: null, failing_since: null });
    if (input.enabled === false) changes.disabled_at = now;
    const updated = await this.deps.events.transaction(async (trx) => {
      const row = await this.deps.store.with(trx).update(projectId, id, changes);
      if (!row) throw notFoundError('webhook.not_found');
      await this.deps.events.record(trx, { type: 'webhook.updated', projectId, actor, subjectId: id, data: { url: row.url, events: row.events, enabled: row.disabled_at === null } });
      return row;
    });
    return toWebhookResource(updated);
  }

  async delete(projectId: string, id: string, actor: Actor): Promise<void> {
    await this.row(projectId, id);
    await this.deps.events.transaction(async (trx) => {
      if (!(await this.deps.store.with(trx).delete(projectId, id))) throw notFoundError('webhook.not_found');
      await this.deps.events.record(trx, { type: 'webhook.deleted', projectId, actor, subjectId: id, data: {} });
    });
  }

  /** A new secret, shown once; the previous one signs beside it for 24 h. */
  async rotateSecret(projectId: string, id: string, actor: Actor): Promise<{ secret: string; previous_valid_until: string }> {
    const current = await this.row(projectId, id);
    const secret = newWebhookSecret();
    const now = this.deps.clock.now();
    const previousUntil = new Date(now.getTime() + ROTATION_OVERLAP_MS);
    await this.deps.events.transaction(async (trx) => {
      await this.deps.store.with(trx).update(projectId, id, { secret_sealed: this.deps.secrets.seal(secret), previous_secret_sealed: current.secret_sealed, previous_until: previousUntil, updated_at: now });
      await this.deps.events.record(trx, { type: 'webhook.secret_rotated', projectId, actor, subjectId: id, data: { previous_valid_until: previousUntil.toISOString() } });
    });
    return { secret, previous_valid_until: previousUntil.toISOString() };
  }

  async deliveries(projectId: string, id: string, request: PageRequest): Promise<Page<DeliveryResource>> {
    await this.row(projectId, id);
    const scope = `webhook_deliveries:${id}`;
    const cursor = request.pageToken ? this.deps.paginator.decode(request.pageToken, scope) : undefined;
    const limit = this.deps.paginator.limitOf(request);
    const rows = await this.deps.store.deliveries(id, cursor, limit);
    const types = await this.deps.store.eventTypes(rows.map((row) => row.event_id));
    return this.deps.paginator.page(rows, limit, scope, (row) => ({ createdAt: row.created_at, id: row.id }), (row) => toDeliveryResource(row, types.get(row.event_id) ?? ''));
  }

  async redeliver(projectId: string, id: string, deliveryId: string): Promise<DeliveryResource> {
    await this.row(projectId, id);
    const row = deliveryId.startsWith('msg_') && deliveryId.length <= 64 ? await this.deps.store.redeliver(id, deliveryId, this.deps.clock.now()) : undefined;
    if (!row) throw notFoundError('webhook.delivery_not_found');
    const types = await this.deps.store.eventTypes([row.event_id]);
    return toDeliveryResource(row, types.get(row.event_id) ?? '');
  }
}
