import type { Clock } from '../core/clock.js';
import { addMs, MINUTE, SECOND } from '../core/clock.js';
import { constantTimeEqual, digestsEqual, randomSecret, sha256Hex } from '../core/crypto.js';
import { AppError } from '../core/errors.js';
import { clientRedirectMatches } from '../core/redirect-uris.js';
import type { IdGenerator } from '../core/ids.js';
import type { IpWindowBudget } from '../db/ip-window-budget.js';
import type { ExchangeService } from '../sessions/service.exchange.js';
import type { SessionService } from '../sessions/service.js';
import type { Session } from '../sessions/view.js';
import type { AuthenticatedClient, Form } from './client-auth.js';
import type { OidcClientService } from './clients.js';
import type { AuthorizationRow, OAuthClientStore } from './clients-store.js';
import { oauthError } from './errors.js';
import { isPkceValue, verifiesChallenge } from './pkce.js';
import type { TokenResponse } from './tokens.js';
import { userScopes, type UserTokenService } from './user-tokens.js';

export const AUTHORIZATION_COOKIE = '__gh_authz';
const REQUEST_TTL_MS = 10 * MINUTE;
const CODE_TTL_MS = 60 * SECOND;
// `create`: OpenID Connect Prompt Create 1.0, the user signs up rather than in.
const PROMPTS = new Set(['none', 'login', 'consent', 'select_account', 'create']);

/** The authorization budget of the client's IP is spent (`AuthorizationService.authorize` redirects it). */
export class AuthorizeBudgetSpent extends Error {
  constructor(readonly retryAfterSeconds: number) {
    super('authorization budget spent');
  }
}

/** Where the authorization budget comes from: the windows, and a project's limit (`ip_authorizations_per_minute`). */
export interface AuthorizeBudget {
  windows: IpWindowBudget;
  limit(projectId: string): Promise<number>;
}

/** Where the browser goes next, and what the route must do with cookies. */
export interface AuthorizeOutcome {
  location: string;
  /** response_mode=form_post: the parameters go to the client as an HTML form POST to `location`'s URI. */
  formPost?: { action: string; fields: Record<string, string> };
  /** Set `__gh_authz` (binds the pending request to this browser) until `expiresAt`. */
  bind?: { authorizationId: string; expiresAt: Date };
  /** Set `__service_session` so the next authorization request signs in without a flow. */
  session?: { token: string; expiresAt: Date };
}

/** The authorization response to the client: query parameters, or a form post (OAuth 2.0 Form Post Response Mode). */
function toClient(uri: string, params: Record<string, string | null | undefined>, mode: 'query' | 'form_post'): AuthorizeOutcome {
  if (mode === 'query') return { location: withParams(uri, params) };
  const fields = Object.fromEntries(Object.entries(params).filter((entry): entry is [string, string] => typeof entry[1] === 'string' && entry[1] !== ''));
  return { location: uri, formPost: { action: uri, fields } };
}

/** Appends parameters to a redirect URI, keeping the ones it already has. */
function withParams(uri: string, params: Record<string, string | null | undefined>): string {
  const url = new URL(uri);
  for (const [name, value] of Object.entries(params)) if (value) url.searchParams.set(name, value);
  return url.toString();
}

/** OIDC Core §3.1.2.1 `max_age`: the session's newest factor is at most that many seconds old (0: never). */
function freshEnough(session: Session, maxAge: string | undefined, now: Date): boolean {
  if (maxAge === undefined) return true;
  const newest = Math.max(...session.factors.map((factor) => Date.parse(factor.verified_at)).filter((t) => !Number.isNaN(t)));
  return Number.isFinite(newest) && now.getTime() - newest < Number(maxAge) * 1000;
}

/** `acr_values`: the session holds one of the asked levels (unknown values ask for nothing we can give). */
export function meetsAcr(levels: readonly string[], acrValues: string | undefined): boolean {
  const asked = (acrValues ?? '').split(' ').filter((value) => value.startsWith('urn:nist:aal:'));
  return asked.length === 0 || asked.some((level) => levels.includes(level));
}

/**
 * The hosted page's `aal` for a live session that lacks every asked level: the lowest asked (the
 * one it can reach first). Undefined when acr_values asks for no level we know.
 */
export function askedAal(levels: readonly string[], acrValues: string | undefined): string | undefined {
  if (meetsAcr(levels, acrValues)) return undefined;
  const asked = (acrValues ?? '').split(' ').map((value) => /^urn:nist:aal:([12])$/.exec(value)?.[1]).filter((level): level is string => level !== undefined);
  return asked.sort()[0];
}

/**
 * Authorization code + PKCE (S256 only, exact redirect URIs) where signing in is a Gatehouse
 * login flow run by the client's login frontend: authorize -> login UI (flow, purpose login) ->
 * resume with the flow's handoff token -> redirect with the code. A live Gatehouse session
 * cookie of the same project skips the flow unless `prompt=login`.
 */
export class AuthorizationService {
  constructor(
    private readonly store: OAuthClientStore,
    private readonly clients: OidcClientService,
    private readonly userTokens: UserTokenService,
    private readonly sessions: SessionService,
    private readonly exchange: ExchangeService,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
    private readonly budget: AuthorizeBudget,
  ) {}

  async authorize(query: Record<string, string | undefined>, issuer: string, sessionToken: string | undefined, ip: string): Promise<AuthorizeOutcome> {
    // Until client and redirect URI are known good, errors are shown, never redirected (RFC 6749 §4.1.2.1).
    const client = query.client_id ? await this.clients.row(query.client_id) : undefined;
    if (!client) throw oauthError('invalid_request', 'The client_id is missing or unknown.', { parameter: 'client_id' });
    const redirectUri = query.redirect_uri;
    if (!redirectUri || !client.redirect_uris.some((registered) => clientRedirectMatches(registered, redirectUri))) {
      throw oauthError('invalid_request', 'The redirect_uri is missing or not registered for this client (exact match; any port on a loopback IP).', { parameter: 'redirect_uri' });
    }
    const mode = query.response_mode === 'form_post' ? 'form_post' : 'query';
    const fail = (error: string, description: string): AuthorizeOutcome => toClient(redirectUri, { error, error_description: description, state: query.state, iss: issuer }, mode);
    if (!client.grant_types.includes('authorization_code')) return fail('unauthorized_client', 'This client is not registered for the authorization_code grant.');
    if (query.response_type !== 'code') return fail('unsupported_response_type', 'Only response_type=code is supported.');
    if (!isPkceValue(query.code_challenge)) return fail('invalid_request', 'PKCE is required: code_challenge (S256) is missing or malformed.');
    if (query.code_challenge_method !== 'S256') return fail('invalid_request', 'Only code_challenge_method=S256 is supported.');
    if (query.prompt !== undefined && !query.prompt.split(' ').every((p) => PROMPTS.has(p))) return fail('invalid_request', 'Unknown prompt value.');
    // OIDC Core §3.1.2.1: none with any other value is an error, not a choice between them.
    if (query.prompt !== undefined && query.prompt.split(' ').includes('none') && query.prompt !== 'none') return fail('invalid_request', 'prompt=none cannot be combined with other values.');
    // OIDC Core §6: request objects are not supported, and saying so beats silently ignoring them.
    if (query.request !== undefined) return fail('request_not_supported', 'The request parameter is not supported.');
    if (query.request_uri !== undefined) return fail('request_uri_not_supported', 'The request_uri parameter is not supported.');
    if (query.max_age !== undefined && !/^\d{1,9}$/.test(query.max_age)) return fail('invalid_request', 'max_age must be a non-negative integer (seconds).');
    if (query.response_mode !== undefined && query.response_mode !== 'query' && query.response_mode !== 'form_post') return fail('invalid_request', 'response_mode must be query or form_post.');
    let scopes: string[];
    try {
      scopes = userScopes(query.scope, undefined, ['openid']);
    } catch (error) {
      return fail('invalid_scope', (error as Error).message);
    }
    const now = this.clock.now();
    const row: AuthorizationRow = {
      id: this.ids.next('authz'),
      project_id: client.project_id,
      client_id: client.id,
      redirect_uri: redirectUri,
      scopes,
      state: query.state ?? null,
      nonce: query.nonce ?? null,
      code_challenge: query.code_challenge,
      response_mode: mode,
      created_at: now,
      expires_at: addMs(now, REQUEST_TTL_MS),
      session_id: null,
      user_id: null,
      auth_time: null,
      code_hash: null,
      code_expires_at: null,
      consumed_at: null,
    };
    // Anyone may send a public client_id and its registered redirect_uri, and each request stores
    // a row: it is written under the client IP's budget for the project (DESIGN §4.6a); spent, the
    // client hears RFC 6749 §4.1.2.1 temporarily_unavailable and nothing is stored.
    const gate = this.budget.windows.gate(client.project_id, ip, await this.budget.limit(client.project_id));
    try {
      await (gate ? gate.write([this.store.insertAuthorizationQuery(row, gate.when)]) : this.store.insertAuthorization(row));
    } catch (error) {
      if (!(error instanceof AuthorizeBudgetSpent)) throw error;
      return fail('temporarily_unavailable', `Too many authorization requests from this address; try again in ${error.retryAfterSeconds} seconds.`);
    }
    const prompts = (query.prompt ?? '').split(' ');
    const signUp = prompts.includes('create');
    const row0 = sessionToken && !prompts.includes('login') && !signUp ? await this.sessions.rowForToken(sessionToken) : undefined;
    const live = row0 && row0.project_id === client.project_id && row0.state === 'active' && row0.user_id ? await this.sessions.get(client.project_id, row0.id).catch(() => undefined) : undefined;
    // The live session answers unless the client asks for a fresher sign-in (max_age) or a level it lacks (acr_values).
    const reusable = live && freshEnough(live, query.max_age, now) && meetsAcr(live.assurance_levels, query.acr_values) ? live : undefined;
    if (reusable) return this.issueCode(row, reusable.session_id, reusable.user_id!, null, issuer);
    if (prompts.includes('none')) return fail('login_required', 'The user is not signed in, or not as recently or strongly as asked.');
    const loginUri = client.login_uri ?? `${issuer}/ui/${signUp ? 'register' : 'login'}`;
    const lang = query.ui_locales?.split(' ').map((tag) => tag.slice(0, 2).toLowerCase()).find((tag) => tag === 'en' || tag === 'de');
    return {
      location: withParams(loginUri, {
        authorization_id: row.id,
        project_id: client.project_id,
        purpose: signUp ? 'register' : 'login',
        resume_uri: `${issuer}/auth/authorize/resume`,
        // A session that signed in too long ago or too weakly is stepped up, not replaced.
        session_id: live?.session_id,
        // Stepped up because of acr_values: the page says why and offers only what reaches the level.
        aal: live ? askedAal(live.assurance_levels, query.acr_values) : undefined,
        login_hint: query.login_hint,
        ui_locales: query.ui_locales,
        lang,
      }),
      bind: { authorizationId: row.id, expiresAt: row.expires_at },
    };
  }

  /** The login frontend sends the flow's handoff token back; the browser continues to the client. */
  async resume(authorizationId: string | undefined, boundId: string | undefined, handoffToken: string | undefined, issuer: string): Promise<AuthorizeOutcome> {
    const row = authorizationId && authorizationId.length <= 64 ? await this.store.findAuthorization(authorizationId) : undefined;
    if (!row || row.expires_at.getTime() <= this.clock.now().getTime() || row.code_hash !== null) {
      throw oauthError('invalid_request', 'The authorization request is unknown, expired or already completed.', { parameter: 'authorization_id' });
    }
    if (!boundId || !constantTimeEqual(boundId, row.id)) {
      throw oauthError('invalid_request', 'The authorization request was started in another browser.', { cookie: AUTHORIZATION_COOKIE });
    }
    const fail = (error: string, description: string): AuthorizeOutcome => toClient(row.redirect_uri, { error, error_description: description, state: row.state, iss: issuer }, row.response_mode);
    if (!handoffToken) return fail('access_denied', 'Sign-in did not complete.');
    let exchanged;
    try {
      exchanged = await this.exchange.exchange(row.project_id, { handoffToken });
    } catch (error) {
      if (!(error instanceof AppError) || error.status >= 500) throw error;
      return fail('access_denied', 'Sign-in did not complete (the handoff token is unknown, used or expired).');
    }
    const { session } = exchanged;
    if (!session.user_id) return fail('access_denied', 'Sign-in did not complete.');
    const authTime = session.factors.map((factor) => new Date(factor.verified_at)).sort((a, b) => b.getTime() - a.getTime())[0] ?? null;
    return {
      ...(await this.issueCode(row, session.session_id, session.user_id, authTime, issuer)),
      session: { token: exchanged.session_token, expiresAt: exchanged.expiresAt },
    };
  }

  private async issueCode(row: AuthorizationRow, sessionId: string, userId: string, authTime: Date | null, issuer: string): Promise<AuthorizeOutcome> {
    const now = this.clock.now();
    const code = randomSecret('gh_ac_');
    const attached = await this.store.attachCode(row.id, { sessionId, userId, authTime, codeHash: sha256Hex(code), codeExpiresAt: addMs(now, CODE_TTL_MS) }, now);
    if (!attached) throw oauthError('invalid_request', 'The authorization request was already completed.');
    return toClient(row.redirect_uri, { code, state: row.state, iss: issuer }, row.response_mode);
  }

  /** grant_type=authorization_code: one use, same client, same redirect URI, a verifier that matches. */
  async redeem(client: AuthenticatedClient, form: Form, issuer: string): Promise<TokenResponse> {
    const code = form.code;
    if (!code) throw oauthError('invalid_request', 'The "code" parameter is required.', { parameter: 'code' });
    if (!form.redirect_uri) throw oauthError('invalid_request', 'The "redirect_uri" parameter is required.', { parameter: 'redirect_uri' });
    if (!form.code_verifier) throw oauthError('invalid_request', 'The "code_verifier" parameter is required (PKCE).', { parameter: 'code_verifier' });
    const hash = sha256Hex(code);
    const row = code.startsWith('gh_ac_') && code.length <= 100 ? await this.store.findByCode(hash) : undefined;
    if (!row || !row.code_hash || !digestsEqual(row.code_hash, hash) || row.client_id !== client.clientId || row.project_id !== client.projectId) throw oauthError('invalid_grant', 'The authorization code is unknown.');
    if (client.kind !== 'oidc' || !client.grantTypes?.includes('authorization_code')) throw oauthError('unauthorized_client', 'This client may not use the authorization_code grant.');
    const now = this.clock.now();
    if (row.consumed_at) {
      // A replayed code: whatever it bought is revoked (RFC 6749 §4.1.2).
      await this.userTokens.revokeReplayed(row);
      throw oauthError('invalid_grant', 'The authorization code was already used; the tokens issued for it are revoked.');
    }
    if (!row.code_expires_at || row.code_expires_at.getTime() <= now.getTime()) throw oauthError('invalid_grant', 'The authorization code has expired.');
    if (row.redirect_uri !== form.redirect_uri) throw oauthError('invalid_grant', 'The redirect_uri differs from the authorization request.');
    if (!verifiesChallenge(form.code_verifier, row.code_challenge)) throw oauthError('invalid_grant', 'The code_verifier does not match the code_challenge.');
    const consumed = await this.store.consume(row.id, now);
    if (!consumed || !consumed.session_id || !consumed.user_id) throw oauthError('invalid_grant', 'The authorization code was already used.');
    if (!(await this.sessions.isAlive(consumed.session_id))) throw oauthError('invalid_grant', 'The session behind the authorization code has ended.');
    const grant = { projectId: row.project_id, sessionId: consumed.session_id, userId: consumed.user_id, authTime: consumed.auth_time ?? undefined };
    return this.userTokens.issueForSession(client.clientId, grant, row.scopes, issuer, { nonce: row.nonce ?? undefined, familyId: row.id, refresh: client.grantTypes.includes('refresh_token') });
  }
}
