import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import { createLogger } from './http/log-redaction.js';
import { ChangeCache } from './cache/cache.js';
import { ChangeFeed } from './cache/feed.js';
import type { Config } from './config.js';
import { systemClock, type Clock } from './core/clock.js';
import { Credentials } from './core/credentials.js';
import { randomIds, type IdGenerator } from './core/ids.js';
import { KeyRing } from './core/keys.js';
import { outboundPolicy } from './core/outbound-target.js';
import { Paginator } from './core/pagination.js';
import { PREVIEW_SCOPES } from './core/scopes.js';
import type { Engine } from './db/engine.js';
import type { Database } from './db/schema.js';
import { EMBEDDED_VACUUM_INTERVAL_MS, EmbeddedVacuum } from './db/vacuum.js';
import { EventLog } from './events/service.js';
import { EventStore } from './events/store.js';
import { createWebhooks, type Webhooks } from './webhooks/module.js';
import { createOAuthPlane, type OAuthPlane } from './oauth/plane.js';
import { ProjectService } from './projects/service.js';
import { ProjectStore } from './projects/store.js';
import { ServiceKeyService } from './service-keys/service.js';
import { ServiceKeyStore } from './service-keys/store.js';
import { TeamService } from './teams/service.js';
import { TeamStore } from './teams/store.js';
import type { PasswordService } from './passwords/service.js';
import type { SchemaService } from './schemas/service.js';
import { createUserDomain } from './users/domain.js';
import type { UserService } from './users/service.js';
import { createSessionDomain } from './sessions/domain.js';
import type { SessionService } from './sessions/service.js';
import type { AttemptService } from './attempts/service.js';
import { SealedBox } from './core/sealed-box.js';
import { SsoProviderService } from './sso/service.js';
import { SsoProviderStore } from './sso/store.js';
import { SAML_SP_KEY_PURPOSE, SamlProviderService } from './saml/service.js';
import type { ExchangeService } from './sessions/service.exchange.js';
import type { Sweeper } from './sessions/sweeper.js';
import { createFlowEngine, type FlowEngine } from './flows/module.js';
import { schemaKeys } from './flows/methods/registry.js';
import { FlowSettingsService } from './flows/settings/service.js';
import { PasskeyService } from './passkeys/service.js';
import { PasskeyStore } from './passkeys/store.js';
import { RecoveryCodeService } from './mfa/recovery-codes.js';
import { MfaStore } from './mfa/store.js';
import { TotpService } from './mfa/totp.js';
import { CredentialService } from './credentials/service.js';
import { CredentialListStore } from './credentials/store.js';
import { ConsoleAccess } from './operators/console-access.js';
import { OperatorService } from './operators/service.js';
import { OperatorStore } from './operators/store.js';

/** The composition root: db -> stores -> services; routes receive this and nothing else. */
export interface Container {
  config: Config;
  logger: Logger;
  clock: Clock;
  ids: IdGenerator;
  engine: Engine;
  db: Kysely<Database>;
  keys: KeyRing;
  paginator: Paginator;
  credentials: Credentials;
  /** The event log (src/events): `record(trx, event)` in each change's transaction, GET /events, retention. */
  events: EventLog;
  /** Webhook endpoints, the fan-out into their outbox, and this node's delivery worker (src/webhooks). */
  webhooks: Webhooks;
  projects: ProjectService;
  teams: TeamService;
  serviceKeys: ServiceKeyService;
  /** User schema revisions: resolve(projectId, idOrUrl), defaultFor(projectId), validatorFor(revision). */
  schemas: SchemaService;
  /** Users: create, get, findByIdentifier (login), claims, profile. */
  users: UserService;
  /** Passwords: setPassword (policy + argon2id), verify (rehashes), dummyVerify (timing). */
  passwords: PasswordService;
  /** Passkeys (WebAuthn): ceremony options, verification, storage, single-use challenges (src/passkeys/service.ts). */
  passkeys: PasskeyService;
  /** GET/DELETE /users/{id}/credentials: every method's credentials, listed and removed. */
  userCredentials: CredentialService;
  /** TOTP and recovery codes (src/mfa/): the second factors of DESIGN §4.12. */
  totp: TotpService;
  recoveryCodes: RecoveryCodeService;
  oauth: OAuthPlane;
  /** Operators (src/operators): the system project, roles, project tokens (docs/operators.md). */
  operators: OperatorService;
  /** The console's OAuth client and first-run set-up links (src/operators/console-access.ts). */
  consoleAccess: ConsoleAccess;
  /** Sessions: createAnonymous, findByToken, get, isAlive, delete, onDeleted (see src/sessions/service.ts). */
  sessions: SessionService;
  /** Auth attempts: create, recordFactor, complete, handoff (see src/attempts/service.ts). */
  attempts: AttemptService;
  /** Upstream identity providers per project (src/sso). */
  ssoProviders: SsoProviderService;
  samlProviders: SamlProviderService;
  exchange: ExchangeService;
  /** Deletes expired sessions, attempts, handoff tokens, idempotency records (started here, stopped by closers). */
  sweeper: Sweeper;
  /** Flow engine: definitions, branding/flow settings, the /flow runtime, courier, captcha, risk. */
  flows: FlowEngine;
  /** Row-change notifications (LISTEN/NOTIFY) that keep per-process caches fresh; see src/cache. */
  changes: ChangeFeed;
  /** Background work (sweepers...) stopped on shutdown, newest first. */
  closers: Array<() => Promise<void> | void>;
}

export interface ContainerOptions {
  engine: Engine;
  clock?: Clock;
  ids?: IdGenerator;
  logger?: Logger;
}

/** The embedded engine has no autovacuum (src/db/vacuum.ts); it runs when the sweepers run. */
function embeddedVacuum(engine: Engine, config: Config, logger: Logger): () => Promise<void> | void {
  return engine.kind === 'pglite' && config.sweepIntervalMs > 0 ? new EmbeddedVacuum(engine.db).start(EMBEDDED_VACUUM_INTERVAL_MS, logger) : () => {};
}

/** How often due back-channel logout deliveries are sent (off with the sweepers in tests). */
const BACKCHANNEL_INTERVAL_MS = 1_000;

export function createContainer(config: Config, options: ContainerOptions): Container {
  // An interval of 0 turns the periodic sweepers off (tests call sweep() with the moved clock).
  const startSweeper = (s: { start(intervalMs: number): () => Promise<void> | void }) =>
    config.sweepIntervalMs > 0 ? s.start(config.sweepIntervalMs) : () => {};
  const clock = options.clock ?? systemClock;
  const ids = options.ids ?? randomIds;
  const logger = options.logger ?? createLogger(config.logLevel);
  const { engine } = options;
  const db = engine.db;
  const keys = new KeyRing(config.secrets);
  const paginator = new Paginator(keys.all('pagination'));
  const credentials = new Credentials(config.adminToken);
  const changes = new ChangeFeed(engine, logger);
  // A rotation changes the project row, which drops every cached secret (dropAllOnChange).
  const projectOfSecret = new ChangeCache<string | undefined>(changes, { kind: 'proj', dropAllOnChange: true, max: 10_000 });

  const events = new EventLog(db, new EventStore(db), clock, paginator);
  // Derived once: every outbound caller (webhooks, schemas, SSO, SAML, back-channel logout) follows it.
  const outbound = outboundPolicy(config);
  const webhooks = createWebhooks({ db, events, keys, clock, ids, paginator, logger, config, outbound });
  const projects = new ProjectService(db, new ProjectStore(db), clock, ids, events, changes, paginator);
  const teams = new TeamService(new TeamStore(db), clock, ids, paginator, events);
  const serviceKeys = new ServiceKeyService(db, new ServiceKeyStore(db), clock, ids, paginator, events);
  const { schemas, users, passwords } = createUserDomain({ db, config, outbound, clock, ids, paginator, projects, teams, events, changes, schemaKeys: schemaKeys() });

  credentials.register(async (token, tokenSha256) => {
    const projectId = await projectOfSecret.get(tokenSha256, () => projects.idForSecret(token, tokenSha256), (id) => id !== undefined);
    return projectId ? { kind: 'project', projectId, scopes: 'all', via: 'project_secret' } : undefined;
  });
  // A rotated-out secret during its grace period; not cached, because its validity ends by time.
  credentials.register(async (token, tokenSha256) => {
    const projectId = await projects.idForPreviousSecret(token, tokenSha256);
    return projectId ? { kind: 'project', projectId, scopes: 'all', via: 'project_secret' } : undefined;
  });
  credentials.register(async (token, tokenSha256) => {
    const projectId = await projects.idForPreviewSecret(token, tokenSha256);
    return projectId ? { kind: 'project', projectId, scopes: PREVIEW_SCOPES, via: 'preview_secret' } : undefined;
  });

  const operators = new OperatorService({ db, store: new OperatorStore(db), projects, users, clock, ids, paginator, box: new SealedBox(keys, 'operator.project-token'), events });
  // An operator's project token acts as the project secret while the role holds (checked per use).
  credentials.register((token) => operators.resolveProjectToken(token));
  projects.onDeleting((trx, projectId) => operators.refuseSystemProjectDeletion(trx, projectId));
  users.onDeleting((trx, scope, userId) => operators.keepLastInstanceAdmin(trx, scope, userId));

  const { sessions, attempts, exchange, sweeper } = createSessionDomain({ db, config, clock, ids, keys, paginator, projects, users, events, logger, changes });

  const passkeys = new PasskeyService({ store: new PasskeyStore(db), keys, clock, ids, logger, users });
  const userCredentials = new CredentialService(new CredentialListStore(db), users);
  const mfaStore = new MfaStore(db);
  const totp = new TotpService(mfaStore, keys, clock, ids, users);
  const recoveryCodes = new RecoveryCodeService(mfaStore, keys, clock, ids, users);

  const oauth = createOAuthPlane({ db, clock, ids, keys, paginator, credentials, projects, serviceKeys, sessions, exchange, users, flowSettings: new FlowSettingsService(projects), retentionMs: config.retentionMs, publicUrl: config.publicUrl, outbound, logger, events });


  const consoleAccess = new ConsoleAccess({ db, store: new OperatorStore(db), operators, clients: oauth.oidcClients, clock, ids, publicUrl: config.publicUrl });
  // A system-project user's access token issued to the console's client (or `gatehouse login`'s) is the operator's
  // management credential (admin or operator principal by role); any other client's is not.
  oauth.tokens.mapUserTokens(async (projectId, userId, clientId) => ((await consoleAccess.isOperatorClient(clientId)) ? operators.principalOfUser(projectId, userId) : undefined));

  const ssoProviders = new SsoProviderService(new SsoProviderStore(db), new SealedBox(keys, 'sso.client-secret'), paginator, clock, config.publicUrl, events, changes, outbound);

  const samlProviders = new SamlProviderService({ db, box: new SealedBox(keys, SAML_SP_KEY_PURPOSE), paginator, clock, publicUrl: config.publicUrl, outbound, events });

  const flows = createFlowEngine({ db, config, outbound, clock, ids, keys, paginator, logger, projects, schemas, users, passwords, passkeys, userCredentials, totp, recoveryCodes, sessions, attempts, changes, ssoProviders, events });

  return { config, logger, clock, ids, engine, db, keys, paginator, credentials, events, webhooks, projects, teams, serviceKeys, schemas, users, passwords, passkeys, userCredentials, totp, recoveryCodes, oauth, operators, consoleAccess, sessions, attempts, ssoProviders, samlProviders, exchange, sweeper, flows, changes, closers: [changes.start(), ...[sweeper, oauth.sweeper, flows.sweeper].map(startSweeper), config.sweepIntervalMs > 0 ? oauth.backchannel.start(BACKCHANNEL_INTERVAL_MS) : () => {}, embeddedVacuum(engine, config, logger), () => flows.courier.close(), webhooks.start()] };
}

export async function closeContainer(container: Container): Promise<void> {
  for (const close of [...container.closers].reverse()) await close();
  await container.engine.close();
}
