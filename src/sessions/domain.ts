import type { Kysely } from 'kysely';
import type { ChangeFeed } from '../cache/feed.js';
import type { Logger } from 'pino';
import { AttemptService } from '../attempts/service.js';
import { AttemptStore } from '../attempts/store.js';
import type { Config } from '../config.js';
import type { Clock } from '../core/clock.js';
import type { IdGenerator } from '../core/ids.js';
import type { KeyRing } from '../core/keys.js';
import type { Paginator } from '../core/pagination.js';
import type { Database } from '../db/schema.js';
import type { EventLog } from '../events/service.js';
import type { ProjectService } from '../projects/service.js';
import type { UserService } from '../users/service.js';
import { Idempotency } from './idempotency.js';
import { ExchangeService } from './service.exchange.js';
import { SessionService } from './service.js';
import { IdempotencyStore, SessionStore } from './store.js';
import { Sweeper } from './sweeper.js';

export interface SessionDomain {
  sessions: SessionService;
  attempts: AttemptService;
  exchange: ExchangeService;
  sweeper: Sweeper;
}

/** Wires sessions, auth attempts, exchange and the sweeper for the container. */
export function createSessionDomain(deps: {
  db: Kysely<Database>;
  config: Config;
  clock: Clock;
  ids: IdGenerator;
  keys: KeyRing;
  paginator: Paginator;
  projects: ProjectService;
  users: UserService;
  /** the event log: sessions record their start and end (src/events) */
  events: EventLog;
  logger?: Logger;
  /** Row-change notifications; without it nothing is cached. */
  changes?: ChangeFeed;
}): SessionDomain {
  const { db, clock, ids, users } = deps;
  const idempotencyStore = new IdempotencyStore(db);
  const idempotency = new Idempotency(idempotencyStore, deps.keys, clock);
  const sessions = new SessionService(db, new SessionStore(db), deps.projects, clock, ids, deps.paginator, deps.events, deps.changes);
  sessions.useUserDirectory(async (projectId, userId) => {
    const user = await users.find(projectId, userId);
    if (!user) return undefined;
    const profile = await users.profile(user);
    return { ...profile, lifecycle_owner_team_id: user.metadata.lifecycle_owner_team_id };
  });
  const attemptStore = new AttemptStore(db);
  const attempts = new AttemptService(db, attemptStore, sessions, idempotency, clock, ids);
  const exchange = new ExchangeService(db, sessions, attempts, idempotency, clock, ids, deps.events, deps.logger);
  // Deleting a user (erasure) takes its sessions, with everything derived from them (the deleted
  // hooks: OAuth tokens, flow events), and its pending attempts and handoff tokens along.
  users.onDeleted(async (trx, user, actor) => {
    const rows = await new SessionStore(trx).deleteByUser(user.projectId, user.id);
    await sessions.runDeletedHooks(trx, rows);
    await sessions.recordRevoked(trx, rows, { actor, reason: 'user_deleted' });
    await new AttemptStore(trx).deleteForUser(user.projectId, user.id);
    // The commit's notifications drop the rows in the other processes; this one forgets them once committed.
    return () => {
      for (const row of rows) sessions.forgetRow(row);
    };
  });
  const sweeper = new Sweeper(db, sessions, attemptStore, idempotencyStore, clock, deps.config.retentionMs, deps.logger, deps.events);
  return { sessions, attempts, exchange, sweeper };
}
