import type { Clock } from '../core/clock.js';
import { digestsEqual, randomSecret, sha256Hex } from '../core/crypto.js';
import { AppError, notFoundError } from '../core/errors.js';
import { looksLikeId, type IdGenerator } from '../core/ids.js';
import type { Page, PageRequest, Paginator } from '../core/pagination.js';
import { CLIENT_REDIRECTS, redirectUriErrors, redirectUriProblem } from '../core/redirect-uris.js';
import { targetUrlProblem, type OutboundPolicy } from '../core/outbound-target.js';
import type { AuthenticatedClient, UsedAuthMethod } from './client-auth.js';
import type { EventLog } from '../events/service.js';
import { SYSTEM, type Actor } from '../events/types.js';
import { OAuthClientStore, type OAuthClientRow, type TokenEndpointAuthMethod } from './clients-store.js';
import { OAuthStore } from './store.js';

export const OIDC_CLIENT_SECRET_PREFIX = 'gh_cs_';

/** RFC 8628 §3.4: the grant type of the device authorization grant. */
export const DEVICE_CODE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';
/** The grant types a registered client may name (RFC 7591 `grant_types`). */
export const CLIENT_GRANT_TYPES = ['authorization_code', 'refresh_token', DEVICE_CODE_GRANT] as const;
export type ClientGrantType = (typeof CLIENT_GRANT_TYPES)[number];
export const DEFAULT_GRANT_TYPES: ClientGrantType[] = ['authorization_code', 'refresh_token'];

/** Back-Channel Logout 1.0 §2.2: an absolute https URL (http on a loopback host), no fragment. */
function backchannelUriProblem(uri: string): string | undefined {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return 'must be an absolute URL';
  }
  const loopback = ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && loopback)) return 'must be https (http only on a loopback host)';
  if (url.hash || url.username || url.password) return 'must have no fragment and no credentials';
  return undefined;
}

export interface OidcClient {
  client_id: string;
  project_id: string;
  name: string;
  redirect_uris: string[];
  token_endpoint_auth_method: TokenEndpointAuthMethod;
  login_uri?: string;
  post_logout_redirect_uris: string[];
  backchannel_logout_uri?: string;
  grant_types: string[];
  created_at: string;
}

export interface CreatedOidcClient extends OidcClient {
  /** Shown once; absent for public clients (token_endpoint_auth_method none). */
  client_secret?: string;
}

export interface OidcClientInput {
  name?: string;
  /** Required (at least one) with the authorization_code grant. */
  redirect_uris?: string[];
  token_endpoint_auth_method?: TokenEndpointAuthMethod;
  login_uri?: string;
  post_logout_redirect_uris?: string[];
  backchannel_logout_uri?: string;
  /** Default `["authorization_code", "refresh_token"]`; a device-only client needs no redirect URIs. */
  grant_types?: ClientGrantType[];
}

function toClient(row: OAuthClientRow): OidcClient {
  return {
    client_id: row.id,
    project_id: row.project_id,
    name: row.name,
    redirect_uris: row.redirect_uris,
    token_endpoint_auth_method: row.token_endpoint_auth_method,
    ...(row.login_uri ? { login_uri: row.login_uri } : {}),
    post_logout_redirect_uris: row.post_logout_redirect_uris,
    ...(row.backchannel_logout_uri ? { backchannel_logout_uri: row.backchannel_logout_uri } : {}),
    grant_types: row.grant_types,
    created_at: row.created_at.toISOString(),
  };
}

/** OIDC relying parties registered per project (authorization code + PKCE). */
export class OidcClientService {
  constructor(
    private readonly store: OAuthClientStore,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
    private readonly paginator: Paginator,
    private readonly events: EventLog,
    /** which hosts back-channel logout deliveries may reach: a `backchannel_logout_uri` they never could is refused at registration */
    private readonly outbound: OutboundPolicy = {},
  ) {}

  async create(projectId: string, input: OidcClientInput, actor: Actor = SYSTEM): Promise<CreatedOidcClient> {
    const redirectUris = input.redirect_uris ?? [];
    const errors = redirectUriErrors(redirectUris, 'body/redirect_uris', CLIENT_REDIRECTS);
    const loginProblem = input.login_uri !== undefined ? redirectUriProblem(input.login_uri, CLIENT_REDIRECTS) : undefined;
    if (loginProblem) errors.push({ path: 'body/login_uri', message: `"${input.login_uri}" ${loginProblem}` });
    errors.push(...redirectUriErrors(input.post_logout_redirect_uris ?? [], 'body/post_logout_redirect_uris', CLIENT_REDIRECTS));
    const backchannelProblem =
      input.backchannel_logout_uri !== undefined ? (backchannelUriProblem(input.backchannel_logout_uri) ?? targetUrlProblem(input.backchannel_logout_uri, this.outbound)) : undefined;
    if (backchannelProblem) errors.push({ path: 'body/backchannel_logout_uri', message: backchannelProblem });
    const grantTypes = [...new Set(input.grant_types ?? DEFAULT_GRANT_TYPES)];
    // The code flow needs somewhere to send the code; a device-only client (RFC 8628) needs none.
    if (grantTypes.includes('authorization_code') && redirectUris.length === 0) errors.push({ path: 'body/redirect_uris', message: 'at least one redirect URI is required for the authorization_code grant' });
    if (grantTypes.length === 0 || grantTypes.every((grant) => grant === 'refresh_token')) errors.push({ path: 'body/grant_types', message: 'name authorization_code or the device code grant (refresh_token alone grants nothing)' });
    if (errors.length > 0) throw new AppError('req.invalid', 'The client registration is invalid.', { errors });
    const method = input.token_endpoint_auth_method ?? 'client_secret_basic';
    const secret = method === 'none' ? undefined : randomSecret(OIDC_CLIENT_SECRET_PREFIX);
    const id = this.ids.next('oc');
    const row: OAuthClientRow = {
      id,
      project_id: projectId,
      name: input.name ?? id,
      redirect_uris: [...new Set(redirectUris)],
      secret_hash: secret ? sha256Hex(secret) : null,
      token_endpoint_auth_method: method,
      login_uri: input.login_uri ?? null,
      post_logout_redirect_uris: [...new Set(input.post_logout_redirect_uris ?? [])],
      backchannel_logout_uri: input.backchannel_logout_uri ?? null,
      grant_types: grantTypes,
      created_at: this.clock.now(),
    };
    await this.events.transaction(async (trx) => {
      await new OAuthClientStore(trx).insert(row);
      await this.events.record(trx, { type: 'oauth_client.created', projectId, actor, subjectId: id, data: { name: row.name, public: method === 'none' } });
    });
    return { ...toClient(row), ...(secret ? { client_secret: secret } : {}) };
  }

  async list(projectId: string, request: PageRequest): Promise<Page<OidcClient>> {
    const scope = `oauth_clients:${projectId}`;
    const cursor = request.pageToken ? this.paginator.decode(request.pageToken, scope) : undefined;
    const limit = this.paginator.limitOf(request);
    const rows = await this.store.list(projectId, cursor, limit);
    return this.paginator.page(rows, limit, scope, (row) => ({ createdAt: row.created_at, id: row.id }), toClient);
  }

  async get(projectId: string, clientId: string): Promise<OidcClient> {
    const row = await this.row(clientId);
    if (!row || row.project_id !== projectId) throw notFoundError('client.not_found');
    return toClient(row);
  }

  /** Idempotent; the tokens issued to the client stop working with it. */
  async delete(projectId: string, clientId: string, actor: Actor = SYSTEM): Promise<void> {
    if (!looksLikeId(clientId, 'oc')) return;
    await this.events.transaction(async (trx) => {
      const deleted = await new OAuthClientStore(trx).delete(projectId, clientId);
      await new OAuthStore(trx).revokeClient(projectId, clientId, this.clock.now());
      if (deleted) await this.events.record(trx, { type: 'oauth_client.deleted', projectId, actor, subjectId: clientId, data: {} });
    });
  }

  async row(clientId: string): Promise<OAuthClientRow | undefined> {
    return looksLikeId(clientId, 'oc') ? this.store.find(clientId) : undefined;
  }

  /** The ClientVerifier of registered clients: public ones send no secret, confidential ones must. */
  async verify(clientId: string, secret: string | undefined, method: UsedAuthMethod): Promise<AuthenticatedClient | undefined> {
    const row = await this.row(clientId);
    if (!row) return undefined;
    // The client registered one way of authenticating; any other is refused (RFC 7591 §2).
    if (row.token_endpoint_auth_method !== method) return undefined;
    if (row.secret_hash === null) {
      if (secret !== undefined && secret !== '') return undefined;
    } else if (secret === undefined || !digestsEqual(sha256Hex(secret), row.secret_hash)) {
      return undefined;
    }
    return { kind: 'oidc', clientId: row.id, projectId: row.project_id, allowedScopes: [], isPublic: row.secret_hash === null, grantTypes: row.grant_types };
  }
}
