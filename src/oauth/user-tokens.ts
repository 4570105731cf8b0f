import type { Clock } from '../core/clock.js';
import type { IdGenerator } from '../core/ids.js';
import type { SessionService } from '../sessions/service.js';
import type { UserService } from '../users/service.js';
import type { AuthenticatedClient, Form } from './client-auth.js';
import { USER_SCOPES } from './discovery.js';
import { insufficientScope, invalidToken, oauthError } from './errors.js';
import { atHash, sessionClaims } from './session-claims.js';
import type { SigningKeys } from './signing-keys.js';
import type { OAuthStore, TokenRow } from './store.js';
import { parseScope, type TokenResponse, type TokenService } from './tokens.js';

export const SESSION_TOKEN_TYPE = 'urn:gatehouse:params:oauth:token-type:session_token';
export const ACCESS_TOKEN_TYPE = 'urn:ietf:params:oauth:token-type:access_token';
const DEFAULT_USER_SCOPES = ['openid', 'profile', 'email'];
const PROFILE_CLAIMS = ['name', 'given_name', 'family_name', 'preferred_username', 'picture'];

/** The session an end user's tokens are derived from. */
export interface SessionGrant {
  projectId: string;
  sessionId: string;
  userId: string;
  authTime?: Date;
}

export function userScopes(raw: string | undefined, allowed: readonly string[] = USER_SCOPES, fallback = DEFAULT_USER_SCOPES): string[] {
  const requested = parseScope(raw);
  if (!requested) return fallback.filter((scope) => allowed.includes(scope));
  const refused = requested.filter((scope) => !allowed.includes(scope));
  if (refused.length > 0) throw oauthError('invalid_scope', 'Some requested scopes cannot be granted here.', { refused_scopes: refused });
  return requested;
}

/** Claims a set of scopes releases (OIDC Core §5.4); `sub` always. */
export function releasedClaims(claims: Record<string, unknown>, scopes: readonly string[]): Record<string, unknown> {
  const released: Record<string, unknown> = { sub: claims.sub };
  const names = [...(scopes.includes('profile') ? PROFILE_CLAIMS : []), ...(scopes.includes('email') ? ['email', 'email_verified'] : [])];
  for (const name of names) if (claims[name] !== undefined) released[name] = claims[name];
  return released;
}

/**
 * End users' tokens: RFC 8693 exchange of a session token, refresh rotation with reuse detection,
 * ID tokens and userinfo. Every token carries its session id and dies with the session.
 */
export class UserTokenService {
  constructor(
    private readonly store: OAuthStore,
    private readonly tokens: TokenService,
    private readonly signingKeys: SigningKeys,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
    private readonly sessions: SessionService,
    private readonly users: UserService,
  ) {}

  /** RFC 8693: a session token (subject) becomes access + refresh tokens bound to that session. */
  async exchange(client: AuthenticatedClient, form: Form, issuer: string): Promise<TokenResponse> {
    if (client.kind === 'oidc') throw oauthError('unauthorized_client', 'OIDC clients get user tokens through the authorization code grant.');
    if (client.kind === 'service_key' && !client.allowedScopes.includes('session.write')) {
      throw oauthError('unauthorized_client', 'Token exchange needs a service key holding session.write.');
    }
    const subjectToken = form.subject_token;
    if (!subjectToken) throw oauthError('invalid_request', 'The "subject_token" parameter is required.', { parameter: 'subject_token' });
    if (form.subject_token_type !== SESSION_TOKEN_TYPE) {
      throw oauthError('invalid_request', `subject_token_type must be ${SESSION_TOKEN_TYPE}.`, { parameter: 'subject_token_type' });
    }
    if (form.requested_token_type !== undefined && form.requested_token_type !== ACCESS_TOKEN_TYPE) {
      throw oauthError('invalid_request', `requested_token_type must be ${ACCESS_TOKEN_TYPE}.`, { parameter: 'requested_token_type' });
    }
    if (form.actor_token !== undefined) throw oauthError('invalid_request', 'Delegation (actor_token) is not supported.', { parameter: 'actor_token' });
    const scopes = userScopes(form.scope);
    const session = await this.sessions.rowForToken(subjectToken);
    if (!session || session.project_id !== client.projectId) throw oauthError('invalid_grant', 'The session token is unknown, expired or superseded.');
    if (session.state !== 'active' || !session.user_id) throw oauthError('invalid_grant', 'The session is not authenticated.');
    const authTime = session.factors.map((factor) => new Date(factor.verified_at)).sort((a, b) => b.getTime() - a.getTime())[0];
    const grant = { projectId: session.project_id, sessionId: session.id, userId: session.user_id, authTime };
    return { ...(await this.issueForSession(client.clientId, grant, scopes, issuer)), issued_token_type: ACCESS_TOKEN_TYPE };
  }

  /** Access + refresh (a new family) and, with `openid`, an ID token. */
  async issueForSession(
    clientId: string,
    grant: SessionGrant,
    scopes: string[],
    issuer: string,
    extra: { nonce?: string; familyId?: string; refresh?: boolean } = {},
  ): Promise<TokenResponse> {
    const familyId = extra.familyId ?? this.ids.next('fam');
    const input = { projectId: grant.projectId, clientId, scopes, userId: grant.userId, sessionId: grant.sessionId, familyId };
    // A refresh token unless the client's grant_types leave refresh_token out.
    const { access, refresh } = await this.store.transaction(async (store) => ({
      refresh: extra.refresh === false ? undefined : await this.tokens.issue('refresh', input, store),
      access: await this.tokens.issue('access', input, store),
    }));
    return this.response(access.token, refresh?.token, access.row, issuer, grant.authTime, extra.nonce);
  }

  /** Rotation: each refresh token works once; presenting a used one revokes its whole family. */
  async refresh(client: AuthenticatedClient, form: Form, issuer: string): Promise<TokenResponse> {
    const presented = form.refresh_token;
    if (!presented) throw oauthError('invalid_request', 'The "refresh_token" parameter is required.', { parameter: 'refresh_token' });
    if (client.kind === 'oidc' && !client.grantTypes?.includes('refresh_token')) throw oauthError('unauthorized_client', 'This client is not registered for the refresh_token grant.');
    const row = await this.tokens.lookup(presented);
    if (!row || row.kind !== 'refresh' || row.project_id !== client.projectId || row.client_id !== client.clientId) {
      throw oauthError('invalid_grant', 'The refresh token is unknown.');
    }
    const now = this.clock.now();
    if (row.revoked_at) throw oauthError('invalid_grant', 'The refresh token was revoked.');
    if (row.used_at) return this.reuse(row);
    if (row.expires_at.getTime() <= now.getTime()) throw oauthError('invalid_grant', 'The refresh token has expired.');
    if (row.session_id && !(await this.tokens.isSessionAlive(row.session_id))) {
      if (row.family_id) await this.store.revokeFamily(row.family_id, now);
      throw oauthError('invalid_grant', 'The session behind the refresh token has ended.');
    }
    const scopes = userScopes(form.scope, row.scopes, row.scopes);
    const input = { projectId: row.project_id, clientId: row.client_id, scopes, userId: row.user_id ?? undefined, sessionId: row.session_id ?? undefined, familyId: row.family_id ?? undefined };
    const issued = await this.store.transaction(async (store) => {
      if (!(await store.useRefresh(row.id, now))) return undefined;
      // The new refresh token keeps the family's full scope; only the access token narrows.
      const refresh = await this.tokens.issue('refresh', { ...input, scopes: row.scopes }, store);
      const access = await this.tokens.issue('access', input, store);
      return { refresh, access };
    });
    // Lost a race with another use of the same token: that is reuse too.
    if (!issued) return this.reuse(row);
    return this.response(issued.access.token, issued.refresh.token, issued.access.row, issuer);
  }

  /** A replayed authorization code: the tokens it bought (its family) are revoked, as an event. */
  async revokeReplayed(code: { id: string; project_id: string; client_id: string; user_id: string | null }): Promise<void> {
    await this.tokens.revokeReused({ projectId: code.project_id, familyId: code.id, tokenId: code.id, tokenType: 'authorization_code', clientId: code.client_id, userId: code.user_id });
  }

  private async reuse(row: TokenRow): Promise<never> {
    if (row.family_id) await this.tokens.revokeReused({ projectId: row.project_id, familyId: row.family_id, tokenId: row.id, tokenType: 'refresh_token', clientId: row.client_id, userId: row.user_id });
    throw oauthError('invalid_grant', 'The refresh token was already used; every token of its grant is now revoked.');
  }

  private async response(
    accessToken: string,
    refreshToken: string | undefined,
    access: TokenRow,
    issuer: string,
    authTime?: Date,
    nonce?: string,
  ): Promise<TokenResponse> {
    const response: TokenResponse = {
      access_token: accessToken,
      token_type: 'Bearer',
      expires_in: this.tokens.options.accessTokenTtlMs / 1000,
      scope: access.scopes.join(' '),
      ...(refreshToken ? { refresh_token: refreshToken } : {}),
    };
    if (access.user_id && access.scopes.includes('openid')) response.id_token = await this.idToken(access, accessToken, issuer, authTime, nonce);
    return response;
  }

  private async idToken(access: TokenRow, accessToken: string, issuer: string, authTime?: Date, nonce?: string): Promise<string> {
    const user = access.user_id ? await this.users.find(access.project_id, access.user_id) : undefined;
    const claims = user ? releasedClaims(await this.users.claims(user), access.scopes) : { sub: access.user_id };
    // auth_time, acr and amr come from the session as it is now: the same for a fresh sign-in, a
    // reused session and a refresh (the grant's own auth_time only when the session says nothing).
    const session = access.session_id ? await this.sessions.get(access.project_id, access.session_id).catch(() => undefined) : undefined;
    const signedIn = session ? sessionClaims(session) : {};
    const now = Math.floor(this.clock.now().getTime() / 1000);
    return this.signingKeys.sign({
      ...claims,
      iss: issuer,
      aud: access.client_id,
      azp: access.client_id,
      iat: now,
      exp: now + this.tokens.options.accessTokenTtlMs / 1000,
      ...(access.session_id ? { sid: access.session_id } : {}),
      ...(authTime ? { auth_time: Math.floor(authTime.getTime() / 1000) } : {}),
      ...signedIn,
      at_hash: atHash(accessToken),
      ...(nonce ? { nonce } : {}),
    });
  }

  /** OIDC userinfo: claims the token's scopes release; refuses tokens without `openid`. */
  async userinfo(token: string | undefined): Promise<Record<string, unknown>> {
    const row = token ? await this.tokens.active(token, 'access') : undefined;
    if (!row) throw invalidToken();
    if (!row.user_id || !row.scopes.includes('openid')) throw insufficientScope('openid');
    const user = await this.users.find(row.project_id, row.user_id);
    if (!user) throw invalidToken('The user of this access token no longer exists.');
    return releasedClaims(await this.users.claims(user), row.scopes);
  }
}
