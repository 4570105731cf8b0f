import { sql, type Kysely, type RawBuilder, type Selectable } from 'kysely';
import { compiledStatement, constantPart, reusablePart, type SqlPart } from '../db/reusable.js';
import type { Database } from '../db/schema.js';
import type { AttemptTables } from '../db/tables/attempts.js';
import { jsonb, valueEqualsAsFilter } from '../db/sql.js';

export type { AttemptState } from '../db/tables/attempts.js';

/** Another domain's part of a hand-off statement: CTEs written ahead of the gate, and columns of the answer. */
export interface CarriedParts {
  ctes: SqlPart;
  columns: SqlPart;
}

export type AttemptRow = Selectable<AttemptTables['auth_attempts']>;
/** What a batch's consumption returns per consumed token (`consumeHandoffsInBatchQuery`). */
export type BatchConsumedRow = Pick<AttemptRow, 'project_id' | 'user_id' | 'factors'> & { ordinal: number };
export type HandoffRow = Selectable<AttemptTables['handoff_tokens']>;

/** Holds in `insertHandedOff`'s statement once the attempt was written. */
const ATTEMPT_WRITTEN = constantPart<boolean>('exists (select 1 from attempt)');

interface HandedOffArgs {
  gate: SqlPart;
  id: string;
  projectId: string;
  sessionId: string | null;
  userId: string | null;
  /** JSON text */
  factors: string;
  createdAt: Date;
  updatedAt: Date;
  expiresAt: Date;
  completedAt: Date | null;
  handedOffAt: Date | null;
  tokenHash: string;
  tokenProjectId: string;
  tokenCreatedAt: Date;
  tokenExpiresAt: Date;
  also?: SqlPart;
  carriedCtes?: SqlPart;
  carriedColumns?: SqlPart;
}

/**
 * `insertHandedOff`'s statement, compiled once per variant (src/db/reusable.ts): with or without
 * another domain's carried parts, with or without a write of the caller's (`also`). The flags
 * choose the text; the values never do.
 */
function handedOffStatement(db: Kysely<Database>, carried: boolean, also: boolean) {
  return reusablePart(db, (a: HandedOffArgs) => {
    const carriedCtes = carried ? sql`${a.carriedCtes}, ` : sql``;
    const carriedColumns = carried ? sql`, ${a.carriedColumns}` : sql``;
    const alsoCte = also ? sql`, also as (${a.also})` : sql``;
    const alsoColumns = also ? sql`(select id from also) as also_id, (select token_hash from also) as also_token_hash` : sql`null as also_id, null as also_token_hash`;
    return sql`with ${carriedCtes}gate as (${a.gate}),
      attempt as (
        insert into auth_attempts (id, project_id, session_id, user_id, state, factors, created_at, updated_at, expires_at, completed_at, handed_off_at)
        select ${a.id}::text, ${a.projectId}::text, ${a.sessionId}::text, ${a.userId}::text, 'handed_off', ${a.factors}::jsonb,
          ${a.createdAt}::timestamptz, ${a.updatedAt}::timestamptz, ${a.expiresAt}::timestamptz, ${a.completedAt}::timestamptz, ${a.handedOffAt}::timestamptz
        from (select 1 from gate limit 1) as opened
        returning id),
      handoff as (
        insert into handoff_tokens (token_hash, project_id, attempt_id, created_at, expires_at, consumed_at)
        select ${a.tokenHash}::text, ${a.tokenProjectId}::text, attempt.id, ${a.tokenCreatedAt}::timestamptz, ${a.tokenExpiresAt}::timestamptz, null from attempt
        returning attempt_id)${alsoCte}
      select (select count(*) from handoff)::int as minted, ${alsoColumns}${carriedColumns}`;
  });
}

/** The statements of this store that are compiled once; shared by every store `with` makes. */
interface AttemptStatements {
  /** By variant: 2 × carried + also. */
  handedOff: Array<ReturnType<typeof handedOffStatement>>;
}

/** SQL for auth attempts and handoff tokens; nothing else touches these tables. */
export class AttemptStore {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly statements: AttemptStatements = { handedOff: [] },
  ) {}

  with(db: Kysely<Database>): AttemptStore {
    return new AttemptStore(db, this.statements);
  }

  async insert(row: AttemptRow): Promise<void> {
    await this.db.insertInto('auth_attempts').values({ ...row, factors: jsonb(row.factors) }).execute();
  }

  async find(id: string): Promise<AttemptRow | undefined> {
    return this.db.selectFrom('auth_attempts').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** Changes a live pending attempt; undefined when it is not (any longer) pending and live. */
  async updatePending(projectId: string, id: string, now: Date, change: Pick<AttemptRow, 'user_id' | 'factors'>): Promise<AttemptRow | undefined> {
    return this.db
      .updateTable('auth_attempts')
      .set({ user_id: change.user_id, factors: jsonb(change.factors), updated_at: now })
      .where('id', '=', id)
      .where(valueEqualsAsFilter('project_id', projectId))
      .where('state', '=', 'pending')
      .where('expires_at', '>', now)
      .returningAll()
      .executeTakeFirst();
  }

  /** pending -> completed, only with a user and at least one factor. */
  async complete(projectId: string, id: string, now: Date): Promise<AttemptRow | undefined> {
    return this.db
      .updateTable('auth_attempts')
      .set({ state: 'completed', completed_at: now, updated_at: now })
      .where('id', '=', id)
      .where(valueEqualsAsFilter('project_id', projectId))
      .where('state', '=', 'pending')
      .where('expires_at', '>', now)
      .where('user_id', 'is not', null)
      .where((eb) => eb(eb.fn('jsonb_array_length', ['factors']), '>', 0))
      .returningAll()
      .executeTakeFirst();
  }

  /** completed -> handed_off in one statement: of concurrent callers exactly one gets the row. */
  async markHandedOff(projectId: string, id: string, now: Date): Promise<AttemptRow | undefined> {
    return this.db
      .updateTable('auth_attempts')
      .set({ state: 'handed_off', handed_off_at: now, updated_at: now })
      .where('id', '=', id)
      .where(valueEqualsAsFilter('project_id', projectId))
      .where('state', '=', 'completed')
      .where('expires_at', '>', now)
      .returningAll()
      .executeTakeFirst();
  }

  /**
   * pending or completed -> handed_off in one statement, with the guards of both steps (a user,
   * at least one factor, still live): of concurrent callers exactly one gets the row.
   */
  async completeAndMarkHandedOff(projectId: string, id: string, now: Date): Promise<AttemptRow | undefined> {
    return this.db
      .updateTable('auth_attempts')
      .set((eb) => ({ state: 'handed_off', completed_at: eb.fn.coalesce('completed_at', eb.val(now)), handed_off_at: now, updated_at: now }))
      .where('id', '=', id)
      .where(valueEqualsAsFilter('project_id', projectId))
      .where('state', 'in', ['pending', 'completed'])
      .where('expires_at', '>', now)
      .where('user_id', 'is not', null)
      .where((eb) => eb(eb.fn('jsonb_array_length', ['factors']), '>', 0))
      .returningAll()
      .executeTakeFirst();
  }

  async insertHandoff(row: HandoffRow): Promise<void> {
    await this.db.insertInto('handoff_tokens').values(row).execute();
  }

  /**
   * Writes a new attempt already handed off together with its handoff token, in one statement,
   * and only when `gate` (a data-modifying query of the caller's, e.g. the UPDATE that ends a
   * flow's run) returned a row: of concurrent callers behind one gate, one writes. `alsoWhen`
   * receives the condition "the attempt was written" for one more write of the caller's (the
   * target shell's extension), whose RETURNING `id, token_hash` comes back. `carried` puts another
   * domain's CTEs ahead of the gate (which may name them) and its columns into the answer (a
   * passkey's challenge consumption: `report`). `minted` is false when the gate returned nothing
   * and nothing of this domain was written.
   */
  async insertHandedOff(
    row: AttemptRow,
    handoff: HandoffRow,
    gate: SqlPart,
    alsoWhen?: (written: SqlPart<boolean>) => SqlPart,
    carried?: CarriedParts,
  ): Promise<{ minted: boolean; also_id: string | null; also_token_hash: string | null; report: Record<string, unknown> }> {
    const variant = (carried ? 2 : 0) + (alsoWhen ? 1 : 0);
    const statement = (this.statements.handedOff[variant] ??= handedOffStatement(this.db, carried !== undefined, alsoWhen !== undefined));
    const args: HandedOffArgs = {
      gate,
      id: row.id,
      projectId: row.project_id,
      sessionId: row.session_id,
      userId: row.user_id,
      factors: JSON.stringify(row.factors),
      createdAt: row.created_at,
      updatedAt: row.updated_at,
      expiresAt: row.expires_at,
      completedAt: row.completed_at,
      handedOffAt: row.handed_off_at,
      tokenHash: handoff.token_hash,
      tokenProjectId: handoff.project_id,
      tokenCreatedAt: handoff.created_at,
      tokenExpiresAt: handoff.expires_at,
      ...(alsoWhen ? { also: alsoWhen(ATTEMPT_WRITTEN) } : {}),
      ...(carried ? { carriedCtes: carried.ctes, carriedColumns: carried.columns } : {}),
    };
    const result = await this.db.executeQuery(compiledStatement<{ minted: number; also_id: string | null; also_token_hash: string | null }>(statement(args)));
    const { minted, also_id, also_token_hash, ...report } = result.rows[0]!;
    return { minted: minted > 0, also_id, also_token_hash, report };
  }

  /** The attempt behind a live, unused handoff token of the project (a read, not a consumption). */
  async peekHandoff(projectId: string, hash: string, now: Date): Promise<AttemptRow | undefined> {
    return this.db
      .selectFrom('handoff_tokens')
      .innerJoin('auth_attempts', 'auth_attempts.id', 'handoff_tokens.attempt_id')
      .selectAll('auth_attempts')
      .where('handoff_tokens.token_hash', '=', hash)
      .where('handoff_tokens.project_id', '=', projectId)
      .where('handoff_tokens.consumed_at', 'is', null)
      .where('handoff_tokens.expires_at', '>', now)
      .executeTakeFirst();
  }

  /**
   * The single-use gate: marks the token consumed and reads its attempt in one statement (one
   * round trip inside the exchange transaction). The data-modifying CTE takes the row lock, so of
   * concurrent callers exactly one gets the attempt back; unknown, used, expired and
   * other-project tokens get nothing.
   */
  async consumeHandoffAttempt(projectId: string, hash: string, now: Date): Promise<AttemptRow | undefined> {
    return this.db
      .with('consumed', () => this.consumeHandoffQuery(projectId, hash, now))
      .selectFrom('auth_attempts')
      .innerJoin('consumed', 'consumed.attempt_id', 'auth_attempts.id')
      .selectAll('auth_attempts')
      .executeTakeFirst();
  }

  /** The consuming UPDATE alone (returning `attempt_id`), the CTE of `consumeHandoffAttempt`. */
  consumeHandoffQuery(projectId: string, hash: string, now: Date) {
    return this.db
      .updateTable('handoff_tokens')
      .set({ consumed_at: now })
      .where('token_hash', '=', hash)
      .where('project_id', '=', projectId)
      .where('consumed_at', 'is', null)
      .where('expires_at', '>', now)
      .returning('attempt_id');
  }

  /**
   * The consuming UPDATE for an exchange that can be written in one statement: it consumes the
   * token only when its attempt names no session, or names one that `targetAccepted` (the
   * sessions domain's predicate over the attempt's `session_id` column) accepts; other tokens are
   * left for the locking path. Returns the attempt's project, user, factors (stored merged, see
   * AttemptService.factorOf) and target session. A plain data-modifying statement, so a caller
   * can make it the top-level CTE of its write.
   */
  consumeHandoffForSingleStatementQuery(projectId: string, hash: string, now: Date, targetAccepted: (sessionIdColumn: string) => RawBuilder<boolean>) {
    return this.db
      .updateTable('handoff_tokens')
      .from('auth_attempts')
      .set({ consumed_at: now })
      .whereRef('auth_attempts.id', '=', 'handoff_tokens.attempt_id')
      .where('handoff_tokens.token_hash', '=', hash)
      .where('handoff_tokens.project_id', '=', projectId)
      .where('handoff_tokens.consumed_at', 'is', null)
      .where('handoff_tokens.expires_at', '>', now)
      .where('auth_attempts.user_id', 'is not', null)
      .where((eb) => eb.or([eb('auth_attempts.session_id', 'is', null), targetAccepted('auth_attempts.session_id')]))
      .returning(['auth_attempts.project_id', 'auth_attempts.user_id', 'auth_attempts.factors', 'auth_attempts.session_id']);
  }

  /**
   * The consuming UPDATE of a batch of exchanges (`consumeHandoffForSingleStatementQuery` for
   * many tokens): `input` names a relation of the statement with columns `project_id`, `hash`
   * and `ordinal`, one row per exchange. Only tokens whose attempt names no session are consumed
   * (a batch never upgrades a shell; those exchanges run alone). A token named twice is consumed
   * once, for one of its ordinals: UPDATE ... FROM writes a target row once.
   */
  consumeHandoffsInBatchQuery(input: string, now: Date): RawBuilder<BatchConsumedRow> {
    const row = (column: string) => sql.ref(`${input}.${column}`);
    return sql`update handoff_tokens set consumed_at = ${now}::timestamptz
      from auth_attempts, ${sql.table(input)}
      where auth_attempts.id = handoff_tokens.attempt_id and handoff_tokens.token_hash = ${row('hash')} and handoff_tokens.project_id = ${row('project_id')}
        and handoff_tokens.consumed_at is null and handoff_tokens.expires_at > ${now}::timestamptz
        and auth_attempts.user_id is not null and auth_attempts.session_id is null
      returning auth_attempts.project_id, auth_attempts.user_id, auth_attempts.factors, ${row('ordinal')} as ordinal`;
  }

  async deleteExpiredHandoffs(before: Date): Promise<number> {
    const result = await this.db.deleteFrom('handoff_tokens').where('expires_at', '<', before).executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  /** Deletes attempts (and, by cascade, their handoff tokens) that expired before `before`. */
  /** Deletes a user's attempts (user deletion); their handoff tokens go by cascade. */
  async deleteForUser(projectId: string, userId: string): Promise<number> {
    const result = await this.db.deleteFrom('auth_attempts').where('project_id', '=', projectId).where('user_id', '=', userId).executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  async deleteExpired(before: Date): Promise<number> {
    const result = await this.db.deleteFrom('auth_attempts').where('expires_at', '<', before).executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
