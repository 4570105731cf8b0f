import { errorFromFailure, errorFromResponse, GatehouseError } from '@gatehouse/client';

export interface ServiceKey {
  /** `key_…` (or the project id for the project's root client) */
  clientId: string;
  /** `gh_sk_…` (or the project secret) */
  clientSecret: string;
}

/** Refresh this long before the access token's end, so a call never leaves with a token about to lapse. */
const EARLY_MS = 30_000;

/**
 * A service key's access token (client credentials, `POST /auth/token`), kept until shortly before
 * it expires and fetched once for concurrent callers. `invalidate()` drops it (after a 401).
 */
export class ServiceToken {
  #token: { value: string; until: number } | undefined;
  #pending: Promise<string> | undefined;

  constructor(
    private readonly baseUrl: string,
    private readonly key: ServiceKey,
    private readonly now: () => number,
    private readonly fetchImpl?: (request: Request) => Promise<Response>,
    private readonly timeoutMs?: number,
  ) {}

  async get(): Promise<string> {
    if (this.#token && this.now() < this.#token.until) return this.#token.value;
    this.#pending ??= this.#fetch().finally(() => {
      this.#pending = undefined;
    });
    return this.#pending;
  }

  invalidate(): void {
    this.#token = undefined;
  }

  async #fetch(): Promise<string> {
    // The token endpoint reads forms (RFC 6749 §2.3.1: Basic with form-encoded id and secret).
    const basic = Buffer.from(`${encodeURIComponent(this.key.clientId)}:${encodeURIComponent(this.key.clientSecret)}`).toString('base64');
    const request = new Request(`${this.baseUrl}/auth/token`, {
      method: 'POST',
      headers: { authorization: `Basic ${basic}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=client_credentials',
      signal: AbortSignal.timeout(this.timeoutMs ?? 10_000),
    });
    let response: Response;
    try {
      response = await (this.fetchImpl ?? fetch)(request);
    } catch (error) {
      throw errorFromFailure(error, request.signal.aborted);
    }
    const body = (await response.json().catch(() => undefined)) as { access_token?: unknown; expires_in?: unknown } | undefined;
    if (!response.ok) throw errorFromResponse(response, body);
    if (typeof body?.access_token !== 'string' || typeof body.expires_in !== 'number') {
      throw new GatehouseError({ kind: 'api', code: 'internal', status: response.status, message: 'The token endpoint answered without an access token.' });
    }
    this.#token = { value: body.access_token, until: this.now() + Math.max(0, body.expires_in * 1000 - EARLY_MS) };
    return body.access_token;
  }
}
