import createClient from 'openapi-fetch';
import { errorFromFailure, errorFromResponse, GatehouseError } from './errors.js';
import type { paths } from './generated/openapi.js';

export interface GatehouseClientOptions {
  /** where Gatehouse answers, e.g. `https://id.example.com` */
  baseUrl: string;
  /** a bearer token (project secret, service-key access token, session token), or a function that gives the current one */
  token?: string | (() => string | undefined | Promise<string | undefined>);
  /** per-request timeout in milliseconds (default 10 000) */
  timeoutMs?: number;
  /** `include` in browsers that talk to Gatehouse on another origin (the flow cookie must travel) */
  credentials?: RequestCredentials;
  /** another fetch (tests, a cookie jar, instrumentation) */
  fetch?: (request: Request) => Promise<Response>;
}

/** What an openapi-fetch call resolves to. */
interface Outcome<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

/**
 * The typed client: `api` is openapi-fetch over the generated `paths` (every route, its parameters
 * and bodies type-checked); `call` turns an answer into its data or a thrown GatehouseError.
 *
 *     const gh = createGatehouseClient({ baseUrl, token: projectSecret });
 *     const user = await gh.call(gh.api.GET('/users/{id}', { params: { path: { id } } }));
 */
export function createGatehouseClient(options: GatehouseClientOptions) {
  const timeoutMs = options.timeoutMs ?? 10_000;
  const baseFetch = options.fetch ?? ((request: Request) => fetch(request));
  const timedFetch = async (request: Request): Promise<Response> => {
    // A timer of our own that holds its controller, and a race on it: Node's fetch can lose a
    // copied request's signal to garbage collection (nodejs/undici#4068), and a lost
    // AbortSignal.timeout() left a call hanging with no answer at all.
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(new DOMException('Gatehouse did not answer in time.', 'TimeoutError')), timeoutMs);
    (timer as { unref?: () => void }).unref?.();
    const expired = new Promise<never>((_resolve, reject) => {
      controller.signal.addEventListener('abort', () => reject(controller.signal.reason), { once: true });
    });
    expired.catch(() => undefined);
    try {
      return await Promise.race([baseFetch(new Request(request, { signal: controller.signal })), expired]);
    } catch (error) {
      clearTimeout(timer);
      // Failures are converted here, so no raw fetch rejection ever leaves the client.
      throw errorFromFailure(error, controller.signal.aborted);
    }
  };
  const api = createClient<paths>({ baseUrl: options.baseUrl.replace(/\/+$/, ''), fetch: timedFetch, credentials: options.credentials });
  const token = options.token;
  if (token !== undefined) {
    api.use({
      async onRequest({ request }) {
        const value = typeof token === 'function' ? await token() : token;
        if (value && !request.headers.has('authorization')) request.headers.set('authorization', `Bearer ${value}`);
        return request;
      },
    });
  }

  /** The data of a 2xx answer; anything else throws a GatehouseError (typed by code, with a retry hint). */
  async function call<T>(pending: Promise<Outcome<T>>): Promise<T> {
    let outcome: Outcome<T>;
    try {
      outcome = await pending;
    } catch (error) {
      throw error instanceof GatehouseError ? error : errorFromFailure(error, false);
    }
    if (!outcome.response.ok) throw errorFromResponse(outcome.response, outcome.error);
    return outcome.data as T;
  }

  return { api, call, baseUrl: options.baseUrl.replace(/\/+$/, '') };
}

export type GatehouseClient = ReturnType<typeof createGatehouseClient>;

/** The session resource (`GET /sessions/me`, `POST /sessions/exchange`). */
export type Session = paths['/sessions/me']['get']['responses'][200]['content']['application/json'];
