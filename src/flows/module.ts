import { budgetedFactors, createMethodServices } from './methods/registry.js';
import type { SsoProviderService } from '../sso/service.js';
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import { AttemptDrafts } from '../attempts/drafts.js';
import type { AttemptService } from '../attempts/service.js';
import type { ChangeFeed } from '../cache/feed.js';
import type { Config } from '../config.js';
import type { Clock } from '../core/clock.js';
import type { IdGenerator } from '../core/ids.js';
import type { KeyRing } from '../core/keys.js';
import type { OutboundPolicy } from '../core/outbound-target.js';
import type { Paginator } from '../core/pagination.js';
import { Courier } from '../courier/service.js';
import { CourierStore } from '../courier/store.js';
import { MailComposer } from '../courier/compose.js';
import { MailTemplateStore } from '../courier/template-store.js';
import type { Database } from '../db/schema.js';
import type { EventLog } from '../events/service.js';
import type { CredentialService } from '../credentials/service.js';
import type { RecoveryCodeService } from '../mfa/recovery-codes.js';
import type { TotpService } from '../mfa/totp.js';
import type { PasskeyService } from '../passkeys/service.js';
import type { PasswordService } from '../passwords/service.js';
import type { ProjectService } from '../projects/service.js';
import type { SchemaService } from '../schemas/service.js';
import { SchemaStore } from '../schemas/store.js';
import type { SessionService } from '../sessions/service.js';
import type { UserService } from '../users/service.js';
import { CodeService } from './codes/service.js';
import { CodeStore } from './codes/store.js';
import { FlowCookieCodec } from './cookie.js';
import { defaultDefinitions } from './definitions/defaults.js';
import { schemaView, type SchemaSource, type SchemaView } from './definitions/schema-view.js';
import { FlowDefinitionService } from './definitions/service.js';
import { FlowDefinitionStore } from './definitions/store.js';
import { CaptchaGate } from './gates/captcha.js';
import { GateStore } from './gates/store.js';
import { RiskService } from './risk/service.js';
import { RiskStore } from './risk/store.js';
import { FlowRuntime } from './runtime/engine.js';
import { FlowSettingsService } from './settings/service.js';
import { FlowSweeper } from './sweeper.js';
import { FlowStartBudget } from './risk/flow-starts.js';
import { RecoveryLinkService } from './recovery-links/service.js';
import { RecoveryLinkStore } from './recovery-links/store.js';

export interface FlowEngine {
  definitions: FlowDefinitionService;
  settings: FlowSettingsService;
  runtime: FlowRuntime;
  courier: Courier;
  mail: MailComposer;
  captcha: CaptchaGate;
  risk: RiskService;
  codes: CodeService;
  recoveryLinks: RecoveryLinkService;
  sweeper: FlowSweeper;
}

/**
 * Wires the flow engine and seeds every new project's default definitions (login, register,
 * recovery) in the project-creation transaction, after the default user schema hook.
 */
export function createFlowEngine(deps: {
  db: Kysely<Database>;
  config: Config;
  /** the process's outbound policy, derived once by the composition root */
  outbound: OutboundPolicy;
  clock: Clock;
  ids: IdGenerator;
  keys: KeyRing;
  paginator: Paginator;
  logger: Logger;
  projects: ProjectService;
  schemas: SchemaService;
  users: UserService;
  passwords: PasswordService;
  passkeys: PasskeyService;
  userCredentials: CredentialService;
  totp: TotpService;
  recoveryCodes: RecoveryCodeService;
  sessions: SessionService;
  attempts: AttemptService;
  ssoProviders: SsoProviderService;
  /** the event log (src/events): login.failed, recovery.requested, sso.linked... */
  events: EventLog;
  /** Invalidates the per-process definition cache; without it definitions are read on every use. */
  changes?: ChangeFeed;
}): FlowEngine {
  const { db, clock, ids, keys } = deps;
  // Schema revisions never change, so the view of one is built once per process (bounded).
  const views = new Map<string, SchemaView>();
  const schemas: SchemaSource = {
    resolve: async (projectId, ref) => {
      const stored = await deps.schemas.resolve(projectId, ref).catch(() => undefined);
      if (!stored) return undefined;
      let view = views.get(stored.id);
      if (!view) {
        view = schemaView(stored.id, stored.uri, stored.document);
        if (views.size >= 1_000) views.delete(views.keys().next().value as string);
        views.set(stored.id, view);
      }
      return view;
    },
  };
  const definitions = new FlowDefinitionService(db, new FlowDefinitionStore(db), schemas, clock, ids, deps.paginator, deps.events, deps.changes);
  const settings = new FlowSettingsService(deps.projects);
  const mail = new MailComposer(new MailTemplateStore(db), clock, deps.logger, deps.events);
  const courier = new Courier(
    new CourierStore(db),
    clock,
    ids,
    deps.logger,
    { smtpUrl: deps.config.smtpUrl, from: deps.config.mailFrom, retry: deps.config.mailRetry },
    mail,
  );
  const captcha = new CaptchaGate(keys, new GateStore(db), clock);
  const flowStarts = new FlowStartBudget(db, clock);
  const riskStore = new RiskStore(db);
  const risk = new RiskService(riskStore, clock, ids, budgetedFactors());
  const codes = new CodeService(new CodeStore(db), keys, clock, ids);
  const transaction = <T>(work: (trx: Kysely<Database>) => Promise<T>) => db.transaction().execute(work);
  const runtime = new FlowRuntime({
    transaction,
    clock,
    ids,
    codec: new FlowCookieCodec(keys),
    definitions,
    schemas,
    flowSettings: settings,
    captcha,
    risk,
    flowStarts,
    codes,
    courier,
    projects: deps.projects,
    sessions: deps.sessions,
    attempts: deps.attempts,
    drafts: new AttemptDrafts(deps.attempts, deps.attempts.store, deps.sessions, deps.clock),
    users: deps.users,
    passwords: deps.passwords,
    passkeys: deps.passkeys,
    userCredentials: deps.userCredentials,
    totp: deps.totp,
    recoveryCodes: deps.recoveryCodes,
    sso: { providers: deps.ssoProviders },
    events: deps.events,
    publicUrl: deps.config.publicUrl,
    ownServices: createMethodServices({ db, transaction, clock, ids, keys, publicUrl: deps.config.publicUrl, outbound: deps.outbound }),
  });
  deps.projects.onCreated(async (trx, project) => {
    const row = await new SchemaStore(trx).findDefault(project.id);
    if (!row) return;
    const view = schemaView(row.id, row.uri, JSON.parse(row.document) as Record<string, unknown>);
    await definitions.seed(trx, project.id, view, defaultDefinitions(view));
  });
  // Erasing a user erases what the flows remember of them, in the same transaction.
  deps.users.onDeleted(async (trx, user) => {
    await riskStore.with(trx).deleteUserSignals(user.projectId, user.id);
    await risk.forgetUser(trx, user.projectId, user.id);
    await new CodeStore(trx).deleteForUser(user.projectId, user.id);
  });
  // Events are stored against a session: they go with it.
  deps.sessions.onDeleted(async (trx, session) => {
    await riskStore.with(trx).deleteSessionEvents(session.id);
  });
  // A new password (operator set, recovery) lifts the password's lock-out and "disabled until reset"
  // state of the user (and of every identifier they sign in with, where failures were once counted),
  // in the transaction that writes it (DESIGN §4.6a). The second factors' counters stay.
  deps.passwords.onPasswordSet((trx, event) => risk.liftLocks(trx, event.projectId, { userId: event.userId, identifiers: event.identifiers }));
  const recoveryLinks = new RecoveryLinkService({
    store: new RecoveryLinkStore(db),
    users: deps.users,
    attempts: deps.attempts,
    courier,
    projects: deps.projects,
    risk,
    clock,
    riskRules: async (projectId) => (await settings.flowSettings(projectId)).risk,
    publicUrl: deps.config.publicUrl,
    events: deps.events,
  });
  const sweeper = new FlowSweeper(db, clock, deps.config.retentionMs, flowStarts, deps.logger);
  return { definitions, settings, runtime, courier, mail, captcha, risk, codes, recoveryLinks, sweeper };
}
