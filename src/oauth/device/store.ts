import { sql, type Kysely, type Selectable, type SqlBool } from 'kysely';
import { insertWhen } from '../../db/gate.js';
import type { SqlPart } from '../../db/reusable.js';
import type { Database } from '../../db/schema.js';
import type { DeviceCodeTables } from '../../db/tables/oauth.js';
import { jsonb } from '../../db/sql.js';

export type DeviceCodeRow = Selectable<DeviceCodeTables['oauth_device_codes']>;

/** A device request as the verification page shows it: the row and its client's name. */
export type DeviceRequestView = DeviceCodeRow & { client_name: string };

/** What one typed user code found: the pending request, a wrong code (the budget took it), or a spent budget. */
export type UserCodeLookup = { kind: 'found'; id: string } | { kind: 'wrong'; remaining: number } | { kind: 'spent'; retryAfterSeconds: number };

/** What the poll's UPDATE decided for this poll (column `poll_outcome`). */
export type PollOutcome = 'issued' | 'used' | 'denied' | 'expired' | 'slow_down' | 'pending';

/** The key of the wrong-code budget: codes are looked up across the instance, so the budget is the instance's. */
export const INSTANCE_BUDGET_KEY = '*';
const WINDOW_MS = 60_000;

/** SQL for device authorization requests (RFC 8628) and the wrong-user-code budget; nothing else touches these tables. */
export class DeviceStore {
  private readonly insertWhen: ReturnType<typeof insertWhen>;

  constructor(private readonly db: Kysely<Database>) {
    this.insertWhen = insertWhen(db, 'oauth_device_codes', { json: ['scopes'] });
  }

  private values(row: DeviceCodeRow) {
    return { ...row, scopes: jsonb(row.scopes) };
  }

  /** The INSERT of a new request, written only where `when` holds (the authorize budget's `WriteGate`). */
  insertQuery(row: DeviceCodeRow, when: SqlPart<SqlBool>): SqlPart {
    return this.insertWhen({ ...row, scopes: JSON.stringify(row.scopes) }, when);
  }

  async insert(row: DeviceCodeRow): Promise<void> {
    await this.db.insertInto('oauth_device_codes').values(this.values(row)).execute();
  }

  async findByDeviceCode(hash: string): Promise<DeviceCodeRow | undefined> {
    return this.db.selectFrom('oauth_device_codes').selectAll().where('device_code_hash', '=', hash).executeTakeFirst();
  }

  async view(id: string): Promise<DeviceRequestView | undefined> {
    return this.db
      .selectFrom('oauth_device_codes')
      .innerJoin('oauth_clients', 'oauth_clients.id', 'oauth_device_codes.client_id')
      .selectAll('oauth_device_codes')
      .select('oauth_clients.name as client_name')
      .where('oauth_device_codes.id', '=', id)
      .executeTakeFirst();
  }

  /**
   * Looks a typed user code up under the IP's wrong-code budget, in one statement: a spent budget
   * looks nothing up (past it, a hit and a miss answer the same), and a miss takes one unit in
   * the statement that found nothing. Concurrent misses past the limit take nothing (the upsert's
   * condition is checked against the latest count) and are answered as a spent budget.
   */
  async lookupUserCode(hashes: string[], ip: string, limit: number, now: Date): Promise<UserCodeLookup> {
    const windowStart = new Date(Math.floor(now.getTime() / WINDOW_MS) * WINDOW_MS);
    const key = INSTANCE_BUDGET_KEY;
    const { rows } = await sql<{ id: string | null; taken: number | null; spent: boolean }>`
      with spent as (
        select 1 from oauth_device_code_budget
        where project_id = ${key} and ip = ${ip} and window_start = ${windowStart} and count >= ${limit}
      ), found as (
        select id from oauth_device_codes
        where user_code_hash in (${sql.join(hashes)}) and status = 'pending' and expires_at > ${now}
          and not exists (select 1 from spent)
        limit 1
      ), take as (
        insert into oauth_device_code_budget (project_id, ip, window_start, count)
        select ${key}, ${ip}, ${windowStart}, 1
        where not exists (select 1 from found) and not exists (select 1 from spent)
        on conflict (project_id, ip, window_start)
        do update set count = oauth_device_code_budget.count + 1 where oauth_device_code_budget.count < ${limit}
        returning count
      )
      select (select id from found) as id, (select count from take) as taken, exists (select 1 from spent) as spent
    `.execute(this.db);
    const row = rows[0];
    if (row?.id) return { kind: 'found', id: row.id };
    if (row && !row.spent && row.taken !== null) return { kind: 'wrong', remaining: limit - Number(row.taken) };
    return { kind: 'spent', retryAfterSeconds: Math.max(1, Math.ceil((windowStart.getTime() + WINDOW_MS - now.getTime()) / 1000)) };
  }

  /** The user's answer, once: only a pending, unexpired request changes. */
  async decide(id: string, decision: { approved: true; sessionId: string; userId: string; authTime: Date | null } | { approved: false }, now: Date): Promise<boolean> {
    const set = decision.approved
      ? { status: 'approved' as const, session_id: decision.sessionId, user_id: decision.userId, auth_time: decision.authTime, decided_at: now }
      : { status: 'denied' as const, decided_at: now };
    const row = await this.db
      .updateTable('oauth_device_codes')
      .set(set)
      .where('id', '=', id)
      .where('status', '=', 'pending')
      .where('expires_at', '>', now)
      .returning('id')
      .executeTakeFirst();
    return row !== undefined;
  }

  /**
   * One poll of the token endpoint, decided by one conditional UPDATE … RETURNING. Every SET
   * expression reads the row as it was, so the outcome and the new state are decided together:
   * an approved, unexpired request becomes `consumed` with outcome `issued` for exactly one poll
   * (a concurrent poll waits for the row lock and is re-evaluated against the consumed row: `used`);
   * a pending request polled sooner than its interval answers `slow_down` and its interval grows
   * by 5 seconds (RFC 8628 §3.5), remembered for the next poll.
   */
  async poll(id: string, clientId: string, now: Date): Promise<DeviceCodeRow | undefined> {
    const live = sql<boolean>`expires_at > ${now}`;
    const tooSoon = sql<boolean>`last_polled_at is not null and last_polled_at + interval_seconds * interval '1 second' > ${now}`;
    return this.db
      .updateTable('oauth_device_codes')
      .set({
        poll_outcome: sql`case
          when status = 'consumed' then 'used'
          when status = 'approved' and ${live} then 'issued'
          when status = 'denied' then 'denied'
          when not (${live}) then 'expired'
          when ${tooSoon} then 'slow_down'
          else 'pending' end`,
        interval_seconds: sql`case when status = 'pending' and ${live} and ${tooSoon} then interval_seconds + 5 else interval_seconds end`,
        status: sql`case when status = 'approved' and ${live} then 'consumed' else status end`,
        last_polled_at: now,
      })
      .where('id', '=', id)
      .where('client_id', '=', clientId)
      .returningAll()
      .executeTakeFirst();
  }

  /** Forgets requests that expired before `before`; returns how many. */
  async deleteExpired(before: Date): Promise<number> {
    const result = await this.db.deleteFrom('oauth_device_codes').where('expires_at', '<', before).executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
