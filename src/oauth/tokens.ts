import { addMs, MINUTE, type Clock } from '../core/clock.js';
import { digestsEqual, randomSecret, sha256Hex } from '../core/crypto.js';
import type { IdGenerator } from '../core/ids.js';
import type { Principal } from '../core/principal.js';
import type { EventLog } from '../events/service.js';
import { SYSTEM, type Actor } from '../events/types.js';
import type { AuthenticatedClient } from './client-auth.js';
import { oauthError } from './errors.js';
import type { OAuthStore, TokenRow } from './store.js';

export const ACCESS_TOKEN_PREFIX = 'gh_at_';
export const REFRESH_TOKEN_PREFIX = 'gh_rt_';

export interface TokenOptions {
  accessTokenTtlMs: number;
  refreshTokenTtlMs: number;
}

export const DEFAULT_TOKEN_OPTIONS: TokenOptions = { accessTokenTtlMs: 5 * MINUTE, refreshTokenTtlMs: 30 * 24 * 60 * MINUTE };

/** Whether a session still exists; tokens derived from a deleted or expired session die with it. */
export type SessionLiveness = (sessionId: string) => Promise<boolean>;

/**
 * The management principal, if any, of an end user's live access token (the system project's
 * operators, src/operators); the composition root says which. Without it no user token is one.
 */
/** Maps an end user's access token (its project, user and the client it was issued to) to a management principal, or not. */
export type UserTokenPrincipal = (projectId: string, userId: string, clientId: string) => Promise<Principal | undefined>;

export interface TokenResponse {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  scope: string;
  refresh_token?: string;
  id_token?: string;
  issued_token_type?: string;
}

export interface IssueInput {
  projectId: string;
  clientId: string;
  scopes: string[];
  userId?: string;
  sessionId?: string;
  familyId?: string;
}

/** RFC 6749 §3.3 scope-token characters. */
const SCOPE_TOKEN = /^[\x21\x23-\x5b\x5d-\x7e]+$/;

export function parseScope(raw: string | undefined): string[] | undefined {
  if (raw === undefined || raw.trim() === '') return undefined;
  const scopes = raw.split(' ').filter(Boolean);
  if (scopes.some((scope) => !SCOPE_TOKEN.test(scope))) throw oauthError('invalid_scope', 'The scope parameter is malformed.');
  return [...new Set(scopes)];
}

/** The requested scopes when all are allowed, every allowed scope when none is asked for, else invalid_scope. */
export function narrowScopes(raw: string | undefined, allowed: readonly string[]): string[] {
  const requested = parseScope(raw);
  if (!requested) return [...allowed];
  const refused = requested.filter((scope) => !allowed.includes(scope));
  if (refused.length > 0) {
    throw oauthError('invalid_scope', 'The client may not request some of these scopes.', { refused_scopes: refused });
  }
  return requested;
}

/**
 * Opaque bearer tokens (256 random bits, prefixed by kind), stored as SHA-256 hashes. Every
 * check reads the row, so revocation and session deletion hold from the next request on.
 */
/**
 * Who revokes: the project (secret, root client: any token of the project), a client (its own
 * tokens), or an end user through an access token (`userId`: that user's tokens of that client
 * only, DESIGN §4.16 / issue 20 item 7).
 */
export interface RevocationCaller {
  projectId: string;
  clientId?: string;
  userId?: string;
  /** who revokes, for the event `oauth.token_revoked` */
  actor?: Actor;
}

export class TokenService {
  private sessionAlive?: SessionLiveness;
  private userPrincipal?: UserTokenPrincipal;

  constructor(
    private readonly store: OAuthStore,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
    private readonly events: EventLog,
    readonly options: TokenOptions = DEFAULT_TOKEN_OPTIONS,
  ) {}

  /** The sessions domain tells how to check liveness; until then session-bound tokens are refused. */
  useSessionLiveness(check: SessionLiveness): void {
    this.sessionAlive = check;
  }

  /** Lets some end users' access tokens be management credentials (read once per use, after the token checks). */
  mapUserTokens(map: UserTokenPrincipal): void {
    this.userPrincipal = map;
  }

  async clientCredentials(client: AuthenticatedClient, scope: string | undefined): Promise<TokenResponse> {
    if (client.kind === 'oidc') throw oauthError('unauthorized_client', 'This client may not use the client_credentials grant.');
    const scopes = narrowScopes(scope, client.allowedScopes);
    const { token } = await this.issue('access', { projectId: client.projectId, clientId: client.clientId, scopes });
    return { access_token: token, token_type: 'Bearer', expires_in: this.options.accessTokenTtlMs / 1000, scope: scopes.join(' ') };
  }

  async issue(kind: 'access' | 'refresh', input: IssueInput, store = this.store): Promise<{ token: string; row: TokenRow }> {
    const now = this.clock.now();
    const token = randomSecret(kind === 'access' ? ACCESS_TOKEN_PREFIX : REFRESH_TOKEN_PREFIX);
    const ttl = kind === 'access' ? this.options.accessTokenTtlMs : this.options.refreshTokenTtlMs;
    const row: TokenRow = {
      id: this.ids.next('tok'),
      token_hash: sha256Hex(token),
      kind,
      project_id: input.projectId,
      client_id: input.clientId,
      user_id: input.userId ?? null,
      session_id: input.sessionId ?? null,
      family_id: input.familyId ?? null,
      scopes: input.scopes,
      created_at: now,
      expires_at: addMs(now, ttl),
      used_at: null,
      revoked_at: null,
    };
    await store.insertToken(row);
    return { token, row };
  }

  /** The row of a token that is usable right now: known, unexpired, unrevoked, unrotated, its session alive. */
  async active(token: string, kind?: 'access' | 'refresh', tokenSha256?: string): Promise<TokenRow | undefined> {
    const row = await this.lookup(token, tokenSha256);
    if (!row || (kind && row.kind !== kind)) return undefined;
    if (row.revoked_at || row.used_at || row.expires_at.getTime() <= this.clock.now().getTime()) return undefined;
    if (row.session_id && !(await this.isSessionAlive(row.session_id))) return undefined;
    return row;
  }

  /**
   * Any row for the token, whatever its state (refresh reuse detection needs used ones).
   * `tokenSha256`: the token's digest when the caller has made it already (bearer resolution).
   */
  async lookup(token: string, tokenSha256?: string): Promise<TokenRow | undefined> {
    if (token.length > 512 || !(token.startsWith(ACCESS_TOKEN_PREFIX) || token.startsWith(REFRESH_TOKEN_PREFIX))) return undefined;
    const hash = tokenSha256 ?? sha256Hex(token);
    const row = await this.store.findToken(hash);
    return row && digestsEqual(row.token_hash, hash) ? row : undefined;
  }

  async isSessionAlive(sessionId: string): Promise<boolean> {
    return this.sessionAlive ? this.sessionAlive(sessionId) : false;
  }

  /**
   * The bearer resolver for management endpoints: client-credentials access tokens, and the end
   * users' tokens that `mapUserTokens` maps (an operator's system-project token), nothing else.
   */
  async principal(token: string, tokenSha256?: string): Promise<Principal | undefined> {
    if (!token.startsWith(ACCESS_TOKEN_PREFIX)) return undefined;
    const row = await this.active(token, 'access', tokenSha256);
    if (!row) return undefined;
    if (row.user_id !== null) return this.userPrincipal?.(row.project_id, row.user_id, row.client_id);
    return { kind: 'project', projectId: row.project_id, scopes: new Set(row.scopes), via: 'access_token', clientId: row.client_id, tokenId: row.id };
  }

  /**
   * RFC 7009. Tokens that are unknown, already revoked, of another project or of another client
   * are left alone and answered the same way, so the endpoint is no oracle. Revoking a refresh
   * token revokes its whole family, access tokens included.
   */
  async revoke(caller: RevocationCaller, token: string): Promise<void> {
    const row = await this.lookup(token);
    if (!row || row.project_id !== caller.projectId) return;
    if (caller.clientId !== undefined && caller.clientId !== row.client_id) return;
    if (caller.userId !== undefined && caller.userId !== row.user_id) return;
    const now = this.clock.now();
    await this.events.transaction(async (trx) => {
      const store = this.store.with(trx);
      const revoked = row.kind === 'refresh' && row.family_id ? await store.revokeFamily(row.family_id, now) : await store.revokeToken(row.id, now);
      if (revoked === 0) return;
      await this.events.record(trx, {
        type: 'oauth.token_revoked',
        projectId: row.project_id,
        actor: caller.actor ?? SYSTEM,
        subjectId: row.user_id,
        data: { token_id: row.id, token_type: row.kind === 'access' ? 'access_token' : 'refresh_token', client_id: row.client_id, user_id: row.user_id, reason: 'revoked' },
      });
    });
  }

  /**
   * A replayed refresh token or authorization code: its whole grant (the family) is revoked by
   * Gatehouse, with `oauth.token_revoked` (`reason: reuse_detected`) when anything was still live.
   */
  async revokeReused(grant: { projectId: string; familyId: string; tokenId: string; tokenType: 'refresh_token' | 'authorization_code'; clientId: string; userId: string | null }): Promise<void> {
    const now = this.clock.now();
    await this.events.transaction(async (trx) => {
      if ((await this.store.with(trx).revokeFamily(grant.familyId, now)) === 0) return;
      await this.events.record(trx, {
        type: 'oauth.token_revoked',
        projectId: grant.projectId,
        actor: SYSTEM,
        subjectId: grant.userId,
        data: { token_id: grant.tokenId, token_type: grant.tokenType, client_id: grant.clientId, user_id: grant.userId, reason: 'reuse_detected' },
      });
    });
  }

  /** RFC 7662: only the caller's own project's live tokens are active; everything else is `{active: false}`. */
  async introspect(projectId: string, token: string, issuer: string): Promise<Record<string, unknown>> {
    const row = await this.active(token);
    if (!row || row.project_id !== projectId) return { active: false };
    return {
      active: true,
      scope: row.scopes.join(' '),
      client_id: row.client_id,
      token_type: row.kind === 'access' ? 'Bearer' : 'refresh_token',
      exp: Math.floor(row.expires_at.getTime() / 1000),
      iat: Math.floor(row.created_at.getTime() / 1000),
      iss: issuer,
      ...(row.user_id ? { sub: row.user_id } : {}),
      ...(row.session_id ? { sid: row.session_id } : {}),
      project_id: row.project_id,
      jti: row.id,
    };
  }

  /** Every token issued to a client, e.g. when the client is deleted. */
  async revokeClient(projectId: string, clientId: string): Promise<number> {
    return this.store.revokeClient(projectId, clientId, this.clock.now());
  }

  async revokeSession(sessionId: string): Promise<number> {
    return this.store.revokeSession(sessionId, this.clock.now());
  }

  async sweep(retentionMs: number): Promise<number> {
    return this.store.deleteExpired(new Date(this.clock.now().getTime() - retentionMs));
  }
}
