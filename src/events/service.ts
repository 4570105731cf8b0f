import { sql, type Expression, type Kysely, type RawBuilder } from 'kysely';
import type { Clock } from '../core/clock.js';
import { pooledRandomBytes } from '../core/random.js';
import type { Page, PageRequest, Paginator } from '../core/pagination.js';
import type { Database } from '../db/schema.js';
import type { EventFilter, EventRow, EventStore } from './store.js';
import { EVENT_CATALOGUE, eventData, type ActorKind, type EventDataMap, type EventResource, type EventType, type NewEvent, type SubjectKind } from './types.js';

/** Retention deletes at most this many events per statement (docs/events.md, "Retention"). */
export const PRUNE_BATCH = 1000;

const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';
const base32 = (value: number, length: number) => {
  let out = '';
  for (let i = 0, rest = value; i < length; i++, rest = Math.floor(rest / 32)) out = ALPHABET[rest % 32] + out;
  return out;
};

/**
 * Event ids (`evt_` and 26 characters, like every id) that sort by time, then by the order this
 * process wrote them: the events of one change share their `occurred_at`, and the log's order
 * (newest first, then by id) keeps them in the order they happened. The milliseconds (10
 * characters), a counter within the millisecond (4), then 12 random characters.
 */
export class EventIds {
  private last = { ms: -1, counter: 0 };

  next(at: Date): string {
    const ms = at.getTime();
    this.last = ms === this.last.ms ? { ms, counter: this.last.counter + 1 } : { ms, counter: 0 };
    const random = pooledRandomBytes(12);
    let tail = '';
    for (const byte of random) tail += ALPHABET[byte & 31];
    return `evt_${base32(ms, 10)}${base32(this.last.counter, 4)}${tail}`;
  }
}

export function toEventResource(row: EventRow): EventResource {
  return {
    id: row.id,
    type: row.type,
    occurred_at: row.occurred_at.toISOString(),
    project_id: row.project_id,
    actor: { kind: row.actor_kind as ActorKind, id: row.actor_id },
    subject: { kind: row.subject_kind as SubjectKind, id: row.subject_id },
    data: row.data,
  };
}

/**
 * An event that a data-modifying statement records about its own change (`EventLog.inStatement`):
 * its values are SQL over the rows `from` names, once per row. `data` has each of the type's
 * fields; its values go into the log as they are, without `eventData`'s redaction, so they must
 * be ids, method names and the like, never text a person typed.
 */
export interface EventInStatement<T extends EventType = EventType> {
  type: T;
  /** `EventLog.newIds`, handed to the statement as a value, or SQL over the row (a batch's per-row ids) */
  id: string | Expression<string>;
  projectId: Expression<string>;
  actor: { kind: ActorKind; id: Expression<string | null> };
  subjectId: Expression<string | null>;
  data: { [K in keyof EventDataMap[T]]-?: Expression<unknown> };
}

/**
 * The event log (docs/events.md). `record(trx, event)` is the only way to write an event, and it
 * takes the transaction of the change it records: an event commits with its change or not at all,
 * and on the embedded engine (one connection) a write beside the open transaction would wait
 * forever, so there is no `record` without one. `transaction(work)` opens one for a change that
 * had none.
 */
export class EventLog {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly store: EventStore,
    private readonly clock: Clock,
    private readonly paginator: Paginator,
    private readonly ids = new EventIds(),
  ) {}

  /** Runs a change and the events it records in one transaction. */
  transaction<T>(work: (trx: Kysely<Database>) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(work);
  }

  /** Writes one event inside the change's transaction; its id. */
  async record<T extends EventType>(trx: Kysely<Database>, event: NewEvent<T>): Promise<string> {
    const [id] = await this.recordAll(trx, [event]);
    return id;
  }

  /** Writes several events of one change (e.g. `session.created` and `login.succeeded`) in one statement. */
  async recordAll(trx: Kysely<Database>, events: readonly NewEvent[]): Promise<string[]> {
    if (!trx.isTransaction) throw new Error('EventLog.record needs the transaction of the change it records');
    const now = this.clock.now();
    const rows = events.map((event): EventRow => ({
      id: this.ids.next(now),
      project_id: event.projectId,
      type: event.type,
      occurred_at: now,
      actor_kind: event.actor.kind,
      actor_id: event.actor.id,
      subject_kind: EVENT_CATALOGUE[event.type].subject,
      subject_id: event.subjectId,
      data: eventData(event.type, event.data),
    }));
    await this.store.with(trx).insert(rows, now);
    return rows.map((row) => row.id);
  }

  /** Ids for events that `inStatement` writes at `at`; in the order the events happen. */
  newIds(count: number, at: Date): string[] {
    return Array.from({ length: count }, () => this.ids.next(at));
  }

  /**
   * The events of a change that is one data-modifying statement, as CTEs of that statement
   * (`EventStore.insertInStatement`): for each row of `from`, one row per event. They commit
   * with the change or not at all, as `record` does, and the change costs no BEGIN, COMMIT or
   * second round trip. Only values reach the SQL text, so a caller may compile it once
   * (src/db/reusable.ts).
   */
  inStatement(from: string, events: readonly EventInStatement[], at: Date): RawBuilder<unknown> {
    const selects = events.map((event) => {
      const fields = EVENT_CATALOGUE[event.type].fields as readonly string[];
      const data = fields.map((field) => sql`${sql.lit(field)}::text, ${(event.data as Record<string, Expression<unknown>>)[field]}`);
      const subjectKind: SubjectKind = EVENT_CATALOGUE[event.type].subject;
      return sql`select ${event.id}::text, ${event.projectId}, ${sql.lit(event.type)}::text, ${at}::timestamptz, ${sql.lit(event.actor.kind)}::text, ${event.actor.id}, ${sql.lit(subjectKind)}::text, ${event.subjectId}, jsonb_build_object(${sql.join(data)}) from ${sql.table(from)}`;
    });
    return this.store.insertInStatement(sql.join(selects, sql` union all `), at);
  }

  /** GET /events: newest first; a page token is bound to the project and the filters it was made with. */
  async list(projectId: string, filter: EventFilter, request: PageRequest): Promise<Page<EventResource>> {
    const scope = `events:${projectId}:${JSON.stringify([filter.types ?? null, filter.subjectId ?? null, filter.actorId ?? null, filter.since?.toISOString() ?? null, filter.until?.toISOString() ?? null])}`;
    const cursor = request.pageToken ? this.paginator.decode(request.pageToken, scope) : undefined;
    const limit = this.paginator.limitOf(request);
    const rows = await this.store.page(projectId, filter, cursor, limit);
    return this.paginator.page(rows, limit, scope, (row) => ({ createdAt: row.occurred_at, id: row.id }), toEventResource);
  }

  /** Deletes every project's events past its retention, `PRUNE_BATCH` per statement; how many went. */
  async prune(): Promise<number> {
    const now = this.clock.now();
    let total = 0;
    for (;;) {
      const deleted = await this.store.prune(now, PRUNE_BATCH);
      total += deleted;
      if (deleted < PRUNE_BATCH) return total;
    }
  }
}
