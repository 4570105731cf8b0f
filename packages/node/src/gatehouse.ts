import { createGatehouseClient, GatehouseError, type GatehouseClient, type Session } from '@gatehouse/client';
import { SessionCache } from './session-cache.js';
import { ServiceToken, type ServiceKey } from './service-token.js';

export interface GatehouseOptions {
  /** where Gatehouse answers, e.g. `http://localhost:8080` */
  baseUrl: string;
  projectId: string;
  /** a service key with `session.write` (handoff exchange) and whatever else the app manages */
  serviceKey?: ServiceKey;
  /**
   * How long a verified session is trusted without asking Gatehouse again (default 5000 ms; 0 asks
   * every time). This is the revocation bound: a session revoked in Gatehouse is refused here at
   * the latest this long afterwards.
   */
  sessionCacheMs?: number;
  /** per-request timeout (default 10 000 ms) */
  timeoutMs?: number;
  fetch?: (request: Request) => Promise<Response>;
  /** the clock (tests) */
  now?: () => number;
}

/** Session tokens are short printable strings; anything else is not one (and never reaches Gatehouse). */
const TOKEN = /^[A-Za-z0-9_\-.~]{8,512}$/;

/**
 * The server side of an app: trade handoff tokens for sessions with a service key, verify session
 * tokens (cached within the revocation bound), and call the management API as the service key.
 */
export class Gatehouse {
  /** the typed management client, authenticated as the service key (client credentials, refreshed) */
  readonly api: GatehouseClient;
  readonly options: GatehouseOptions;
  readonly #token: ServiceToken | undefined;
  readonly #sessions: SessionCache<Session>;
  readonly #public: GatehouseClient;
  readonly #now: () => number;

  constructor(options: GatehouseOptions) {
    this.options = options;
    this.#now = options.now ?? Date.now;
    const { baseUrl, timeoutMs, fetch } = options;
    this.#token = options.serviceKey ? new ServiceToken(baseUrl.replace(/\/+$/, ''), options.serviceKey, this.#now, fetch, timeoutMs) : undefined;
    const token = this.#token;
    this.api = createGatehouseClient({ baseUrl, timeoutMs, fetch, token: token ? () => token.get() : undefined });
    this.#public = createGatehouseClient({ baseUrl, timeoutMs, fetch });
    this.#sessions = new SessionCache<Session>(options.sessionCacheMs ?? 5_000, this.#now);
  }

  /**
   * Exchanges a one-time handoff token (from a completed flow or the hosted UI's redirect) for a
   * session and its token. Uses the service key's access token; fetches a new one once on 401.
   */
  async exchangeHandoff(handoffToken: string, options: { ttl?: string } = {}): Promise<{ session: Session; session_token: string }> {
    if (!this.#token) throw new Error('exchangeHandoff needs a serviceKey (with session.write).');
    const call = () =>
      this.api.call(
        this.api.api.POST('/sessions/exchange', {
          params: { query: { project_id: this.options.projectId } },
          body: { handoff_token: handoffToken, ...(options.ttl ? { ttl: options.ttl } : {}) },
        }),
      );
    try {
      return (await call()) as { session: Session; session_token: string };
    } catch (error) {
      if (!(error instanceof GatehouseError) || error.status !== 401) throw error;
      this.#token.invalidate();
      return (await call()) as { session: Session; session_token: string };
    }
  }

  /**
   * The active session a token names, or undefined (unknown, expired, revoked, malformed). Cached
   * for `sessionCacheMs`; Gatehouse being unreachable throws a GatehouseError (retryable).
   */
  async verifySession(token: string | undefined): Promise<Session | undefined> {
    if (typeof token !== 'string' || !TOKEN.test(token)) return undefined;
    const cached = this.#sessions.get(token);
    if (cached) return cached.value;
    let session: Session | undefined;
    try {
      session = await this.#public.call(this.#public.api.GET('/sessions/me', { headers: { authorization: `Bearer ${token}` } }));
    } catch (error) {
      if (!(error instanceof GatehouseError) || error.status !== 401) throw error;
      session = undefined;
    }
    const active = session && session.state === 'active' ? session : undefined;
    const endsAt = active?.expires_at ? Date.parse(active.expires_at) : undefined;
    this.#sessions.set(token, active, endsAt);
    return active;
  }

  /** Forgets every cached token of a session at once (a back-channel logout named it). */
  forgetSession(sessionId: string): void {
    this.#sessions.deleteWhere((session) => session.session_id === sessionId);
  }

  /** Drops a token from the cache (the app signed the user out). */
  forget(token: string): void {
    this.#sessions.delete(token);
  }
}
