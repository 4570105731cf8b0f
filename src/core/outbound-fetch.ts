import { deliver, type DeliveryFailure } from './outbound.js';
import type { OutboundPolicy } from './outbound-target.js';

/**
 * `fetch`'s shape over the SSRF-safe client (`deliver`), for libraries that make their own calls
 * and accept a custom fetch (openid-client's `customFetch`): the host is resolved once, every
 * address checked under the `OutboundPolicy`, the socket pinned to them. The answer is a real
 * `Response` (status, headers, body), so content-type checks work as with `fetch`. Unlike `fetch`,
 * no redirect is ever followed (a 3xx is returned as it is, as `redirect: 'manual'` does), one
 * deadline covers the exchange, and an answer longer than `maxResponseBytes` fails.
 */

export interface OutboundFetchOptions extends OutboundPolicy {
  /** the deadline of one request, unless the caller's signal ends it sooner (default 30 s) */
  timeoutMs?: number;
  /** the largest answer read; a longer one fails (default 1 MiB) */
  maxResponseBytes?: number;
  /** sent when the caller names none (default `Gatehouse/1`) */
  userAgent?: string;
}

/** A refused or failed request; a TypeError, as `fetch`'s network errors are. */
export class OutboundRequestError extends TypeError {
  override readonly name = 'OutboundRequestError';
  constructor(
    readonly code: DeliveryFailure | 'too_large',
    message: string,
  ) {
    super(message);
  }
}

/** fetch's options; a body may also be any Uint8Array (openid-client's `FetchBody`) */
export type OutboundFetchInit = Omit<RequestInit, 'body'> & { body?: RequestInit['body'] | Uint8Array; duplex?: 'half' };
export type OutboundFetch = (input: string | URL | Request, init?: OutboundFetchInit) => Promise<Response>;

const NULL_BODY_STATUSES = new Set([101, 204, 205, 304]);

export function outboundFetch(options: OutboundFetchOptions = {}): OutboundFetch {
  const maxResponseBytes = options.maxResponseBytes ?? 1024 * 1024;
  return async (input, init) => {
    // The Request normalises the URL, method, headers and body (with its content-type) as fetch would.
    const request = new Request(input, init as RequestInit);
    const signal = request.signal;
    const headers: Record<string, string> = { accept: '*/*', 'user-agent': options.userAgent ?? 'Gatehouse/1' };
    request.headers.forEach((value, name) => {
      headers[name] = value;
    });
    delete headers['accept-encoding']; // the body is passed on as received: ask for none
    const bodyless = request.method === 'GET' || request.method === 'HEAD' || request.body === null;
    const body = bodyless ? undefined : new Uint8Array(await request.arrayBuffer());
    const result = await deliver({
      url: request.url,
      method: request.method,
      headers,
      body,
      allowPrivate: options.allowPrivate,
      allowLoopback: options.allowLoopback,
      requireHttps: false,
      refuseFragment: false,
      timeoutMs: options.timeoutMs ?? 30_000,
      maxResponseBytes,
      signal,
    });
    if (signal.aborted && (result.reason === 'aborted' || result.bodyIncomplete)) throw signal.reason ?? new DOMException('This operation was aborted', 'AbortError');
    if (result.status === undefined) {
      if (result.reason === 'timeout') throw new DOMException(result.error ?? 'timed out', 'TimeoutError');
      throw new OutboundRequestError(result.reason ?? 'network', result.error ?? 'the request failed');
    }
    if (result.truncated) throw new OutboundRequestError('too_large', `the answer is larger than ${maxResponseBytes} bytes`);
    if (result.bodyIncomplete === 'timeout') throw new DOMException(result.error ?? 'timed out', 'TimeoutError');
    if (result.bodyIncomplete) throw new OutboundRequestError('network', result.error ?? "the answer's body broke off");
    const status = result.status;
    if (status < 200 || status > 599) throw new OutboundRequestError('network', `the answer's status ${status} is not usable`);
    const responseBody = NULL_BODY_STATUSES.has(status) || request.method === 'HEAD' ? null : new Uint8Array(result.responseBytes ?? []);
    try {
      return new Response(responseBody, { status, statusText: result.statusText, headers: result.headers });
    } catch {
      return new Response(responseBody, { status, headers: result.headers }); // a reason phrase fetch would not take
    }
  };
}
