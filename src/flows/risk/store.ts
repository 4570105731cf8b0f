import { sql, type Kysely, type RawBuilder, type SqlBool } from 'kysely';
import { insertWhen } from '../../db/gate.js';
import type { Database } from '../../db/schema.js';
import type { RiskTables } from '../../db/tables/flows.js';
import { reusableStatement, type SqlPart } from '../../db/reusable.js';
import { jsonb } from '../../db/sql.js';

export interface SignalsInput {
  projectId: string;
  ip: string;
  windowStart: Date;
  accountKey?: string;
  userId?: string;
  sessionId: string;
}

/** Everything the risk rules read about one submit, as stored when it was read. */
export interface RiskSignalRow {
  ip_failures: number | null;
  account_failures: number | null;
  locked_until: Date | null;
  /** payload of the session's latest fingerprint event */
  fingerprint_event: Record<string, unknown> | null;
  /** fingerprint hashes known for the user (empty without a user) */
  known: string[];
}

/** What `takeAttempt` needs of the project's lock-out rules. */
export interface AttemptRules {
  lockAfter: number;
  lockSeconds: number;
  lockMaxSeconds: number;
  disableAfter: number;
  firstLockUntil: Date | null;
}

/**
 * The statements every password step runs, compiled once (src/db/reusable.ts): building them
 * with Kysely on each step cost more CPU than running them. The keys go as one array, so the
 * text is the same for any number of them.
 */
function riskStatements(db: Kysely<Database>) {
  return {
    takeAttempt: reusableStatement(db, (a: AttemptRules & { projectId: string; accountKey: string; now: Date }) => {
      const lockUntil = sql<Date>`${a.now}::timestamptz + make_interval(secs => least(${a.lockMaxSeconds}::float8, ${a.lockSeconds}::float8 * power(2, login_failures.failures - ${a.lockAfter}::int)))`;
      return db
        .insertInto('login_failures')
        .values({ project_id: a.projectId, account_key: a.accountKey, failures: sql.lit(1), locked_until: a.firstLockUntil, updated_at: a.now })
        .onConflict((oc) =>
          oc
            .columns(['project_id', 'account_key'])
            .doUpdateSet({
              failures: sql`login_failures.failures + 1`,
              locked_until: sql`case when login_failures.failures + 1 > ${a.lockAfter}::int then ${lockUntil} else login_failures.locked_until end`,
              updated_at: a.now,
            })
            .where((eb) => eb.and([eb.or([eb('login_failures.locked_until', 'is', null), eb('login_failures.locked_until', '<=', a.now)]), eb('login_failures.failures', '<', a.disableAfter)])),
        )
        .returning(['failures', 'locked_until']);
    }),
    clearAccounts: reusableStatement(db, (a: { projectId: string; accountKeys: string[] }) =>
      db
        .deleteFrom('login_failures')
        .where('project_id', '=', a.projectId)
        .where(sql<boolean>`account_key = any(${a.accountKeys}::text[])`),
    ),
    insertEvent: insertWhen(db, 'flow_events', { json: ['payload'] }),
  };
}

export class RiskStore {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly statements = riskStatements(db),
  ) {}

  with(db: Kysely<Database>): RiskStore {
    return new RiskStore(db, this.statements);
  }

  /**
   * The failure counters of an IP and an account, the session's latest fingerprint and the
   * user's known fingerprints in one statement (a request used to read them one by one, some
   * of them three times). A missing account or user matches nothing (`= null`).
   */
  async signals(input: SignalsInput): Promise<RiskSignalRow> {
    const { rows } = await this.signalsQuery(input).execute(this.db);
    return rows[0];
  }

  /** The statement `signals` runs, for another domain's read to carry along (one round trip for both). */
  signalsQuery(input: SignalsInput): RawBuilder<RiskSignalRow> {
    const { projectId, ip, windowStart, sessionId } = input;
    const accountKey = input.accountKey ?? null;
    const userId = input.userId ?? null;
    return sql<RiskSignalRow>`select
      (select count from ip_failures where project_id = ${projectId} and ip = ${ip} and window_start = ${windowStart}) as ip_failures,
      account.failures as account_failures,
      account.locked_until,
      (select payload from flow_events where session_id = ${sessionId} and type = 'fingerprint' order by created_at desc, id desc limit 1) as fingerprint_event,
      (select coalesce(jsonb_agg(fingerprint_hash), '[]'::jsonb) from known_fingerprints where project_id = ${projectId} and user_id = ${userId}) as known
      from (select 1) as one
      left join login_failures as account on account.project_id = ${projectId} and account.account_key = ${accountKey}`;
  }

  async accountState(projectId: string, accountKey: string): Promise<{ failures: number; locked_until: Date | null } | undefined> {
    return this.db
      .selectFrom('login_failures')
      .select(['failures', 'locked_until'])
      .where('project_id', '=', projectId)
      .where('account_key', '=', accountKey)
      .executeTakeFirst();
  }

  /**
   * Adds one failure to the IP's window and one to the account, atomically each, in one
   * statement (the IP's as a data-modifying CTE); returns the account's new count.
   */
  async addFailures(projectId: string, ip: string, windowStart: Date, accountKey: string, now: Date): Promise<number> {
    const row = await this.db
      .with('ip', (db) =>
        db
          .insertInto('ip_failures')
          .values({ project_id: projectId, ip, window_start: windowStart, count: 1 })
          .onConflict((oc) => oc.columns(['project_id', 'ip', 'window_start']).doUpdateSet({ count: sql`ip_failures.count + 1` }))
          .returning('count'),
      )
      .insertInto('login_failures')
      .values({ project_id: projectId, account_key: accountKey, failures: 1, locked_until: null, updated_at: now })
      .onConflict((oc) => oc.columns(['project_id', 'account_key']).doUpdateSet({ failures: sql`login_failures.failures + 1`, updated_at: now }))
      .returning('failures')
      .executeTakeFirstOrThrow();
    return row.failures;
  }

  /**
   * Takes one password guess for an account before it is compared (DESIGN §4.6a), in one
   * statement: the failure count goes up where the account is neither locked nor disabled, and
   * the lock the new count earns is set in the same write. Returns the new count and lock, or
   * undefined when the account is locked or disabled (the guess was not taken). Concurrent guesses
   * serialise on the row, so at most `lockAfter + 1` of any burst are taken.
   */
  async takeAttempt(projectId: string, accountKey: string, now: Date, rules: AttemptRules): Promise<{ failures: number; locked_until: Date | null } | undefined> {
    return (await this.db.executeQuery(this.statements.takeAttempt({ projectId, accountKey, now, ...rules }))).rows[0];
  }

  async lockAccount(projectId: string, accountKey: string, until: Date): Promise<void> {
    await this.db
      .updateTable('login_failures')
      .set({ locked_until: sql`greatest(coalesce(locked_until, ${until}), ${until})` })
      .where('project_id', '=', projectId)
      .where('account_key', '=', accountKey)
      .execute();
  }

  /** Forgets the failures (and with them any lock) of these accounts. */
  async clearAccounts(projectId: string, accountKeys: string[]): Promise<void> {
    if (accountKeys.length === 0) return;
    await this.db.executeQuery(this.statements.clearAccounts({ projectId, accountKeys }));
  }

  async addIpFailure(projectId: string, ip: string, windowStart: Date): Promise<number> {
    const row = await this.db
      .insertInto('ip_failures')
      .values({ project_id: projectId, ip, window_start: windowStart, count: 1 })
      .onConflict((oc) => oc.columns(['project_id', 'ip', 'window_start']).doUpdateSet({ count: sql`ip_failures.count + 1` }))
      .returning('count')
      .executeTakeFirstOrThrow();
    return row.count;
  }

  async insertEvent(row: RiskTables['flow_events']): Promise<void> {
    await this.db.insertInto('flow_events').values({ ...row, payload: row.payload === null ? null : jsonb(row.payload) }).execute();
  }

  /** The INSERT of `insertEvent`, written only where `when` holds (a budget its statement takes, `WriteGate`). */
  insertEventQuery(row: RiskTables['flow_events'], when: SqlPart<SqlBool>): SqlPart {
    return this.statements.insertEvent({ ...row, payload: row.payload === null ? null : JSON.stringify(row.payload) }, when);
  }

  /** What the risk rules remember of a user (known fingerprints); erased with the user. */
  async deleteUserSignals(projectId: string, userId: string): Promise<void> {
    await this.db.deleteFrom('known_fingerprints').where('project_id', '=', projectId).where('user_id', '=', userId).execute();
  }

  async deleteSessionEvents(sessionId: string): Promise<void> {
    await this.db.deleteFrom('flow_events').where('session_id', '=', sessionId).execute();
  }

  async latestFingerprint(sessionId: string): Promise<string | undefined> {
    const row = await this.db
      .selectFrom('flow_events')
      .select('payload')
      .where('session_id', '=', sessionId)
      .where('type', '=', 'fingerprint')
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst();
    const value = row?.payload?.fingerprint;
    return typeof value === 'string' ? value : undefined;
  }

  async rememberFingerprint(projectId: string, userId: string, hash: string, now: Date): Promise<void> {
    await this.db
      .insertInto('known_fingerprints')
      .values({ project_id: projectId, user_id: userId, fingerprint_hash: hash, first_seen: now, last_seen: now })
      .onConflict((oc) => oc.columns(['project_id', 'user_id', 'fingerprint_hash']).doUpdateSet({ last_seen: now }))
      .execute();
  }
}
