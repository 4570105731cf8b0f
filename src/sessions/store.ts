import { sql, type Compilable, type CompiledQuery, type Kysely, type RawBuilder, type Selectable, type SqlBool } from 'kysely';
import type { Cursor } from '../core/pagination.js';
import type { Database } from '../db/schema.js';
import type { SessionTables } from '../db/tables/sessions.js';
import { ALWAYS, insertWhen, type WriteGate } from '../db/gate.js';
import { compiledStatement, reusablePart, reusableStatement, type SqlPart } from '../db/reusable.js';
import { afterCursor, equalsAsFilter, jsonb, valueEqualsAsFilter } from '../db/sql.js';
import { userOwnerTeamLateral } from '../users/store.js';

export type { UserAgent } from '../db/tables/sessions.js';

export type SessionRow = Selectable<SessionTables['sessions']>;
/** A session the single-statement exchange wrote, with the upgraded shell's previous token hash (null for a new session). */
export type ExchangedRow = SessionRow & { superseded_token_hash: string | null };
/** A session a batch of exchanges wrote, with the position (from 1) of its exchange in the batch and its events' ids. */
export type BatchExchangedRow = SessionRow & { ordinal: number; created_event_id: string; login_event_id: string };

/** The per-exchange values of `exchangeBatchStatement`, one array element per exchange, in batch order. */
export interface ExchangeBatchValues {
  projectIds: string[];
  /** the handoff tokens' stored hashes */
  hashes: string[];
  ids: string[];
  tokenHashes: string[];
  /** ISO 8601 instants */
  expiresAt: string[];
  createdEventIds: string[];
  loginEventIds: string[];
}

/** Filters shared by GET /sessions and POST /sessions/query. */
export interface SessionFilter {
  userId?: string;
  state?: 'building' | 'active' | 'expired';
  createdAfter?: Date;
  createdBefore?: Date;
  lifecycleOwnerTeamId?: string;
}

/** The session's columns that hold JSON. */
const SESSION_JSON_COLUMNS = ['factors', 'metadata', 'user_agent'];

/**
 * The two reads behind every session check and the inserts of new sessions, compiled once
 * (src/db/reusable.ts): building and compiling a Kysely query costs more CPU than the rest of the
 * handler. Shared by every store `with` makes, so a transaction's store compiles nothing.
 */
function sessionStatements(db: Kysely<Database>) {
  return {
    byId: reusableStatement(db, (a: { id: string }) => db.selectFrom('sessions').selectAll().where('id', '=', a.id)),
    byTokenHash: reusableStatement(db, (a: { hash: string }) => db.selectFrom('sessions').selectAll().where('token_hash', '=', a.hash)),
    insertWhen: insertWhen(db, 'sessions', { json: SESSION_JSON_COLUMNS }),
    extendShell: reusablePart(db, (a: { projectId: string; id: string; now: Date; expiresAt: Date; when: SqlPart<SqlBool> }) =>
      db
        .updateTable('sessions')
        .set({ expires_at: a.expiresAt, updated_at: a.now })
        .where('id', '=', a.id)
        .where(valueEqualsAsFilter('project_id', a.projectId))
        .where('state', '=', sql.lit('building'))
        .where('expires_at', '>', a.now)
        .where(a.when)
        .returning(['id', 'token_hash']),
    ),
    insertAlongside: reusablePart(db, (a: { insert: SqlPart; alongside: SqlPart }) => sql`with inserted as (${a.insert}), alongside as (${a.alongside}) select 1`),
  };
}

/** SQL for the sessions table; nothing else touches it. */
export class SessionStore {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly statements = sessionStatements(db),
  ) {}

  with(db: Kysely<Database>): SessionStore {
    return new SessionStore(db, this.statements);
  }

  /**
   * With a `gate` (a budget, e.g. flow starts per IP), the row and `alongside` (another domain's
   * write that belongs with the new session: a flow's run) are written only when the gate's
   * statement takes it; without one, in one statement still.
   */
  async insert(row: SessionRow, alongside?: SqlPart, gate?: WriteGate): Promise<void> {
    const values = { ...row, factors: JSON.stringify(row.factors), metadata: JSON.stringify(row.metadata), user_agent: JSON.stringify(row.user_agent) };
    if (gate) return gate.write([this.statements.insertWhen(values, gate.when), ...(alongside ? [alongside] : [])]);
    const insert = this.statements.insertWhen(values, ALWAYS);
    await this.db.executeQuery(compiledStatement(alongside ? this.statements.insertAlongside({ insert, alongside }) : insert));
  }

  /**
   * A predicate for the handoff consumption of `exchangeInOneStatement`: the session that
   * `sessionIdColumn` names is a live anonymous shell of the project. A scalar subquery on the
   * primary key, not `exists (...)`: PostgreSQL may turn an EXISTS under an OR into a hashed
   * subplan over every live shell of the project, and a generic plan made while the table looked
   * small keeps doing that for each exchange (sessions.exchange.plan.test.ts).
   */
  liveShell(projectId: string, now: Date): (sessionIdColumn: string) => RawBuilder<boolean> {
    return (column) =>
      sql<boolean>`coalesce((select shell.project_id = ${projectId} and shell.state = 'building' and shell.expires_at > ${now} from sessions shell where shell.id = ${sql.ref(column)}), false)`;
  }

  /**
   * An exchange in one statement, without a transaction: `source` (the attempts domain's
   * consuming UPDATE ... RETURNING project_id, user_id, factors, session_id) is its top-level
   * CTE; then the anonymous shell the attempt names is upgraded (user, owner team, factors, the
   * new token, `fields.expires_at`), or a new session is inserted when the attempt names none or
   * its shell was upgraded by a concurrent exchange in between (never someone else's session).
   * Nothing is written unless the token was consumed and the user still exists; consumption and
   * session commit together. `superseded_token_hash` is the upgraded shell's previous token
   * (the CTE `previous` reads the row as it was before the statement). The shell is named by a
   * scalar subquery so that the plan looks it up by primary key (a join on `source` let the
   * planner scan every session), and its project is checked with `equalsAsFilter` so that no
   * generic plan reaches it through a project index (sessions.exchange.plan-growth.test.ts).
   * `fields` and the values inside `source` are the statement's only parameters, so the service
   * compiles it once (src/db/reusable.ts). `alongside` adds CTEs that write what belongs with the
   * session (its events) from the CTE `written`, the row it returns.
   */
  exchangeStatement(fields: Pick<SessionRow, 'id' | 'token_hash' | 'created_at' | 'expires_at'>, source: Compilable, alongside?: (written: string) => RawBuilder<unknown>): RawBuilder<ExchangedRow> {
    const owner = userOwnerTeamLateral('source.project_id', 'source.user_id');
    return sql<ExchangedRow>`with source as (${source}),
      previous as (select sessions.id, sessions.token_hash from sessions where sessions.id = (select session_id from source)),
      upgraded as (
        update sessions set state = 'active', user_id = source.user_id,
          lifecycle_owner_team_id = coalesce(owner.lifecycle_owner_team_id, sessions.lifecycle_owner_team_id),
          factors = source.factors, token_hash = ${fields.token_hash}::text, expires_at = ${fields.expires_at}::timestamptz, updated_at = ${fields.created_at}::timestamptz
        from source cross join ${owner} as owner
        where sessions.id = (select session_id from source) and ${equalsAsFilter('sessions.project_id', 'source.project_id')} and sessions.state = 'building' and sessions.expires_at > ${fields.created_at}::timestamptz
        returning sessions.*),
      created as (
        insert into sessions (id, project_id, state, user_id, lifecycle_owner_team_id, factors, metadata, user_agent, token_hash, created_at, updated_at, expires_at)
        select ${fields.id}::text, source.project_id, 'active', source.user_id, owner.lifecycle_owner_team_id,
          source.factors, '{}'::jsonb, '{}'::jsonb, ${fields.token_hash}::text, ${fields.created_at}::timestamptz, ${fields.created_at}::timestamptz, ${fields.expires_at}::timestamptz
        from source cross join ${owner} as owner
        where not exists (select 1 from upgraded)
        returning *),
      written as (
        select upgraded.*, previous.token_hash as superseded_token_hash from upgraded left join previous on previous.id = upgraded.id
        union all
        select created.*, null from created)
      ${alongside ? sql`, ${alongside('written')}` : sql``}
      select * from written`;
  }

  /**
   * Many new-session exchanges in one statement: `exchangeStatement` for the attempts that name
   * no session, with each exchange's values in arrays (`input`: one row per exchange, numbered
   * from 1 in `ordinal`). `consume(input)` is the attempts domain's batch consumption. A session
   * is written for each token consumed whose user still exists; `alongside` adds CTEs over
   * `written` (its events), which also carries each row's `created_event_id` and
   * `login_event_id`. The text does not depend on the batch's size, so it is prepared once.
   */
  exchangeBatchStatement(values: ExchangeBatchValues, now: Date, consume: (input: string) => RawBuilder<unknown>, alongside: (written: string) => RawBuilder<unknown>): RawBuilder<BatchExchangedRow> {
    const owner = userOwnerTeamLateral('source.project_id', 'source.user_id');
    return sql<BatchExchangedRow>`with input as (
        select * from unnest(${values.projectIds}::text[], ${values.hashes}::text[], ${values.ids}::text[], ${values.tokenHashes}::text[],
          ${values.expiresAt}::timestamptz[], ${values.createdEventIds}::text[], ${values.loginEventIds}::text[])
        with ordinality as input(project_id, hash, id, token_hash, expires_at, created_event_id, login_event_id, ordinal)),
      source as (${consume('input')}),
      created as (
        insert into sessions (id, project_id, state, user_id, lifecycle_owner_team_id, factors, metadata, user_agent, token_hash, created_at, updated_at, expires_at)
        select input.id, source.project_id, 'active', source.user_id, owner.lifecycle_owner_team_id,
          source.factors, '{}'::jsonb, '{}'::jsonb, input.token_hash, ${now}::timestamptz, ${now}::timestamptz, input.expires_at
        from source join input on input.ordinal = source.ordinal cross join ${owner} as owner
        returning *),
      written as (
        select created.*, input.ordinal::int as ordinal, input.created_event_id, input.login_event_id from created join input on input.id = created.id),
      ${alongside('written')}
      select * from written`;
  }

  /** Runs a statement built by `exchangeStatement` (compiled once: src/db/reusable.ts); undefined when nothing was written. */
  async exchangeInOneStatement(statement: CompiledQuery<ExchangedRow>): Promise<ExchangedRow | undefined> {
    return (await this.db.executeQuery(statement)).rows[0];
  }

  /** Runs a statement built by `exchangeBatchStatement`: a row for each exchange it wrote. */
  async exchangeInBatch(statement: CompiledQuery<BatchExchangedRow>): Promise<BatchExchangedRow[]> {
    return (await this.db.executeQuery(statement)).rows;
  }


  async find(id: string): Promise<SessionRow | undefined> {
    return (await this.db.executeQuery(this.statements.byId({ id }))).rows[0];
  }

  /** Reads and locks a session for the rest of the transaction (exchange upgrades and step-ups). */
  async findForUpdate(id: string): Promise<SessionRow | undefined> {
    return this.db.selectFrom('sessions').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
  }

  async findByTokenHash(hash: string): Promise<SessionRow | undefined> {
    return (await this.db.executeQuery(this.statements.byTokenHash({ hash }))).rows[0];
  }

  /** Writes the authenticated part of a session and its new token hash (supersedes the old token). */
  async authenticate(
    id: string,
    change: Pick<SessionRow, 'user_id' | 'lifecycle_owner_team_id' | 'factors' | 'token_hash' | 'expires_at' | 'updated_at'>,
  ): Promise<SessionRow | undefined> {
    return this.db
      .updateTable('sessions')
      .set({ ...change, state: 'active', factors: jsonb(change.factors) })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
  }

  /** Moves the expiry of an anonymous shell that is still alive; its id and token hash, undefined when there is none. */
  async extendShell(projectId: string, id: string, now: Date, expiresAt: Date): Promise<Pick<SessionRow, 'id' | 'token_hash'> | undefined> {
    const part = this.extendShellQuery(projectId, id, now, expiresAt, ALWAYS);
    return (await this.db.executeQuery(compiledStatement<Pick<SessionRow, 'id' | 'token_hash'>>(part))).rows[0];
  }

  /** `extendShell` as a data-modifying query (RETURNING `id, token_hash`) for another domain's statement, run only `when` holds. */
  extendShellQuery(projectId: string, id: string, now: Date, expiresAt: Date, when: SqlPart<SqlBool>): SqlPart {
    return this.statements.extendShell({ projectId, id, now, expiresAt, when });
  }

  /** By primary key whatever the statistics: the project is only a filter (`valueEqualsAsFilter`). */
  async delete(id: string, projectId?: string): Promise<SessionRow | undefined> {
    let query = this.db.deleteFrom('sessions').where('id', '=', id);
    if (projectId !== undefined) query = query.where(valueEqualsAsFilter('project_id', projectId));
    return query.returningAll().executeTakeFirst();
  }

  /** Deletes every session of a user (user deletion) and returns the deleted rows. */
  async deleteByUser(projectId: string, userId: string): Promise<SessionRow[]> {
    return this.db.deleteFrom('sessions').where('project_id', '=', projectId).where('user_id', '=', userId).returningAll().execute();
  }

  async list(projectId: string, filter: SessionFilter, now: Date, cursor: Cursor | undefined, limit: number, direction: 'asc' | 'desc' = 'asc'): Promise<SessionRow[]> {
    let query = this.db.selectFrom('sessions').selectAll().where('project_id', '=', projectId);
    if (filter.userId !== undefined) query = query.where('user_id', '=', filter.userId);
    if (filter.lifecycleOwnerTeamId !== undefined) query = query.where('lifecycle_owner_team_id', '=', filter.lifecycleOwnerTeamId);
    if (filter.createdAfter !== undefined) query = query.where('created_at', '>', filter.createdAfter);
    if (filter.createdBefore !== undefined) query = query.where('created_at', '<', filter.createdBefore);
    if (filter.state === 'expired') query = query.where('expires_at', '<=', now);
    else if (filter.state !== undefined) query = query.where('state', '=', filter.state).where('expires_at', '>', now);
    return afterCursor(query, 'sessions', cursor, direction).limit(limit + 1).execute();
  }

  /** Deletes up to `batch` sessions that expired before `before`; returns the deleted rows. */
  async deleteExpired(before: Date, batch: number): Promise<SessionRow[]> {
    return this.db
      .deleteFrom('sessions')
      .where('id', 'in', (eb) => eb.selectFrom('sessions').select('id').where('expires_at', '<', before).limit(batch))
      .returningAll()
      .execute();
  }
}

/**
 * Responses kept for a repeated `Idempotency-Key` (handoff creation, exchange). The response is
 * stored sealed by the caller; this store only moves rows.
 */
export class IdempotencyStore {
  constructor(private readonly db: Kysely<Database>) {}

  with(db: Kysely<Database>): IdempotencyStore {
    return new IdempotencyStore(db);
  }

  async find(projectId: string, operation: string, key: string, now: Date): Promise<Selectable<SessionTables['idempotency_records']> | undefined> {
    return this.db
      .selectFrom('idempotency_records')
      .selectAll()
      .where('project_id', '=', projectId)
      .where('operation', '=', operation)
      .where('idempotency_key', '=', key)
      .where('expires_at', '>', now)
      .executeTakeFirst();
  }

  /**
   * Stores a record, replacing an expired one with the same key. Returns false when a live
   * record with this key already exists (a concurrent request won).
   */
  async insert(row: Selectable<SessionTables['idempotency_records']>): Promise<boolean> {
    const result = await this.db
      .insertInto('idempotency_records')
      .values(row)
      .onConflict((oc) =>
        oc
          .columns(['project_id', 'operation', 'idempotency_key'])
          .doUpdateSet({
            request_hash: row.request_hash,
            response: row.response,
            created_at: row.created_at,
            expires_at: row.expires_at,
          })
          .where(sql.ref('idempotency_records.expires_at'), '<=', row.created_at),
      )
      .returning('idempotency_key')
      .executeTakeFirst();
    return result !== undefined;
  }

  async deleteExpired(before: Date): Promise<number> {
    const result = await this.db.deleteFrom('idempotency_records').where('expires_at', '<', before).executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
