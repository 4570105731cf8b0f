import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { Clock } from '../core/clock.js';
import type { IdGenerator } from '../core/ids.js';
import type { KeyRing } from '../core/keys.js';
import type { OutboundPolicy } from '../core/outbound-target.js';
import type { Paginator } from '../core/pagination.js';
import type { Database } from '../db/schema.js';
import type { EventLog } from '../events/service.js';
import type { Credentials } from '../core/credentials.js';
import type { ProjectService } from '../projects/service.js';
import type { ServiceKeyService } from '../service-keys/service.js';
import type { ExchangeService } from '../sessions/service.exchange.js';
import type { SessionService } from '../sessions/service.js';
import type { UserService } from '../users/service.js';
import { IpWindowBudget } from '../db/ip-window-budget.js';
import { AuthorizationService, AuthorizeBudgetSpent } from './authorize.js';
import { ClientAuthenticator } from './client-auth.js';
import { OidcClientService } from './clients.js';
import { OAuthClientStore } from './clients-store.js';
import { SigningKeys } from './signing-keys.js';
import { OAuthStore } from './store.js';
import { OAuthSweeper } from './sweeper.js';
import { TokenService } from './tokens.js';
import { UserTokenService } from './user-tokens.js';
import { LogoutService } from './logout.js';
import { BackchannelLogout } from './backchannel.js';
import { DeviceGrantService } from './device/service.js';
import { DeviceStore } from './device/store.js';

/** The OAuth2 / OIDC provider plane as the container holds it. */
export interface OAuthPlane {
  signingKeys: SigningKeys;
  tokens: TokenService;
  clients: ClientAuthenticator;
  userTokens: UserTokenService;
  oidcClients: OidcClientService;
  authorization: AuthorizationService;
  logout: LogoutService;
  backchannel: BackchannelLogout;
  /** RFC 8628: the device authorization grant */
  device: DeviceGrantService;
  sweeper: OAuthSweeper;
}

/**
 * The project's flow settings, as far as the authorize budget reads them (src/flows/settings); the
 * composition root hands them in because oauth sits below the flows layer.
 */
export interface AuthorizeLimitSource {
  flowSettings(projectId: string): Promise<{ risk: { ip_authorizations_per_minute: number } }>;
}

export interface OAuthDeps {
  db: Kysely<Database>;
  clock: Clock;
  ids: IdGenerator;
  keys: KeyRing;
  credentials: Credentials;
  projects: ProjectService;
  serviceKeys: ServiceKeyService;
  paginator: Paginator;
  sessions: SessionService;
  exchange: ExchangeService;
  users: UserService;
  flowSettings: AuthorizeLimitSource;
  retentionMs: number;
  /** the event log (src/events): clients registered and deleted, tokens revoked */
  events: EventLog;
  /** GATEHOUSE_PUBLIC_URL: the issuer, also of logout tokens sent without a request (back-channel logout). */
  publicUrl: string;
  /** which hosts back-channel logout deliveries may reach (`outboundPolicy` of the configuration; default: public addresses only) */
  outbound?: OutboundPolicy;
  logger?: Logger;
}

export function createOAuthPlane(deps: OAuthDeps): OAuthPlane {
  const store = new OAuthStore(deps.db);
  const signingKeys = new SigningKeys(store, deps.keys, deps.clock);
  const tokens = new TokenService(store, deps.clock, deps.ids, deps.events);
  const clients = new ClientAuthenticator(deps.projects, deps.serviceKeys);
  // Client-credentials access tokens are bearer credentials for every management endpoint.
  deps.credentials.register((token, tokenSha256) => tokens.principal(token, tokenSha256));
  // Tokens derived from a session die with it: checked on every use, and revoked in the
  // transaction that deletes the session (operator revoke, logout, sweeper).
  tokens.useSessionLiveness((sessionId) => deps.sessions.isAlive(sessionId));
  deps.serviceKeys.onDeleted(async (trx, projectId, clientId) => {
    await store.with(trx).revokeClient(projectId, clientId, deps.clock.now());
  });
  const backchannel = new BackchannelLogout(deps.db, signingKeys, deps.clock, deps.ids, deps.publicUrl, deps.logger, deps.outbound);
  deps.sessions.onDeleted(async (trx, session) => {
    // Before the tokens are revoked: which clients held tokens of the session decides who is told.
    await backchannel.enqueue(trx, session);
    await store.with(trx).revokeSession(session.id, deps.clock.now());
  });
  // An erased user's tokens and authorization codes go in the transaction that deletes the user.
  deps.users.onDeleted(async (trx, user) => {
    await store.with(trx).deleteUserTokens(user.projectId, user.id);
    await new OAuthClientStore(trx).deleteAuthorizationsOfUser(user.projectId, user.id);
  });
  const userTokens = new UserTokenService(store, tokens, signingKeys, deps.clock, deps.ids, deps.sessions, deps.users);
  const clientStore = new OAuthClientStore(deps.db);
  const oidcClients = new OidcClientService(clientStore, deps.clock, deps.ids, deps.paginator, deps.events, deps.outbound);
  clients.register((clientId, secret, method) => oidcClients.verify(clientId, secret, method));
  // The per-IP budget of authorization requests is a risk rule of the project's flow settings (DESIGN §4.6a).
  const authorizeWindows = new IpWindowBudget(deps.db, deps.clock, 'oauth_authorize_budget', (seconds) => new AuthorizeBudgetSpent(seconds));
  const authorizeBudget = {
    windows: authorizeWindows,
    limit: async (projectId: string) => (await deps.flowSettings.flowSettings(projectId)).risk.ip_authorizations_per_minute,
  };
  const authorization = new AuthorizationService(clientStore, oidcClients, userTokens, deps.sessions, deps.exchange, deps.clock, deps.ids, authorizeBudget);
  // Device authorization requests are unauthenticated writes too: the same per-IP budget as /auth/authorize.
  const deviceStore = new DeviceStore(deps.db);
  const device = new DeviceGrantService({ store: deviceStore, userTokens, sessions: deps.sessions, clock: deps.clock, ids: deps.ids, keys: deps.keys, budget: authorizeBudget });
  // Only swept here: the wrong-code budget is taken by the device store's lookup statement itself.
  const deviceCodeWindows = new IpWindowBudget(deps.db, deps.clock, 'oauth_device_code_budget', (seconds) => new AuthorizeBudgetSpent(seconds));
  const sweeper = new OAuthSweeper(store, clientStore, authorizeWindows, deps.clock, deps.retentionMs, deps.logger, { codes: deviceStore, budget: deviceCodeWindows });
  const logout = new LogoutService(signingKeys, oidcClients, deps.sessions);
  return { signingKeys, tokens, clients, userTokens, oidcClients, authorization, sweeper, logout, backchannel, device };
}
