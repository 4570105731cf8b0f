import { errorFromFailure, errorFromResponse } from './errors.js';

/** What the person needs to approve the device (RFC 8628 §3.2), handed to `onCode`. */
export interface DeviceCode {
  /** `XXXX-XXXX`: the person types it at `verification_uri` */
  user_code: string;
  verification_uri: string;
  /** `verification_uri` with the code filled in (a link, a QR code) */
  verification_uri_complete: string;
  /** seconds the code lives (600) */
  expires_in: number;
}

/** The token endpoint's answer (access token, refresh token when the client may have one, ID token with `openid`). */
export interface DeviceTokens {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  scope: string;
  refresh_token?: string;
  id_token?: string;
}

export interface DeviceLoginOptions {
  /** where Gatehouse answers, e.g. `https://id.example.com` */
  baseUrl: string;
  /** a registered client whose `grant_types` name `urn:ietf:params:oauth:grant-type:device_code` */
  clientId: string;
  /** only for a confidential client (sent as HTTP Basic) */
  clientSecret?: string;
  /** OIDC scopes, e.g. `openid profile offline_access` (default: the server's, `openid`) */
  scope?: string;
  /** e.g. `urn:nist:aal:2`: the sign-in at /ui/device must reach that level */
  acrValues?: string;
  /** shows the code to the person; by default printed to the console */
  onCode?: (code: DeviceCode) => void | Promise<void>;
  /** another fetch (tests, a proxy) */
  fetch?: (request: Request) => Promise<Response>;
  /** waits between polls (tests pass one that advances their clock) */
  sleep?: (ms: number) => Promise<void>;
  /** stops waiting: the promise rejects with the signal's reason */
  signal?: AbortSignal;
}

export const DEVICE_CODE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';

/** The default `onCode`: what to open and what to type, on the console. */
export function printDeviceCode(code: DeviceCode): void {
  console.log(`To sign in, open ${code.verification_uri} and enter the code ${code.user_code}\n(or open ${code.verification_uri_complete}). The code works for ${Math.round(code.expires_in / 60)} minutes.`);
}

const wait = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });

/**
 * Signs a person in on a device without a browser (a CLI, a TV): the OAuth 2.0 device
 * authorization grant (RFC 8628). Asks Gatehouse for a code, hands it to `onCode` (printed by
 * default), then polls the token endpoint every `interval` seconds, 5 more after each
 * `slow_down`, until the person approved (the token response), denied (`oauth.access_denied`) or
 * the code expired (`oauth.expired_token`); those and any other refusal throw a GatehouseError.
 *
 *     const tokens = await deviceLogin({ baseUrl: 'https://id.example.com', clientId: 'oc_…', scope: 'openid offline_access' });
 */
export async function deviceLogin(options: DeviceLoginOptions): Promise<DeviceTokens> {
  const base = options.baseUrl.replace(/\/+$/, '');
  const doFetch = options.fetch ?? ((request: Request) => fetch(request));
  const sleep = options.sleep ?? ((ms: number) => wait(ms, options.signal));
  const auth: Record<string, string> = options.clientSecret
    ? { authorization: `Basic ${btoa(`${encodeURIComponent(options.clientId)}:${encodeURIComponent(options.clientSecret)}`)}` }
    : {};
  const post = async (path: string, form: Record<string, string | undefined>): Promise<{ response: Response; body: unknown }> => {
    const params = new URLSearchParams();
    for (const [name, value] of Object.entries(form)) if (value !== undefined) params.set(name, value);
    if (!options.clientSecret) params.set('client_id', options.clientId);
    let response: Response;
    try {
      response = await doFetch(new Request(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json', ...auth }, body: params, signal: options.signal }));
    } catch (error) {
      throw errorFromFailure(error, false);
    }
    const body = await response.json().catch(() => undefined);
    return { response, body };
  };

  const started = await post('/auth/device_authorization', { scope: options.scope, acr_values: options.acrValues });
  if (!started.response.ok) throw errorFromResponse(started.response, started.body);
  const codes = started.body as DeviceCode & { device_code: string; interval?: number };
  await (options.onCode ?? printDeviceCode)({
    user_code: codes.user_code,
    verification_uri: codes.verification_uri,
    verification_uri_complete: codes.verification_uri_complete,
    expires_in: codes.expires_in,
  });
  let interval = Math.max(1, codes.interval ?? 5);
  for (;;) {
    // RFC 8628 §3.5: wait the interval before every request, the first included.
    await sleep(interval * 1000);
    if (options.signal?.aborted) throw options.signal.reason;
    const polled = await post('/auth/token', { grant_type: DEVICE_CODE_GRANT, device_code: codes.device_code });
    if (polled.response.ok) return polled.body as DeviceTokens;
    const error = errorFromResponse(polled.response, polled.body);
    if (error.code === 'oauth.authorization_pending') continue;
    if (error.code === 'oauth.slow_down') {
      // The server remembers the new interval for this code; it says which it is.
      const told = Number(error.details.interval);
      interval = Number.isFinite(told) && told > interval ? told : interval + 5;
      continue;
    }
    throw error;
  }
}
