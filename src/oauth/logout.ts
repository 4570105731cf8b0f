import { createLocalJWKSet, errors, jwtVerify, type JWTPayload } from 'jose';
import { self, SYSTEM } from '../events/types.js';
import type { SessionService } from '../sessions/service.js';
import type { OidcClientService } from './clients.js';
import { oauthError } from './errors.js';
import { SIGNING_ALG, type SigningKeys } from './signing-keys.js';

/** What /auth/logout does next. */
export type LogoutOutcome =
  | { kind: 'redirect'; location: string }
  | { kind: 'signed_out'; projectId?: string }
  | { kind: 'confirm'; params: Record<string, string>; projectId?: string };

function withParams(uri: string, params: Record<string, string | undefined>): string {
  const url = new URL(uri);
  for (const [name, value] of Object.entries(params)) if (value) url.searchParams.set(name, value);
  return url.toString();
}

/**
 * OpenID Connect RP-Initiated Logout 1.0. With a valid `id_token_hint` (signed by this provider,
 * for this issuer; an expired one still names its session) the session it names ends at once and
 * the browser goes to a `post_logout_redirect_uri` the client registered, with `state`. Without a
 * hint, the user confirms on a page first (a cross-site page must not sign anyone out). A redirect
 * URI that is not registered is an error, never a redirect.
 */
export class LogoutService {
  constructor(
    private readonly signingKeys: SigningKeys,
    private readonly clients: OidcClientService,
    private readonly sessions: SessionService,
  ) {}

  /** The hint's claims, or invalid_request: bad signature, another issuer, another client than `client_id`. */
  private async hintClaims(hint: string, issuer: string, clientId: string | undefined): Promise<JWTPayload> {
    const keys = createLocalJWKSet(await this.signingKeys.jwks());
    let claims: JWTPayload;
    try {
      claims = (await jwtVerify(hint, keys, { issuer, algorithms: [SIGNING_ALG] })).payload;
    } catch (error) {
      // The signature was checked before the expiry: an expired hint still names its session.
      if (!(error instanceof errors.JWTExpired)) throw oauthError('invalid_request', 'The id_token_hint is not an ID token of this provider.', { parameter: 'id_token_hint' });
      claims = error.payload;
    }
    const audience = Array.isArray(claims.aud) ? claims.aud[0] : claims.aud;
    if (typeof audience !== 'string' || (clientId !== undefined && clientId !== audience)) {
      throw oauthError('invalid_request', 'The id_token_hint was issued to another client.', { parameter: 'id_token_hint' });
    }
    return claims;
  }

  /** The registered post-logout URI of `clientId`, or invalid_request; undefined when none was asked for. */
  private async returnUri(clientId: string | undefined, asked: string | undefined): Promise<string | undefined> {
    if (asked === undefined) return undefined;
    const client = clientId ? await this.clients.row(clientId) : undefined;
    if (!client || !client.post_logout_redirect_uris.includes(asked)) {
      throw oauthError('invalid_request', 'The post_logout_redirect_uri is not registered for this client.', { parameter: 'post_logout_redirect_uri' });
    }
    return asked;
  }

  async endSession(params: Record<string, string | undefined>, issuer: string, cookieSession: string | undefined, confirmed: boolean): Promise<LogoutOutcome> {
    const hint = params.id_token_hint;
    const claims = hint ? await this.hintClaims(hint, issuer, params.client_id) : undefined;
    const clientId = claims ? (Array.isArray(claims.aud) ? claims.aud[0] : claims.aud) : params.client_id;
    const back = await this.returnUri(clientId, params.post_logout_redirect_uri);
    const projectId = clientId ? (await this.clients.row(clientId))?.project_id : undefined;
    const done = (): LogoutOutcome => (back ? { kind: 'redirect', location: withParams(back, { state: params.state }) } : { kind: 'signed_out', projectId });
    if (claims) {
      const sid = typeof claims.sid === 'string' ? claims.sid : undefined;
      if (sid && projectId) await this.sessions.delete(projectId, sid, { actor: typeof claims.sub === 'string' ? self(claims.sub) : SYSTEM, reason: 'logout' }).catch(() => false);
      return done();
    }
    if (!confirmed) {
      const kept: Record<string, string> = {};
      for (const name of ['client_id', 'post_logout_redirect_uri', 'state', 'ui_locales'] as const) if (params[name] !== undefined) kept[name] = params[name]!;
      return { kind: 'confirm', params: kept, projectId };
    }
    if (cookieSession && cookieSession.length <= 512) await this.sessions.deleteByToken(cookieSession);
    return done();
  }
}
