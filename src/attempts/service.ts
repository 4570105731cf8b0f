import type { Compilable, Kysely, RawBuilder } from 'kysely';
import type { Clock } from '../core/clock.js';
import { randomSecret, sha256Hex } from '../core/crypto.js';
import { AppError, MESSAGES, notFoundError } from '../core/errors.js';
import { looksLikeId, type IdGenerator } from '../core/ids.js';
import type { Database } from '../db/schema.js';
import type { Idempotency } from '../sessions/idempotency.js';
import { mergeFactors, type Factor } from '../sessions/levels.js';
import type { SessionService } from '../sessions/service.js';
import type { AttemptRow, AttemptState, AttemptStore, BatchConsumedRow, HandoffRow } from './store.js';

/** An attempt lives 15 minutes; its handoff token 60 seconds (DESIGN §4.4). */
export const ATTEMPT_TTL_MS = 15 * 60 * 1000;
export const HANDOFF_TTL_MS = 60 * 1000;
export const HANDOFF_TOKEN_PREFIX = 'gh_ho_';
const MAX_TOKEN_LENGTH = 200;

export interface Attempt {
  id: string;
  project_id: string;
  session_id?: string;
  user_id?: string;
  state: AttemptState;
  factors: Factor[];
  created_at: string;
  expires_at: string;
}

export interface Handoff {
  auth_attempt_id: string;
  handoff_token: string;
  handoff_token_expires_at: string;
}

export interface VerifiedFactorInput {
  /** `password`, `passkey`, `otp`, `magic_link`, `sso`... */
  method: string;
  /** Defaults to the clock's now. */
  verified_at?: Date;
  /** Method-specific evidence (e.g. `{user_verified: true}` for a passkey); `user_id` is added. */
  payload?: Record<string, unknown>;
  /** The user the factor proves; required when the attempt has no user yet. */
  userId?: string;
}

export function toAttempt(row: AttemptRow): Attempt {
  return {
    id: row.id,
    project_id: row.project_id,
    ...(row.session_id !== null ? { session_id: row.session_id } : {}),
    ...(row.user_id !== null ? { user_id: row.user_id } : {}),
    state: row.state,
    factors: row.factors,
    created_at: row.created_at.toISOString(),
    expires_at: row.expires_at.toISOString(),
  };
}

/** A fresh handoff token for an attempt: the row to store (hashed) and the answer to give. */
export function newHandoff(projectId: string, attemptId: string, now: Date): { row: HandoffRow; handoff: Handoff } {
  const token = randomSecret(HANDOFF_TOKEN_PREFIX);
  const expiresAt = new Date(now.getTime() + HANDOFF_TTL_MS);
  return {
    row: { token_hash: sha256Hex(token), project_id: projectId, attempt_id: attemptId, created_at: now, expires_at: expiresAt, consumed_at: null },
    handoff: { auth_attempt_id: attemptId, handoff_token: token, handoff_token_expires_at: expiresAt.toISOString() },
  };
}

export function invalidState(message: string, row?: AttemptRow): AppError {
  return new AppError('att.invalid_state', message, row ? { state: row.state } : {});
}

/**
 * Auth attempts: what flows call while a user authenticates, without HTTP.
 * - `create(projectId, {sessionId?, userId?})`: a pending attempt; `sessionId` names the shell to
 *   upgrade or the active session to step up (must be a session of the project);
 * - `recordFactor(projectId, id, {method, verified_at?, payload?, userId?})`: adds a verified
 *   factor (newest per method wins); the first one may name the user;
 * - `complete(projectId, id)`: pending -> completed (needs a user and a factor); resets a target
 *   anonymous shell's TTL to the full session TTL;
 * - `handoff(projectId, id, {idempotencyKey?})`: completed -> handed_off, minting the 60-second
 *   single-use handoff token (409 `att.not_completed` / `att.already_handed_off`);
 * - `completeAndHandOff(projectId, id)`: both of the above in one transaction (flows);
 * - `get(projectId, id)`: a live attempt of the project, else 404 `att.not_found`.
 * Consumption of handoff tokens belongs to the exchange (`consumeHandoff`, inside its transaction).
 */
export class AttemptService {
  constructor(
    private readonly db: Kysely<Database>,
    readonly store: AttemptStore,
    private readonly sessions: SessionService,
    private readonly idempotency: Idempotency,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
  ) {}

  private async liveRow(projectId: string, id: string): Promise<AttemptRow> {
    const row = looksLikeId(id, 'att') ? await this.store.find(id) : undefined;
    if (!row || row.project_id !== projectId || row.expires_at.getTime() <= this.clock.now().getTime()) {
      throw new AppError('att.not_found', MESSAGES.attemptNotFound);
    }
    return row;
  }

  /**
   * A pending attempt. With `firstFactor` (which must name its user) the attempt is written with
   * that factor already recorded: one INSERT instead of an INSERT and a recordFactor.
   */
  async create(projectId: string, input: { sessionId?: string; userId?: string; firstFactor?: VerifiedFactorInput } = {}): Promise<Attempt> {
    if (input.sessionId !== undefined) {
      const target = looksLikeId(input.sessionId, 'sess') ? await this.sessions.store.find(input.sessionId) : undefined;
      if (!target || target.project_id !== projectId) throw notFoundError('sess.not_found');
    }
    const row = this.pendingRow(projectId, input);
    await this.store.insert(row);
    return toAttempt(row);
  }

  /** The row of a new pending attempt (not written); `create` and AttemptDrafts share it. */
  pendingRow(projectId: string, input: { sessionId?: string; userId?: string; firstFactor?: VerifiedFactorInput }): AttemptRow {
    const { firstFactor } = input;
    const userId = input.userId ?? firstFactor?.userId ?? null;
    if (firstFactor && (userId === null || (firstFactor.userId ?? userId) !== userId)) {
      throw invalidState('The first factor must name the attempt\'s user.');
    }
    const now = this.clock.now();
    return {
      id: this.ids.next('att'),
      project_id: projectId,
      session_id: input.sessionId ?? null,
      user_id: userId,
      state: 'pending',
      factors: firstFactor && userId !== null ? [this.factorOf(firstFactor, userId)] : [],
      created_at: now,
      updated_at: now,
      expires_at: new Date(now.getTime() + ATTEMPT_TTL_MS),
      completed_at: null,
      handed_off_at: null,
    };
  }

  factorOf(input: VerifiedFactorInput, userId: string): Factor {
    return {
      method: input.method,
      verified_at: (input.verified_at ?? this.clock.now()).toISOString(),
      payload: { ...input.payload, user_id: userId },
    };
  }

  /** The project of an attempt (admin callers name no project); undefined when unknown. */
  async projectOf(id: string): Promise<string | undefined> {
    return looksLikeId(id, 'att') ? (await this.store.find(id))?.project_id : undefined;
  }

  async get(projectId: string, id: string): Promise<Attempt> {
    return toAttempt(await this.liveRow(projectId, id));
  }

  async recordFactor(projectId: string, id: string, input: VerifiedFactorInput): Promise<Attempt> {
    const row = await this.liveRow(projectId, id);
    if (row.state !== 'pending') throw invalidState('Factors can only be recorded on a pending auth attempt.', row);
    const userId = row.user_id ?? input.userId;
    if (userId === undefined) throw invalidState('The auth attempt has no user; the first factor must name one.', row);
    if (input.userId !== undefined && input.userId !== userId) throw invalidState('The factor proves another user than the auth attempt.', row);
    const updated = await this.store.updatePending(projectId, id, this.clock.now(), {
      user_id: userId,
      factors: mergeFactors(row.factors, [this.factorOf(input, userId)]),
    });
    if (!updated) throw invalidState('The auth attempt changed concurrently.', row);
    return toAttempt(updated);
  }

  async complete(projectId: string, id: string): Promise<Attempt> {
    const row = await this.liveRow(projectId, id);
    if (row.state !== 'pending') throw invalidState('The auth attempt is not pending.', row);
    if (row.user_id === null || row.factors.length === 0) throw invalidState('The auth attempt has no verified factor.', row);
    const settings = row.session_id !== null ? await this.sessions.settingsFor(projectId) : undefined;
    const completed = await this.db.transaction().execute(async (trx) => {
      const updated = await this.store.with(trx).complete(projectId, id, this.clock.now());
      if (updated && settings && row.session_id !== null) await this.sessions.extendShell(trx, projectId, row.session_id, settings);
      return updated;
    });
    if (!completed) throw invalidState('The auth attempt changed concurrently.', row);
    return toAttempt(completed);
  }

  /**
   * Mints the handoff token of a completed attempt. With an `idempotencyKey` the same response
   * is replayed for 5 minutes; any other second call answers 409 `att.already_handed_off`.
   */
  async handoff(projectId: string, id: string, options: { idempotencyKey?: string } = {}): Promise<Handoff> {
    const key = options.idempotencyKey;
    const operation = `handoff:${id}`;
    if (key !== undefined) {
      const replayed = await this.idempotency.replay<Handoff>(undefined, projectId, operation, key, id);
      if (replayed) return replayed;
    }
    if (!looksLikeId(id, 'att')) throw new AppError('att.not_found', MESSAGES.attemptNotFound);
    return this.db.transaction().execute(async (trx) => {
      const store = this.store.with(trx);
      const now = this.clock.now();
      const updated = await store.markHandedOff(projectId, id, now);
      if (!updated) {
        const row = await store.find(id);
        if (!row || row.project_id !== projectId || row.expires_at.getTime() <= now.getTime()) {
          throw new AppError('att.not_found', MESSAGES.attemptNotFound);
        }
        if (row.state === 'pending') {
          throw new AppError('att.not_completed', 'The auth attempt is not completed; no handoff token can be created yet.', { state: row.state });
        }
        // A concurrent request with the same key may have committed while we waited for the row.
        if (key !== undefined) {
          const replayed = await this.idempotency.replay<Handoff>(trx, projectId, operation, key, id);
          if (replayed) return replayed;
        }
        throw new AppError('att.already_handed_off', MESSAGES.alreadyHandedOff, {});
      }
      const handoff = await this.mint(store, projectId, id, now);
      if (key !== undefined) await this.idempotency.remember(trx, projectId, operation, key, id, handoff);
      return handoff;
    });
  }

  /**
   * What a flow does when it reaches its complete step, in one transaction: a pending (or
   * completed) attempt with a user and a factor becomes handed_off, its target shell's TTL is
   * reset as `complete` would, and the handoff token is minted. Anything else (unknown, expired,
   * no factor, already handed off) takes the step-by-step path, which answers the precise error.
   * `alongside` runs in the same transaction (a flow consumes its live run there).
   */
  async completeAndHandOff(projectId: string, id: string, options: { alongside?: (trx: Kysely<Database>) => Promise<void> } = {}): Promise<Handoff> {
    // Read before the transaction (PGlite has one connection); cached, and needed only with a shell.
    const settings = await this.sessions.settingsFor(projectId);
    const handoff = await this.db.transaction().execute(async (trx) => {
      const store = this.store.with(trx);
      const now = this.clock.now();
      const handedOff = await store.completeAndMarkHandedOff(projectId, id, now);
      if (!handedOff) return undefined;
      // The caller's part of the same commit (a flow's completion); it may refuse, undoing all.
      await options.alongside?.(trx);
      if (handedOff.session_id !== null) await this.sessions.extendShell(trx, projectId, handedOff.session_id, settings);
      return this.mint(store, projectId, id, now);
    });
    if (handoff) return handoff;
    const row = looksLikeId(id, 'att') ? await this.store.find(id) : undefined;
    if (row?.state === 'pending') await this.complete(projectId, id);
    await options.alongside?.(this.db);
    return this.handoff(projectId, id);
  }

  private async mint(store: AttemptStore, projectId: string, attemptId: string, now: Date): Promise<Handoff> {
    const { row, handoff } = newHandoff(projectId, attemptId, now);
    await store.insertHandoff(row);
    return handoff;
  }

  /** What a handoff token is stored as; undefined for a token that cannot be one of ours. */
  handoffHash(token: string): string | undefined {
    if (!token.startsWith(HANDOFF_TOKEN_PREFIX) || token.length > MAX_TOKEN_LENGTH) return undefined;
    return sha256Hex(token);
  }

  /** The attempt behind a live, unused token (no consumption); used to prepare an exchange. */
  async peekHandoff(projectId: string, token: string): Promise<AttemptRow | undefined> {
    const hash = this.handoffHash(token);
    return hash ? this.store.peekHandoff(projectId, hash, this.clock.now()) : undefined;
  }

  /**
   * The statement that consumes a handoff token (by `handoffHash`) for a one-statement exchange
   * (see AttemptStore.consumeHandoffForSingleStatementQuery), returning the attempt's
   * `project_id`, `user_id`, `factors` and `session_id`. Its arguments are only handed to Kysely
   * as values, so the caller may compile it once (src/db/reusable.ts).
   */
  singleStatementHandoffConsumption(projectId: string, hash: string, now: Date, targetAccepted: (sessionIdColumn: string) => RawBuilder<boolean>): Compilable {
    return this.store.consumeHandoffForSingleStatementQuery(projectId, hash, now, targetAccepted);
  }

  /** `singleStatementHandoffConsumption` for a batch of exchanges (AttemptStore.consumeHandoffsInBatchQuery). */
  batchHandoffConsumption(input: string, now: Date): RawBuilder<BatchConsumedRow> {
    return this.store.consumeHandoffsInBatchQuery(input, now);
  }

  /**
   * Consumes a handoff token inside the caller's transaction and returns its attempt; undefined
   * for unknown, used, expired and other-project tokens alike.
   */
  async consumeHandoff(trx: Kysely<Database>, projectId: string, token: string): Promise<AttemptRow | undefined> {
    const hash = this.handoffHash(token);
    if (!hash) return undefined;
    return this.store.with(trx).consumeHandoffAttempt(projectId, hash, this.clock.now());
  }
}
