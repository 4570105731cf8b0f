import { sql, type Kysely, type Selectable } from 'kysely';
import type { Cursor } from '../core/pagination.js';
import type { Database } from '../db/schema.js';
import { afterCursor, jsonb, valueEqualsAsFilter } from '../db/sql.js';
import type { WebhookTables } from '../db/tables/webhooks.js';

export type WebhookRow = Selectable<WebhookTables['webhooks']>;
export type DeliveryRow = Selectable<WebhookTables['webhook_deliveries']>;

/** A claimed delivery with what sending it needs: the endpoint's address and secrets, and the event. */
export interface ClaimedDelivery {
  delivery: DeliveryRow;
  webhook: Pick<WebhookRow, 'url' | 'secret_sealed' | 'previous_secret_sealed' | 'previous_until' | 'failing_since'>;
  event: { id: string; type: string; occurred_at: Date; project_id: string; actor_kind: string; actor_id: string | null; subject_kind: string; subject_id: string | null; data: unknown };
}

type ClaimedRow = DeliveryRow & {
  w_url: string;
  w_secret_sealed: string;
  w_previous_secret_sealed: string | null;
  w_previous_until: Date | null;
  w_failing_since: Date | null;
  e_type: string;
  e_occurred_at: Date;
  e_actor_kind: string;
  e_actor_id: string | null;
  e_subject_kind: string;
  e_subject_id: string | null;
  e_data: unknown;
};

/** SQL for webhooks and their deliveries. */
export class WebhookStore {
  constructor(private readonly db: Kysely<Database>) {}

  with(db: Kysely<Database>): WebhookStore {
    return new WebhookStore(db);
  }

  async insert(row: WebhookRow): Promise<void> {
    await this.db.insertInto('webhooks').values({ ...row, events: jsonb(row.events) }).execute();
  }

  async find(projectId: string, id: string): Promise<WebhookRow | undefined> {
    return this.db.selectFrom('webhooks').selectAll().where(valueEqualsAsFilter('project_id', projectId)).where('id', '=', id).executeTakeFirst();
  }

  async list(projectId: string, cursor: Cursor | undefined, limit: number): Promise<WebhookRow[]> {
    const query = this.db.selectFrom('webhooks').selectAll().where('project_id', '=', projectId);
    return afterCursor(query, 'webhooks', cursor).limit(limit + 1).execute();
  }

  async update(projectId: string, id: string, changes: Partial<Omit<WebhookRow, 'id' | 'project_id' | 'created_at'>>): Promise<WebhookRow | undefined> {
    const { events, ...rest } = changes;
    return this.db
      .updateTable('webhooks')
      .set({ ...rest, ...(events !== undefined ? { events: jsonb(events) } : {}) })
      .where(valueEqualsAsFilter('project_id', projectId))
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
  }

  async delete(projectId: string, id: string): Promise<boolean> {
    const result = await this.db.deleteFrom('webhooks').where(valueEqualsAsFilter('project_id', projectId)).where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /**
   * Claims up to `limit` due deliveries: per endpoint only its oldest pending one (ordering by
   * event time; a retrying delivery holds back the later ones of that endpoint only), not leased
   * or with a lease run out. The lease is set in the same statement that checks it, so two
   * workers never hold one row: the second's update re-reads the row after the first commits and
   * finds the lease taken. The endpoint and the event come back joined to the claimed rows, so a
   * round is one statement however many it sends.
   */
  async claim(now: Date, leaseUntil: Date, limit: number): Promise<ClaimedDelivery[]> {
    const result = await sql<ClaimedRow>`
      with claimed as (
      update webhook_deliveries d
      set leased_until = ${leaseUntil}, attempts = d.attempts + 1, first_attempt_at = coalesce(d.first_attempt_at, ${now})
      where d.id in (
        select oldest.id from (
          select distinct on (p.webhook_id) p.id, p.next_at, p.leased_until
          from webhook_deliveries p join webhooks w on w.id = p.webhook_id and w.disabled_at is null
          where p.status = 'pending'
          order by p.webhook_id, p.occurred_at, p.id
        ) oldest
        where oldest.next_at <= ${now} and (oldest.leased_until is null or oldest.leased_until < ${now})
        order by oldest.next_at
        limit ${limit}
      )
      and d.status = 'pending' and (d.leased_until is null or d.leased_until < ${now})
      returning d.*
      )
      select c.*, w.url as w_url, w.secret_sealed as w_secret_sealed, w.previous_secret_sealed as w_previous_secret_sealed,
        w.previous_until as w_previous_until, w.failing_since as w_failing_since,
        e.type as e_type, e.occurred_at as e_occurred_at, e.actor_kind as e_actor_kind, e.actor_id as e_actor_id, e.subject_kind as e_subject_kind, e.subject_id as e_subject_id, e.data as e_data
      from claimed c join webhooks w on w.id = c.webhook_id join events e on e.id = c.event_id`.execute(this.db);
    return result.rows.map(claimedDelivery);
  }

  /** Records an attempt's outcome, only while the lease is still this worker's (a late worker changes nothing). */
  async settle(id: string, lease: Date, changes: Partial<Pick<DeliveryRow, 'status' | 'next_at' | 'last_status_code' | 'last_error' | 'delivered_at'>>): Promise<boolean> {
    const result = await this.db
      .updateTable('webhook_deliveries')
      .set({ ...changes, leased_until: null })
      .where('id', '=', id)
      .where('leased_until', '=', lease)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Deliveries of one endpoint, newest first. */
  async deliveries(webhookId: string, cursor: Cursor | undefined, limit: number): Promise<DeliveryRow[]> {
    const query = this.db.selectFrom('webhook_deliveries').selectAll().where('webhook_id', '=', webhookId);
    return afterCursor(query, 'webhook_deliveries', cursor, 'desc').limit(limit + 1).execute();
  }

  /** The types of these events (a delivery's event is never gone while the delivery lives: `on delete cascade`). */
  async eventTypes(eventIds: readonly string[]): Promise<Map<string, string>> {
    if (eventIds.length === 0) return new Map();
    const rows = await this.db.selectFrom('events').select(['id', 'type']).where('id', 'in', [...new Set(eventIds)]).execute();
    return new Map(rows.map((row) => [row.id, row.type]));
  }

  /** Sends a delivery again from now on, with a fresh 24 h of retries (its id, the webhook-id, stays). */
  async redeliver(webhookId: string, id: string, now: Date): Promise<DeliveryRow | undefined> {
    return this.db
      .updateTable('webhook_deliveries')
      .set({ status: 'pending', next_at: now, first_attempt_at: null, attempts: 0, leased_until: null })
      .where('webhook_id', '=', webhookId)
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
  }

  /** A success ends an endpoint's failing streak. */
  async markHealthy(webhookId: string): Promise<void> {
    await this.db.updateTable('webhooks').set({ failing_since: null }).where('id', '=', webhookId).where('failing_since', 'is not', null).execute();
  }

  /** The first failure of a streak starts the clock that disables the endpoint after 5 days. */
  async markFailing(webhookId: string, now: Date): Promise<void> {
    await this.db.updateTable('webhooks').set({ failing_since: now }).where('id', '=', webhookId).where('failing_since', 'is', null).execute();
  }

  /** Disables an enabled endpoint; false when another node did it first. */
  async disable(webhookId: string, now: Date): Promise<boolean> {
    const result = await this.db.updateTable('webhooks').set({ disabled_at: now, updated_at: now }).where('id', '=', webhookId).where('disabled_at', 'is', null).executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }
}

function claimedDelivery(row: ClaimedRow): ClaimedDelivery {
  const { w_url, w_secret_sealed, w_previous_secret_sealed, w_previous_until, w_failing_since, e_type, e_occurred_at, e_actor_kind, e_actor_id, e_subject_kind, e_subject_id, e_data, ...delivery } = row;
  return {
    delivery,
    webhook: { url: w_url, secret_sealed: w_secret_sealed, previous_secret_sealed: w_previous_secret_sealed, previous_until: w_previous_until, failing_since: w_failing_since },
    event: { id: delivery.event_id, type: e_type, occurred_at: e_occurred_at, project_id: delivery.project_id, actor_kind: e_actor_kind, actor_id: e_actor_id, subject_kind: e_subject_kind, subject_id: e_subject_id, data: e_data },
  };
}
