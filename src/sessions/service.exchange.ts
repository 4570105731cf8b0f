import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { AttemptService } from '../attempts/service.js';
import type { AttemptRow } from '../attempts/store.js';
import type { Clock } from '../core/clock.js';
import { sha256Hex } from '../core/crypto.js';
import { AppError, MESSAGES } from '../core/errors.js';
import type { IdGenerator } from '../core/ids.js';
import type { Database } from '../db/schema.js';
import type { EventLog } from '../events/service.js';
import { self, type NewEvent } from '../events/types.js';
import type { Idempotency } from './idempotency.js';
import { DirectExchanges } from './service.exchange.direct.js';
import { mergeFactors, type Factor } from './levels.js';
import type { IssuedSession, SessionService } from './service.js';
import { resolveTtlSeconds, type SessionSettings } from './settings.js';
import type { SessionRow } from './store.js';
import { toSession, type UserProfile } from './view.js';

/**
 * Whether exchanging an attempt of `userId` steps `target` up: an active, unexpired session of
 * the same project and user keeps its factors and gains the attempt's (anything else starts from
 * the attempt's alone). The exchange writes by it; `handoff-levels.ts` predicts by it.
 */
export function stepsUp(target: SessionRow | undefined, projectId: string, userId: string, now: Date): target is SessionRow {
  return target !== undefined && target.project_id === projectId && target.state === 'active' && target.user_id === userId && target.expires_at.getTime() > now.getTime();
}

export interface ExchangeInput {
  handoffToken: string;
  /** ISO 8601 duration; at most the project's max TTL. Default: the project's session TTL. */
  ttl?: string;
  idempotencyKey?: string;
}

export interface ExchangeResult extends IssuedSession {
  /** Cookie lifetime of the issued token. */
  expiresAt: Date;
}

const OPERATION = 'exchange';

/** An exchange's Idempotency-Key and the fingerprint of what it was sent with. */
interface Idempotent {
  key: string;
  request: string;
}

function notFound(): AppError {
  return new AppError('att.not_found', MESSAGES.attemptNotFound);
}

const methodsOf = (factors: readonly Factor[]): string[] => [...new Set(factors.map((factor) => factor.method))];

/**
 * What an exchange tells the event log: `login.succeeded` always, and `session.created` when a
 * session became signed in (a new one, or an anonymous shell upgraded; a step-up is no new session).
 */
function signInEvents(session: Pick<SessionRow, 'id' | 'project_id' | 'factors'> & { user_id: string }, proven: readonly Factor[], stepUp: boolean): NewEvent[] {
  const actor = self(session.user_id);
  const login: NewEvent<'login.succeeded'> = { type: 'login.succeeded', projectId: session.project_id, actor, subjectId: session.user_id, data: { session_id: session.id, methods: methodsOf(proven), step_up: stepUp } };
  if (stepUp) return [login];
  const created: NewEvent<'session.created'> = { type: 'session.created', projectId: session.project_id, actor, subjectId: session.id, data: { user_id: session.user_id, methods: methodsOf(session.factors) } };
  return [created, login];
}

/**
 * POST /sessions/exchange: a handoff token becomes a session (States table):
 * - the attempt names no live session it may use -> a new active session;
 * - it names a live anonymous shell -> user and factors written in, TTL reset, state active;
 * - it names a live active session of the same user -> step-up: factors merged (newest per
 *   method wins), expiry kept unless `ttl` is given.
 * An attempt whose target session is gone, expired or belongs to another user yields a new
 * session rather than touching someone else's. In every case a new token supersedes the old one.
 *
 * The token is consumed by the statement that writes the session: without Idempotency-Key a new
 * session or a shell's upgrade is that one statement (`inOneStatement`; under load many new
 * sessions share one, see DirectExchanges); step-ups and idempotent
 * requests consume it inside the transaction that writes the session. Of N concurrent exchanges
 * exactly one succeeds, and a failure half-way consumes nothing.
 */
export class ExchangeService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly sessions: SessionService,
    private readonly attempts: AttemptService,
    private readonly idempotency: Idempotency,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
    private readonly events: EventLog,
    logger?: Logger,
  ) {
    this.direct = new DirectExchanges(db, sessions, attempts, clock, ids, events, logger);
  }

  /** New sessions and shell upgrades in one statement each, or many to a statement under load. */
  readonly direct: DirectExchanges;

  async exchange(projectId: string, input: ExchangeInput): Promise<ExchangeResult> {
    const settings = await this.sessions.settingsFor(projectId);
    // A bad ttl is refused before the token is touched, so the client can retry with a good one.
    const ttlSeconds = resolveTtlSeconds(input.ttl, settings);
    // What an Idempotency-Key's record answers for: only then is the request fingerprinted.
    const idempotent = input.idempotencyKey === undefined ? undefined : { key: input.idempotencyKey, request: JSON.stringify([sha256Hex(input.handoffToken), input.ttl ?? null]) };
    if (idempotent) {
      const replayed = await this.replay(undefined, projectId, idempotent);
      if (replayed) return replayed;
    } else {
      // The common cases (a new session, a shell's upgrade; no idempotency record to keep) are one statement.
      const issued = await this.inOneStatement(projectId, input.handoffToken, ttlSeconds, settings);
      if (issued) return issued;
    }
    // The user's profile is read before the transaction (PGlite has one connection).
    const peeked = await this.attempts.peekHandoff(projectId, input.handoffToken);
    if (!peeked || peeked.user_id === null) return this.replayOrNotFound(undefined, projectId, idempotent);
    const profile = await this.sessions.profileOf(projectId, peeked.user_id);
    // A user deleted since the attempt voids it: no session for a user who no longer exists.
    if (!profile) throw notFound();

    let superseded: SessionRow | undefined;
    const result = await this.db.transaction().execute(async (trx) => {
      const attempt = await this.attempts.consumeHandoff(trx, projectId, input.handoffToken);
      if (!attempt || attempt.user_id === null) return this.replayOrNotFound(trx, projectId, idempotent);
      const row = await this.writeSession(trx, attempt, attempt.user_id, profile, ttlSeconds, input.ttl !== undefined);
      superseded = row.superseded;
      await this.events.recordAll(trx, signInEvents({ ...row.session, user_id: attempt.user_id }, attempt.factors, row.stepUp));
      const result = { session: toSession(row.session, settings, this.clock.now(), profile), session_token: row.token, expiresAt: row.session.expires_at };
      if (idempotent) await this.idempotency.remember(trx, projectId, OPERATION, idempotent.key, idempotent.request, result);
      return result;
    });
    // The old token of an upgraded or stepped-up session stops working here at once.
    if (superseded) this.sessions.forgetRow(superseded);
    return result;
  }

  /**
   * An exchange in one statement (SessionStore.exchangeInOneStatement): a new session, or the
   * upgrade of the anonymous shell the attempt names. Undefined when that did not happen: an
   * unknown, used or expired token, an attempt whose session is not a live shell (step-up, gone,
   * expired: the locking path decides), a user that is gone.
   */
  private async inOneStatement(projectId: string, handoffToken: string, ttlSeconds: number, settings: SessionSettings): Promise<ExchangeResult | undefined> {
    const hash = this.attempts.handoffHash(handoffToken);
    if (!hash) return undefined;
    const now = this.clock.now();
    const { token, hash: tokenHash } = this.sessions.newToken();
    const expiresAt = new Date(now.getTime() + ttlSeconds * 1000);
    // The session and its events (with their webhook deliveries) are one statement: they commit together.
    const written = await this.direct.exchange({ projectId, hash, now, tokenHash, expiresAt });
    if (!written) return undefined;
    const { superseded_token_hash: superseded, ...row } = written;
    // The shell's old token stops working here at once (the trigger tells the other processes).
    if (superseded !== null) this.sessions.forgetRow({ id: row.id, token_hash: superseded });
    const profile = await this.sessions.profileOf(projectId, row.user_id);
    return { session: toSession(row, settings, now, profile), session_token: token, expiresAt: row.expires_at };
  }

  private async replayOrNotFound(trx: Kysely<Database> | undefined, projectId: string, idempotent: Idempotent | undefined): Promise<ExchangeResult> {
    const replayed = idempotent ? await this.replay(trx, projectId, idempotent) : undefined;
    if (replayed) return replayed;
    throw notFound();
  }

  /** The result an earlier request with the same Idempotency-Key stored, if any. */
  private async replay(trx: Kysely<Database> | undefined, projectId: string, { key, request }: Idempotent): Promise<ExchangeResult | undefined> {
    const replayed = await this.idempotency.replay<ExchangeResult & { expiresAt: string }>(trx, projectId, OPERATION, key, request);
    return replayed ? { ...replayed, expiresAt: new Date(replayed.expiresAt) } : undefined;
  }

  private async writeSession(
    trx: Kysely<Database>,
    attempt: AttemptRow,
    userId: string,
    profile: UserProfile | undefined,
    ttlSeconds: number,
    ttlGiven: boolean,
  ): Promise<{ session: SessionRow; token: string; superseded?: SessionRow; stepUp: boolean }> {
    const store = this.sessions.store.with(trx);
    const now = this.clock.now();
    const fullExpiry = new Date(now.getTime() + ttlSeconds * 1000);
    const { token, hash } = this.sessions.newToken();
    const teamId = profile?.lifecycle_owner_team_id ?? null;
    const target = attempt.session_id !== null ? await store.findForUpdate(attempt.session_id) : undefined;
    const usable =
      target !== undefined &&
      target.project_id === attempt.project_id &&
      target.expires_at.getTime() > now.getTime() &&
      (target.state === 'building' || target.user_id === userId);
    if (target && usable) {
      const stepUp = stepsUp(target, attempt.project_id, userId, now);
      const updated = await store.authenticate(target.id, {
        user_id: userId,
        lifecycle_owner_team_id: teamId ?? target.lifecycle_owner_team_id,
        factors: mergeFactors(stepUp ? target.factors : [], attempt.factors),
        token_hash: hash,
        expires_at: stepUp && !ttlGiven ? target.expires_at : fullExpiry,
        updated_at: now,
      });
      if (!updated) throw notFound();
      return { session: updated, token, superseded: target, stepUp };
    }
    const row = this.newSessionRow(attempt, userId, teamId, hash, now, fullExpiry);
    await store.insert(row);
    return { session: row, token, stepUp: false };
  }

  private newSessionRow(attempt: AttemptRow, userId: string, teamId: string | null, tokenHash: string, now: Date, expiresAt: Date): SessionRow {
    return {
      id: this.ids.next('sess'),
      project_id: attempt.project_id,
      state: 'active',
      user_id: userId,
      lifecycle_owner_team_id: teamId,
      factors: mergeFactors([], attempt.factors),
      metadata: {},
      user_agent: {},
      token_hash: tokenHash,
      created_at: now,
      updated_at: now,
      expires_at: expiresAt,
    };
  }
}

