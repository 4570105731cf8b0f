import type { Kysely } from 'kysely';
import { ChangeCache } from '../cache/cache.js';
import type { ChangeFeed } from '../cache/feed.js';
import type { Clock } from '../core/clock.js';
import { digestsEqual, randomSecret, sha256Hex } from '../core/crypto.js';
import { AppError, notFoundError } from '../core/errors.js';
import { looksLikeId, type IdGenerator } from '../core/ids.js';
import type { Page, Paginator } from '../core/pagination.js';
import type { WriteGate } from '../db/gate.js';
import type { SqlPart } from '../db/reusable.js';
import type { Database } from '../db/schema.js';
import type { EventLog } from '../events/service.js';
import { self, SYSTEM, type Actor } from '../events/types.js';
import type { ProjectService } from '../projects/service.js';
import { listSessions, type ListRequest } from './service.list.js';
import { ANONYMOUS_TTL_MS, sessionSettingsFrom, type SessionSettings } from './settings.js';
import type { SessionRow, SessionStore, UserAgent } from './store.js';
import { toSession, type Session, type SessionListItem, type UserDirectory, type UserProfile } from './view.js';

export const SESSION_TOKEN_PREFIX = 'gh_st_';
const MAX_TOKEN_LENGTH = 200;
/** Worst-case age of a cached session row should a notification be lost unnoticed (docs/performance.md). */
export const SESSION_ROW_MAX_AGE_MS = 5_000;
const isRow = (row: SessionRow | undefined): boolean => row !== undefined;
/** Not expired at `now`: the one liveness rule of every token and id lookup here. */
const liveAt = (row: Pick<SessionRow, 'expires_at'>, now: Date): boolean => row.expires_at.getTime() > now.getTime();

/** The SHA-256 a session token is stored under; undefined for text that cannot be one, so garbage never reaches the database. */
function tokenHash(token: string): string | undefined {
  return token.startsWith(SESSION_TOKEN_PREFIX) && token.length <= MAX_TOKEN_LENGTH ? sha256Hex(token) : undefined;
}

/**
 * Runs inside the transaction that deletes a session (operator revoke, logout, sweeper), so
 * that tokens derived from it (OAuth access/refresh tokens...) die with it atomically.
 */
export type SessionDeletedHook = (trx: Kysely<Database>, session: SessionRow) => Promise<void>;

/** Why a signed-in session ended early, and who ended it (the `session.revoked` event). */
export interface Revocation {
  actor: Actor;
  reason: 'revoked' | 'logout' | 'user_deleted';
}

export interface NewSessionToken {
  token: string;
  hash: string;
}

export interface AnonymousSessionInput {
  /** Client fingerprint (free text from the frontend). */
  fingerprint?: string;
  /** Client IP as Fastify resolved it (trusted proxies honoured). */
  ip?: string;
  metadata?: Record<string, unknown>;
}

export interface IssuedSession {
  session: Session;
  /** The session token: shown once, stored only as a hash. */
  session_token: string;
}

/**
 * Sessions: anonymous shells, token authentication, operator reads and revocation.
 * The service API other domains call:
 * - `createAnonymous(projectId, {fingerprint, ip, metadata})` -> `{session, session_token}`
 *   (flows create the shell a flow works on);
 * - `findByToken(token)` -> the live session behind a session token, or undefined;
 * - `get(projectId | undefined, id)`, `isAlive(id)`, `delete(projectId | undefined, id)`;
 * - `onDeleted(hook)`: called in the delete transaction (OAuth revokes derived tokens there);
 * - `settingsFor(projectId)`: TTLs and freshness windows of a project.
 * Exchange (upgrade, step-up) lives in `service.exchange.ts`.
 */
export class SessionService {
  private users: UserDirectory = async () => undefined;
  private readonly deletedHooks: SessionDeletedHook[] = [];
  /**
   * What a session read needs besides its own row, cached per process and invalidated by the
   * change feed (docs/performance.md, "Caches"): a project's session settings and a user's
   * display profile. The session row itself is never cached, so revocation, logout and a
   * superseded token take effect on the next request in every process.
   */
  private readonly settingsCache?: ChangeCache<SessionSettings>;
  private readonly profileCache?: ChangeCache<{ projectId: string; profile: UserProfile | undefined }>;
  /**
   * Session rows by token hash (the session check) and by id (operator reads, derived-token
   * liveness). Every UPDATE and DELETE of a session row notifies both keys (migration 0055), and
   * this process's own writes drop them at once (`forgetRow`), so a revocation is refused by the
   * next request here and within the notification delay in other processes.
   */
  private readonly rowsByToken?: ChangeCache<SessionRow | undefined>;
  private readonly rowsById?: ChangeCache<SessionRow | undefined>;
  private readonly changes?: ChangeFeed;

  constructor(
    private readonly db: Kysely<Database>,
    readonly store: SessionStore,
    private readonly projects: ProjectService,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
    private readonly paginator: Paginator,
    private readonly events: EventLog,
    changes?: ChangeFeed,
  ) {
    if (changes) {
      this.changes = changes;
      this.settingsCache = new ChangeCache(changes, { kind: 'proj', max: 10_000 });
      this.profileCache = new ChangeCache(changes, { kind: 'usr', max: 50_000 });
      this.rowsByToken = new ChangeCache(changes, { kind: 'stk', max: 20_000, maxAgeMs: SESSION_ROW_MAX_AGE_MS });
      this.rowsById = new ChangeCache(changes, { kind: 'ses', max: 20_000, maxAgeMs: SESSION_ROW_MAX_AGE_MS });
    }
  }

  /** Connects the users domain (name, email, owner team of a session's user). */
  useUserDirectory(directory: UserDirectory): void {
    this.users = directory;
  }

  onDeleted(hook: SessionDeletedHook): void {
    this.deletedHooks.push(hook);
  }

  async settingsFor(projectId: string): Promise<SessionSettings> {
    const load = async () => Object.freeze(sessionSettingsFrom(await this.projects.settings(projectId)));
    return this.settingsCache ? this.settingsCache.get(projectId, load) : load();
  }

  async profileOf(projectId: string, userId: string | null): Promise<UserProfile | undefined> {
    if (userId === null) return undefined;
    if (!this.profileCache) return this.users(projectId, userId);
    const cached = await this.profileCache.get(
      userId,
      async () => ({ projectId, profile: await this.users(projectId, userId) }),
      // Unknown users are not remembered: nothing would announce their creation.
      (entry) => entry.profile !== undefined,
    );
    return cached.projectId === projectId ? cached.profile : this.users(projectId, userId);
  }

  /** Renders a row as the Session resource at the current time (levels computed now). */
  async render(row: SessionRow, settings?: SessionSettings): Promise<Session> {
    const resolved = settings ?? (await this.settingsFor(row.project_id));
    return toSession(row, resolved, this.clock.now(), await this.profileOf(row.project_id, row.user_id));
  }

  newToken(): NewSessionToken {
    const token = randomSecret(SESSION_TOKEN_PREFIX);
    return { token, hash: sha256Hex(token) };
  }

  /**
   * A new anonymous shell, as createAnonymous writes it. `alongside` (another domain's data-modifying
   * query, e.g. a flow's run) is written in the same statement, and under `gate` (a budget taken in
   * that statement) both are written only when it is taken; otherwise the gate's refusal is thrown.
   */
  async createAnonymous(projectId: string, input: AnonymousSessionInput = {}, alongside?: (sessionId: string) => SqlPart, gate?: WriteGate): Promise<IssuedSession> {
    const now = this.clock.now();
    const { token, hash } = this.newToken();
    const userAgent: UserAgent = {};
    if (input.fingerprint !== undefined) userAgent.fingerprint = input.fingerprint;
    if (input.ip !== undefined) userAgent.ip = input.ip;
    const row: SessionRow = {
      id: this.ids.next('sess'),
      project_id: projectId,
      state: 'building',
      user_id: null,
      lifecycle_owner_team_id: null,
      factors: [],
      metadata: input.metadata ?? {},
      user_agent: userAgent,
      token_hash: hash,
      created_at: now,
      updated_at: now,
      expires_at: new Date(now.getTime() + ANONYMOUS_TTL_MS),
    };
    await this.store.insert(row, alongside?.(row.id), gate);
    return { session: await this.render(row), session_token: token };
  }

  /**
   * The live (not expired, not deleted, not superseded) session row behind a token, or
   * undefined. Cheap syntactic checks first so garbage never reaches the database.
   */
  async rowForToken(token: string): Promise<SessionRow | undefined> {
    const row = await this.anyRowForToken(token);
    return row && liveAt(row, this.clock.now()) ? row : undefined;
  }

  async findByToken(token: string): Promise<Session | undefined> {
    const hash = tokenHash(token);
    if (hash === undefined) return undefined;
    const cached = this.renderedFromCache(hash);
    if (cached !== undefined) return cached;
    const row = await this.rowForHash(hash);
    return row && liveAt(row, this.clock.now()) ? this.renderUnlessProjectGone(row) : undefined;
  }

  /**
   * `render`, or undefined when the row's project is gone: a deleted project takes its sessions
   * by cascade, and until their notifications arrive a cached row can outlive it (its project's
   * own change drops the settings at once). Such a session does not exist: 401, not 404 `proj`.
   */
  private async renderUnlessProjectGone(row: SessionRow): Promise<Session | undefined> {
    try {
      return await this.render(row);
    } catch (error) {
      if (error instanceof AppError && error.code === 'proj.not_found') return undefined;
      throw error;
    }
  }

  /**
   * The live session behind a token hash when its row, its project's settings and its user's
   * profile are all cached: rendered without a promise or a load, the session check's common
   * case. Undefined on any miss (and for an expired row); `findByToken` then takes the loading path.
   */
  private renderedFromCache(hash: string): Session | undefined {
    const row = this.rowsByToken?.peek(hash)?.value;
    if (row === undefined || !digestsEqual(row.token_hash, hash)) return undefined;
    const now = this.clock.now();
    if (!liveAt(row, now)) return undefined;
    const settings = this.settingsCache?.peek(row.project_id)?.value;
    if (settings === undefined) return undefined;
    let profile: UserProfile | undefined;
    if (row.user_id !== null) {
      const known = this.profileCache?.peek(row.user_id)?.value;
      if (known === undefined || known.projectId !== row.project_id) return undefined;
      profile = known.profile;
    }
    return toSession(row, settings, now, profile);
  }

  /** A session by id; 404 `sess.not_found` when unknown or (with `projectId`) of another project. */
  async get(projectId: string | undefined, id: string): Promise<Session> {
    const row = looksLikeId(id, 'sess') ? await this.rowById(id) : undefined;
    if (!row || (projectId !== undefined && row.project_id !== projectId)) throw notFoundError('sess.not_found');
    const session = await this.renderUnlessProjectGone(row);
    if (!session) throw notFoundError('sess.not_found');
    return session;
  }

  /** Cheap liveness check for derived credentials: exists and not expired. */
  async isAlive(id: string): Promise<boolean> {
    const row = looksLikeId(id, 'sess') ? await this.rowById(id) : undefined;
    return row !== undefined && liveAt(row, this.clock.now());
  }

  /**
   * Deletes a session (idempotent: false when there was nothing to delete). With `projectId`,
   * another project's session is left alone and reported like an unknown one. A signed-in
   * session's end is the event `session.revoked`, in the same transaction.
   */
  async delete(projectId: string | undefined, id: string, revocation: Revocation = { actor: SYSTEM, reason: 'revoked' }): Promise<boolean> {
    if (!looksLikeId(id, 'sess')) return false;
    const deleted = await this.db.transaction().execute(async (trx) => {
      const row = await this.store.with(trx).delete(id, projectId);
      if (row) {
        await this.runDeletedHooks(trx, [row]);
        await this.recordRevoked(trx, [row], revocation);
      }
      return row;
    });
    if (deleted) this.forgetRow(deleted);
    return deleted !== undefined;
  }

  /**
   * Drops a session row this process has just changed from its caches, so its next request sees
   * the change; the row's notification follows for the other processes. Called after the commit:
   * a read that started earlier is not kept (ChangeCache drops its load), one that starts later reads the
   * committed row.
   */
  forgetRow(row: Pick<SessionRow, 'id' | 'token_hash'>): void {
    this.changes?.publishLocal(`ses:${row.id}`);
    this.changes?.publishLocal(`stk:${row.token_hash}`);
  }

  private rowById(id: string): Promise<SessionRow | undefined> {
    const load = () => this.store.find(id);
    return this.rowsById ? this.rowsById.get(id, load, isRow) : load();
  }

  /** The row behind a current token, expired or not. */
  private async anyRowForToken(token: string): Promise<SessionRow | undefined> {
    const hash = tokenHash(token);
    return hash === undefined ? undefined : this.rowForHash(hash);
  }

  private async rowForHash(hash: string): Promise<SessionRow | undefined> {
    const load = () => this.store.findByTokenHash(hash);
    const row = await (this.rowsByToken ? this.rowsByToken.get(hash, load, isRow) : load());
    return row && digestsEqual(row.token_hash, hash) ? row : undefined;
  }

  /** The project of the session behind a current token (expired or not), for CSRF origin checks. */
  async projectOfToken(token: string): Promise<string | undefined> {
    return (await this.anyRowForToken(token))?.project_id;
  }

  /** Logout: deletes the session behind the token, expired or not; false when the token is not current. */
  async deleteByToken(token: string): Promise<boolean> {
    const row = await this.anyRowForToken(token);
    return row ? this.delete(row.project_id, row.id, { actor: row.user_id ? self(row.user_id) : SYSTEM, reason: 'logout' }) : false;
  }

  /** `session.revoked` for each signed-in session of `rows` (an anonymous shell's end is no event). */
  async recordRevoked(trx: Kysely<Database>, rows: readonly SessionRow[], revocation: Revocation): Promise<void> {
    const signedIn = rows.filter((row) => row.user_id !== null);
    if (signedIn.length === 0) return;
    await this.events.recordAll(trx, signedIn.map((row) => ({ type: 'session.revoked' as const, projectId: row.project_id, actor: revocation.actor, subjectId: row.id, data: { user_id: row.user_id, reason: revocation.reason } })));
  }

  async runDeletedHooks(trx: Kysely<Database>, rows: SessionRow[]): Promise<void> {
    for (const row of rows) for (const hook of this.deletedHooks) await hook(trx, row);
  }

  /**
   * A completed attempt writing the first factor resets an anonymous shell's TTL to the full
   * session TTL (interface, States rule 1). No-op when the session is not a live shell.
   * `settings` are read by the caller before its transaction (one connection on PGlite).
   */
  async extendShell(trx: Kysely<Database>, projectId: string, sessionId: string, settings: SessionSettings): Promise<void> {
    const now = this.clock.now();
    const extended = await this.store.with(trx).extendShell(projectId, sessionId, now, new Date(now.getTime() + settings.ttl_seconds * 1000));
    // Dropped before the caller commits: a read in between may cache the shell's previous (still
    // future) expiry until the commit's notification arrives, which only shortens how long the
    // shell looks alive, never revives anything.
    if (extended) this.forgetRow(extended);
  }

  async list(projectId: string, request: ListRequest): Promise<Page<SessionListItem>> {
    return listSessions({ store: this.store, paginator: this.paginator, clock: this.clock }, await this.settingsFor(projectId), projectId, request);
  }
}
