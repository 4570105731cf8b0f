import { sql, type Kysely, type RawBuilder, type Selectable } from 'kysely';
import type { Cursor } from '../core/pagination.js';
import type { Database } from '../db/schema.js';
import type { EventTables } from '../db/tables/events.js';
import { jsonb } from '../db/sql.js';

export type EventRow = Selectable<EventTables['events']>;

/** GET /events's filters; every one optional. */
export interface EventFilter {
  types?: readonly string[];
  subjectId?: string;
  actorId?: string;
  /** inclusive */
  since?: Date;
  /** exclusive */
  until?: Date;
}

/** The retention when a project sets none (`events.retention_days`). */
export const DEFAULT_RETENTION_DAYS = 90;
export const MAX_RETENTION_DAYS = 3650;

/**
 * One pending webhook delivery per event of `events` (a CTE with id, project_id, type,
 * occurred_at) and enabled endpoint of its project subscribed to its type, or "*". The delivery
 * id (`msg_` + a hash of event and endpoint) is the `webhook-id` every retry repeats.
 */
function deliveriesOf(events: string, now: Date): RawBuilder<unknown> {
  return sql`insert into webhook_deliveries (id, webhook_id, project_id, event_id, occurred_at, status, attempts, next_at, created_at)
    select 'msg_' || md5(e.id || ':' || w.id), w.id, e.project_id, e.id, e.occurred_at, 'pending', 0, ${now}::timestamptz, ${now}::timestamptz
    from ${sql.table(events)} e
    join webhooks w on w.project_id = e.project_id and w.disabled_at is null
      and (w.events @> jsonb_build_array(e.type) or w.events @> '["*"]'::jsonb)`;
}

/** SQL for the events table; nothing else touches it (writes come through `EventLog.record`). */
export class EventStore {
  constructor(private readonly db: Kysely<Database>) {}

  with(db: Kysely<Database>): EventStore {
    return new EventStore(db);
  }

  /**
   * One statement for every row, and for its webhook deliveries: the fan-out (one pending delivery
   * per event and enabled endpoint of its project subscribed to its type, or "*") is part of the
   * insert, so no event commits without its deliveries and an event costs no extra round trip.
   * The delivery id (`msg_` + a hash of event and endpoint) is the `webhook-id` every retry repeats.
   */
  async insert(rows: readonly EventRow[], now: Date): Promise<void> {
    if (rows.length === 0) return;
    const inserted = this.db
      .insertInto('events')
      .values(rows.map((row) => ({ ...row, data: jsonb(row.data) })))
      .returning(['id', 'project_id', 'type', 'occurred_at']);
    await sql`with e as (${inserted}) ${deliveriesOf('e', now)}`.execute(this.db);
  }

  /**
   * The same write as `insert` for a statement that makes its change and records its events at
   * once: two CTEs (`events_written`, `events_delivered`) that insert what `rows` selects (the
   * events table's columns in order: id, project_id, type, occurred_at, actor_kind, actor_id,
   * subject_kind, subject_id, data) and fan it out to the webhooks. The change and its events are
   * one statement, so they commit together without a transaction of their own.
   */
  insertInStatement(rows: RawBuilder<unknown>, now: Date): RawBuilder<unknown> {
    return sql`events_written as (
      insert into events (id, project_id, type, occurred_at, actor_kind, actor_id, subject_kind, subject_id, data) ${rows}
      returning id, project_id, type, occurred_at),
    events_delivered as (${deliveriesOf('events_written', now)})`;
  }

  /** One page of a project's events, newest first (`limit + 1` rows tell whether more follow). */
  async page(projectId: string, filter: EventFilter, cursor: Cursor | undefined, limit: number): Promise<EventRow[]> {
    let query = this.db.selectFrom('events').selectAll().where('project_id', '=', projectId);
    if (filter.types !== undefined && filter.types.length > 0) query = query.where('type', 'in', [...filter.types]);
    if (filter.subjectId !== undefined) query = query.where('subject_id', '=', filter.subjectId);
    if (filter.actorId !== undefined) query = query.where('actor_id', '=', filter.actorId);
    if (filter.since !== undefined) query = query.where('occurred_at', '>=', filter.since);
    if (filter.until !== undefined) query = query.where('occurred_at', '<', filter.until);
    if (cursor) query = query.where(sql<boolean>`(occurred_at, id) < (${cursor.createdAt}, ${cursor.id})`);
    return query.orderBy('occurred_at', 'desc').orderBy('id', 'desc').limit(limit + 1).execute();
  }

  /**
   * Deletes up to `batch` events older than their project's `events.retention_days` (default 90)
   * before `now`, in one short statement (the caller loops while a whole batch went): a large
   * prune never holds a long lock. Each project's old end is read through its `events_log` index.
   */
  async prune(now: Date, batch: number): Promise<number> {
    const setting = sql`p.settings #> '{events,retention_days}'`;
    const days = sql`coalesce(case when jsonb_typeof(${setting}) = 'number' then least(greatest((p.settings #>> '{events,retention_days}')::numeric, 1), ${MAX_RETENTION_DAYS})::int end, ${DEFAULT_RETENTION_DAYS})`;
    const result = await sql`
      delete from events where ctid = any(array(
        select old.ctid from projects p
        cross join lateral (
          select e.ctid from events e
          where e.project_id = p.id and e.occurred_at < ${now}::timestamptz - make_interval(days => ${days})
          limit ${batch}
        ) old
        limit ${batch}
      ))`.execute(this.db);
    return Number(result.numAffectedRows ?? 0);
  }
}
