import type { Kysely } from 'kysely';
import type { Config } from '../config.js';
import type { Clock } from '../core/clock.js';
import type { ChangeFeed } from '../cache/feed.js';
import type { IdGenerator } from '../core/ids.js';
import type { OutboundPolicy } from '../core/outbound-target.js';
import type { Paginator } from '../core/pagination.js';
import type { Database } from '../db/schema.js';
import type { EventLog } from '../events/service.js';
import { PasswordHasher } from '../passwords/hasher.js';
import { PasswordService } from '../passwords/service.js';
import { PasswordStore } from '../passwords/store.js';
import type { ProjectService } from '../projects/service.js';
import { SchemaCompiler, type SchemaKey } from '../schemas/keywords.js';
import { REMOTE_DEFAULTS, RemoteSchemaFetcher } from '../schemas/remote.js';
import { SchemaService } from '../schemas/service.js';
import { SchemaStore } from '../schemas/store.js';
import type { TeamService } from '../teams/service.js';
import { UserService } from './service.js';
import { UserStore } from './store.js';

export interface UserDomain {
  schemas: SchemaService;
  users: UserService;
  passwords: PasswordService;
}

/**
 * Wires schemas, users and passwords for the container, and makes every new project start with
 * the default user schema (stored inside the project-creation transaction).
 */
export function createUserDomain(deps: {
  db: Kysely<Database>;
  config: Config;
  /** the process's outbound policy, derived once by the composition root */
  outbound: OutboundPolicy;
  clock: Clock;
  ids: IdGenerator;
  paginator: Paginator;
  projects: ProjectService;
  teams: TeamService;
  /** the event log: users record their changes (src/events) */
  events: EventLog;
  /** the change feed: a user change this process commits reaches its own caches at once */
  changes?: ChangeFeed;
  hasher?: PasswordHasher;
  /** The `x-auth-methods` keys schemas may hold: the sign-in methods' (the container reads the method registry). */
  schemaKeys: readonly SchemaKey[];
}): UserDomain {
  const { db, config, clock, ids, paginator } = deps;
  const remote = new RemoteSchemaFetcher(config.schemaFetch ?? REMOTE_DEFAULTS, deps.outbound);
  const baseUrl = config.publicUrl;
  const schemas = new SchemaService(new SchemaStore(db), new SchemaCompiler(deps.schemaKeys), remote, clock, ids, paginator, baseUrl, deps.events);
  const users = new UserService(new UserStore(db), schemas, deps.teams, clock, ids, paginator, deps.events, deps.changes);
  const passwords = new PasswordService(new PasswordStore(db), users, deps.hasher ?? new PasswordHasher(), clock, ids);
  deps.projects.onCreated((trx, project) => schemas.seedDefault(trx, project.id));
  return { schemas, users, passwords };
}
