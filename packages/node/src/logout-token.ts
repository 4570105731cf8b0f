import { createRemoteJWKSet, jwtVerify, type JWTPayload } from 'jose';

const EVENT = 'http://schemas.openid.net/event/backchannel-logout';
/** Logout tokens older than this are refused (Back-Channel Logout 1.0 §2.6: "recent"). */
const MAX_AGE_SECONDS = 300;

export interface LogoutTokenOptions {
  /** Gatehouse's issuer (its GATEHOUSE_PUBLIC_URL) */
  issuer: string;
  /** the OIDC client the token must be addressed to */
  clientId: string;
  /** where the signing keys are (default `${issuer}/auth/jwks`) */
  jwksUrl?: string;
  now?: () => number;
}

/**
 * Verifies OpenID Connect Back-Channel Logout tokens (§2.6): signature against Gatehouse's JWKS,
 * `typ: logout+jwt`, issuer, audience, a recent `iat`, the back-channel event, `sid` or `sub`, no
 * `nonce`, and a `jti` not seen before (replays within the age limit are refused).
 */
export class LogoutTokenVerifier {
  readonly #jwks: ReturnType<typeof createRemoteJWKSet>;
  readonly #seen = new Map<string, number>();
  readonly #now: () => number;

  constructor(private readonly options: LogoutTokenOptions) {
    this.#jwks = createRemoteJWKSet(new URL(options.jwksUrl ?? `${options.issuer.replace(/\/+$/, '')}/auth/jwks`));
    this.#now = options.now ?? Date.now;
  }

  /** The session (`sid`) and user (`sub`) to sign out; throws on any invalid token. */
  async verify(token: string): Promise<{ sid?: string; sub?: string }> {
    if (typeof token !== 'string' || token.length > 8192) throw new Error('not a logout token');
    const nowSeconds = Math.floor(this.#now() / 1000);
    const { payload, protectedHeader } = await jwtVerify(token, this.#jwks, {
      issuer: this.options.issuer,
      audience: this.options.clientId,
      typ: 'logout+jwt',
      maxTokenAge: MAX_AGE_SECONDS,
      currentDate: new Date(this.#now()),
    });
    if (protectedHeader.typ !== 'logout+jwt') throw new Error('not a logout token (typ)');
    check(payload);
    const jti = payload.jti!;
    for (const [seen, until] of this.#seen) if (until < nowSeconds) this.#seen.delete(seen);
    if (this.#seen.has(jti)) throw new Error('logout token replayed');
    this.#seen.set(jti, nowSeconds + MAX_AGE_SECONDS);
    return { ...(typeof payload.sid === 'string' ? { sid: payload.sid } : {}), ...(typeof payload.sub === 'string' ? { sub: payload.sub } : {}) };
  }
}

function check(payload: JWTPayload): void {
  const events = payload.events as Record<string, unknown> | undefined;
  if (!events || typeof events !== 'object' || typeof events[EVENT] !== 'object' || events[EVENT] === null) throw new Error('logout token without the back-channel logout event');
  if (payload.nonce !== undefined) throw new Error('a logout token must not carry a nonce');
  if (typeof payload.sid !== 'string' && typeof payload.sub !== 'string') throw new Error('logout token names neither sid nor sub');
  if (typeof payload.jti !== 'string' || payload.jti.length === 0) throw new Error('logout token without jti');
}
