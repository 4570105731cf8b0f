import { sql, type CompiledQuery, type Expression, type Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { AttemptService } from '../attempts/service.js';
import type { Clock } from '../core/clock.js';
import type { IdGenerator } from '../core/ids.js';
import { NaturalBatcher } from '../db/batcher.js';
import { reusableStatement } from '../db/reusable.js';
import type { Database } from '../db/schema.js';
import type { EventInStatement, EventLog } from '../events/service.js';
import type { SessionService } from './service.js';
import type { BatchExchangedRow, ExchangeBatchValues, ExchangedRow } from './store.js';

/** The values of the one-statement exchange (`DirectExchanges.statementFor`). */
export interface ExchangeArgs {
  projectId: string;
  /** the handoff token's stored hash */
  hash: string;
  now: Date;
  /** the new session's id, token hash and expiry */
  id: string;
  tokenHash: string;
  expiresAt: Date;
  /** the ids of its events, `session.created` and `login.succeeded` (EventLog.newIds) */
  createdEventId: string;
  loginEventId: string;
}

/** What an exchange hands the direct path: its token's hash, and the new session's token hash and expiry. */
export type DirectExchange = Pick<ExchangeArgs, 'projectId' | 'hash' | 'now' | 'tokenHash' | 'expiresAt'>;

/** The values of a batch's statement (`DirectExchanges.batchStatementFor`). */
export type BatchArgs = ExchangeBatchValues & { now: Date };

/**
 * Exchange statements that run at the database at once; what arrives meanwhile waits and goes as
 * one batch (src/db/batcher.ts). Two keep one statement's latency under light load and leave the
 * pool to everything else; a batch of 64 is one round trip of a few kilobytes.
 */
const MAX_IN_FLIGHT = 2;
const MAX_BATCH = 64;

/** `methodsOf` in SQL, over a jsonb array of factors: each method once, in the order first seen. */
const methodsIn = (factors: string) =>
  sql<string[]>`(select coalesce(jsonb_agg(m.method order by m.first), '[]'::jsonb) from (select f.value->>'method' as method, min(f.ordinality) as first from jsonb_array_elements(${sql.ref(factors)}) with ordinality as f group by 1) m)`;

/**
 * `signInEvents` of a new session or an upgraded shell, for a statement that writes sessions: SQL
 * over the rows it wrote (`written`), which always name a user and the attempt's factors.
 */
function signInEventsInStatement(ids: { created: string | Expression<string>; login: string | Expression<string> }): EventInStatement[] {
  const session = sql.ref<string>('written.id');
  const user = sql.ref<string>('written.user_id');
  const methods = methodsIn('written.factors');
  const created: EventInStatement<'session.created'> = { type: 'session.created', id: ids.created, projectId: sql.ref('written.project_id'), actor: { kind: 'self', id: user }, subjectId: session, data: { user_id: user, methods } };
  const login: EventInStatement<'login.succeeded'> = { type: 'login.succeeded', id: ids.login, projectId: sql.ref('written.project_id'), actor: { kind: 'self', id: user }, subjectId: user, data: { session_id: session, methods, step_up: sql.lit(false) } };
  return [created, login];
}

/**
 * The exchanges that need no transaction: a new session, or the upgrade of the anonymous shell
 * the attempt names, written with the token's consumption and the events in one statement.
 * Under load, new-session exchanges go many to a statement: one commit and one plan for the
 * batch (docs/performance.md). A batch keeps what one statement per exchange guarantees:
 * - a token is consumed once, even when two exchanges of it share a batch (the other finds it used);
 * - an attempt that names a shell is left to a statement of its own (two on one shell in one
 *   batch could not both be decided as their own statements decide them);
 * - an exchange the batch did not write (unknown token, shell, user gone, duplicate) runs alone,
 *   and when the batch statement fails (it wrote nothing) every exchange of it runs alone, so no
 *   exchange fails for another's sake.
 */
export class DirectExchanges {
  private readonly batcher = new NaturalBatcher((items: readonly ExchangeArgs[]) => this.run(items), MAX_IN_FLIGHT, MAX_BATCH);

  constructor(
    db: Kysely<Database>,
    private readonly sessions: SessionService,
    private readonly attempts: AttemptService,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
    private readonly events: EventLog,
    private readonly logger?: Logger,
  ) {
    this.statementFor = reusableStatement(db, (a: ExchangeArgs) => {
      const store = this.sessions.store;
      const source = this.attempts.singleStatementHandoffConsumption(a.projectId, a.hash, a.now, store.liveShell(a.projectId, a.now));
      return store.exchangeStatement({ id: a.id, token_hash: a.tokenHash, created_at: a.now, expires_at: a.expiresAt }, source, (written) =>
        this.events.inStatement(written, signInEventsInStatement({ created: a.createdEventId, login: a.loginEventId }), a.now),
      );
    });
    this.batchStatementFor = reusableStatement(db, (a: BatchArgs) =>
      this.sessions.store.exchangeBatchStatement(a, a.now, (input) => this.attempts.batchHandoffConsumption(input, a.now), (written) =>
        this.events.inStatement(written, signInEventsInStatement({ created: sql.ref('written.created_event_id'), login: sql.ref('written.login_event_id') }), a.now),
      ),
    );
  }

  /**
   * The statements' SQL, built and compiled on first use; each run fills its values. Public for
   * the tests that pin their generic plans (sessions.exchange.plan.test.ts).
   */
  readonly statementFor: (args: ExchangeArgs) => CompiledQuery<ExchangedRow>;
  readonly batchStatementFor: (args: BatchArgs) => CompiledQuery<BatchExchangedRow>;

  /** The session written, or undefined when this path could not write it (the locking path decides). */
  exchange(exchange: DirectExchange): Promise<ExchangedRow | undefined> {
    const [createdEventId, loginEventId] = this.events.newIds(2, exchange.now);
    return this.batcher.submit({ ...exchange, id: this.ids.next('sess'), createdEventId, loginEventId });
  }

  /** One batcher run: alone as one statement, or many in the batch statement. Public for its tests. */
  async run(items: readonly ExchangeArgs[]): Promise<Array<PromiseSettledResult<ExchangedRow | undefined>>> {
    if (items.length === 1) return Promise.allSettled([this.alone(items[0])]);
    let written: BatchExchangedRow[];
    try {
      written = await this.inBatch(items);
    } catch (error) {
      // The batch wrote nothing: each exchange gets its own statement and its own answer. Said in
      // the log, by SQLSTATE only (a PostgreSQL message can repeat the row's values), because a
      // batch that always fails would otherwise only show as a slower exchange.
      this.logger?.warn({ sqlstate: (error as { code?: unknown }).code ?? null, exchanges: items.length }, 'exchange batch failed; its exchanges ran one statement each');
      return Promise.allSettled(items.map((item) => this.alone(item)));
    }
    const byOrdinal = new Map(written.map((row) => [row.ordinal, row]));
    return Promise.allSettled(
      items.map(async (item, index) => {
        const row = byOrdinal.get(index + 1);
        if (!row) return this.alone(item);
        const { ordinal: _ordinal, created_event_id: _created, login_event_id: _login, ...session } = row;
        return { ...session, superseded_token_hash: null };
      }),
    );
  }

  private async alone(item: ExchangeArgs): Promise<ExchangedRow | undefined> {
    return this.sessions.store.exchangeInOneStatement(this.statementFor(item));
  }

  private async inBatch(items: readonly ExchangeArgs[]): Promise<BatchExchangedRow[]> {
    const statement = this.batchStatementFor({
      projectIds: items.map((item) => item.projectId),
      hashes: items.map((item) => item.hash),
      ids: items.map((item) => item.id),
      tokenHashes: items.map((item) => item.tokenHash),
      expiresAt: items.map((item) => item.expiresAt.toISOString()),
      createdEventIds: items.map((item) => item.createdEventId),
      loginEventIds: items.map((item) => item.loginEventId),
      now: this.clock.now(),
    });
    return this.sessions.store.exchangeInBatch(statement);
  }
}
