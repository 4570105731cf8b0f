import { request as httpRequest, type IncomingMessage, type OutgoingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { bareHost, OutboundTargetError, pinnedLookup, resolveTarget, type OutboundPolicy, type ResolvedTarget, type TargetRefusal } from './outbound-target.js';

/**
 * The SSRF-safe outbound call (docs/design/events.md §3), for every URL an operator or a tenant
 * names: webhooks, back-channel logout, SAML metadata, remote schemas and, through
 * `outboundFetch`, upstream SSO. The target's host is resolved once and every address checked
 * (./outbound-target.ts, `OutboundPolicy` says when a private one may be reached); the connection
 * goes to exactly those addresses, with the original host kept for `Host` and TLS SNI. No redirect
 * is followed, the whole exchange has one deadline, and at most `maxResponseBytes` of the answer
 * are read.
 */

export type DeliveryFailure = TargetRefusal | 'timeout' | 'aborted' | 'redirect' | 'http_status' | 'network';

export interface DeliverInput extends OutboundPolicy {
  url: string;
  /** POST (a delivery, the default), GET (a document, e.g. SAML metadata: no body is sent) or another method */
  method?: string;
  /** the Standard Webhooks headers (and any other); content-type defaults to application/json when a body is sent */
  headers: Readonly<Record<string, string>>;
  body?: string | Uint8Array;
  /** refuse plain http unless the policy allows the host (default true: webhooks) */
  requireHttps?: boolean;
  /** refuse a URL with a fragment (default true: webhooks); false drops it, as fetch does */
  refuseFragment?: boolean;
  /** one deadline for the whole exchange, resolution included */
  timeoutMs?: number;
  maxResponseBytes?: number;
  /** ends the exchange early (reason `aborted`) */
  signal?: AbortSignal;
}

export interface DeliveryResult {
  /** a 2xx answer */
  ok: boolean;
  status?: number;
  statusText?: string;
  /** the answer's headers (as received, repeated ones kept) */
  headers?: Headers;
  /** why not ok (or what went wrong after a 2xx was received) */
  error?: string;
  reason?: DeliveryFailure;
  /** an answer was received but its body did not end: the deadline passed, or the connection broke */
  bodyIncomplete?: 'timeout' | 'network';
  durationMs: number;
  /** the first `maxResponseBytes` of the answer (utf-8), for the delivery log */
  responseBody?: string;
  /** the same bytes, undecoded */
  responseBytes?: Buffer;
  /** whether the answer was longer than that and was cut off */
  truncated?: boolean;
}

/** Sends one request (a webhook's POST, a document's GET …). Never throws: every failure is an `ok: false` result with a reason. */
export async function deliver(input: DeliverInput): Promise<DeliveryResult> {
  const started = performance.now();
  const timeoutMs = input.timeoutMs ?? 10_000;
  const elapsed = () => Math.round(performance.now() - started);
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  let target: ResolvedTarget;
  try {
    if (input.signal?.aborted) throw new Error('aborted');
    target = await Promise.race([
      resolveTarget(input.url, input),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error('timeout')), timeoutMs);
        onAbort = () => reject(new Error('aborted'));
        input.signal?.addEventListener('abort', onAbort, { once: true });
      }),
    ]);
  } catch (error) {
    if (error instanceof OutboundTargetError) return { ok: false, reason: error.reason, error: error.message, durationMs: elapsed() };
    if ((error as Error).message === 'aborted') return { ok: false, reason: 'aborted', error: 'aborted by the caller (resolving the host)', durationMs: elapsed() };
    return { ok: false, reason: 'timeout', error: `no answer within ${timeoutMs} ms (resolving the host)`, durationMs: elapsed() };
  } finally {
    clearTimeout(timer);
    if (onAbort) input.signal?.removeEventListener('abort', onAbort);
  }
  const outcome = await send(target, input, Math.max(1, timeoutMs - elapsed()), timeoutMs);
  return { ...outcome, durationMs: elapsed() };
}

type SendInput = Omit<DeliverInput, 'url' | keyof OutboundPolicy | 'requireHttps' | 'refuseFragment'>;

/**
 * The request half of `deliver`: sends to a target that `resolveTarget` has resolved and checked,
 * connecting only to its addresses. Never throws.
 */
export async function deliverResolved(target: ResolvedTarget, input: SendInput): Promise<DeliveryResult> {
  const started = performance.now();
  const timeoutMs = input.timeoutMs ?? 10_000;
  const outcome = await send(target, input, timeoutMs, timeoutMs);
  return { ...outcome, durationMs: Math.round(performance.now() - started) };
}

type Outcome = Omit<DeliveryResult, 'durationMs'>;

function send(target: ResolvedTarget, input: SendInput, remainingMs: number, timeoutMs: number): Promise<Outcome> {
  const maxBytes = input.maxResponseBytes ?? 64 * 1024;
  const method = (input.method ?? 'POST').toUpperCase();
  const bodyless = method === 'GET' || method === 'HEAD';
  const body = bodyless ? undefined : typeof input.body === 'string' ? Buffer.from(input.body ?? '', 'utf8') : (input.body ?? Buffer.alloc(0));
  const given = new Set(Object.keys(input.headers).map((name) => name.toLowerCase()));
  const headers: OutgoingHttpHeaders = {
    ...(body && input.body !== undefined && !given.has('content-type') ? { 'content-type': 'application/json' } : {}),
    ...(!given.has('user-agent') ? { 'user-agent': 'Gatehouse-Webhooks/1' } : {}),
    ...input.headers,
    ...(body ? { 'content-length': body.byteLength } : {}),
  };
  return new Promise<Outcome>((resolve) => {
    let settled = false;
    let request: ReturnType<typeof httpRequest> | undefined;
    let timer: NodeJS.Timeout | undefined;
    let answer: Outcome | undefined;
    const chunks: Buffer[] = [];
    let received = 0;
    const onAbort = () => {
      if (answer) finish(withBody(false, 'aborted by the caller while the body was read', 'network'));
      else finish({ ok: false, reason: 'aborted', error: 'aborted by the caller' });
    };
    const finish = (result: Outcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      input.signal?.removeEventListener('abort', onAbort);
      request?.destroy();
      resolve(result);
    };
    const withBody = (truncated: boolean, error?: string, incomplete?: 'timeout' | 'network'): Outcome => {
      const bytes = Buffer.concat(chunks);
      return {
        ...answer!,
        ...(error && !answer!.error ? { error } : {}),
        ...(incomplete ? { bodyIncomplete: incomplete } : {}),
        responseBody: bytes.toString('utf8'),
        responseBytes: bytes,
        truncated,
      };
    };
    timer = setTimeout(() => {
      if (answer) finish(withBody(false, `the answer's body did not end within ${timeoutMs} ms`, 'timeout'));
      else finish({ ok: false, reason: 'timeout', error: `no answer within ${timeoutMs} ms` });
    }, remainingMs);
    if (input.signal?.aborted) return onAbort();
    input.signal?.addEventListener('abort', onAbort, { once: true });
    const onResponse = (response: IncomingMessage) => {
      const status = response.statusCode ?? 0;
      const common = { status, statusText: response.statusMessage ?? '', headers: headersOf(response.rawHeaders) };
      if (status >= 200 && status < 300) answer = { ok: true, ...common };
      else if (status >= 300 && status < 400) answer = { ok: false, ...common, reason: 'redirect', error: `redirect (${status}) not followed` };
      else answer = { ok: false, ...common, reason: 'http_status', error: `HTTP ${status}` };
      response.on('data', (chunk: Buffer) => {
        if (settled) return;
        if (received + chunk.length > maxBytes) {
          chunks.push(chunk.subarray(0, maxBytes - received));
          received = maxBytes;
          finish(withBody(true)); // stop reading: the socket is destroyed
          return;
        }
        chunks.push(chunk);
        received += chunk.length;
      });
      response.on('end', () => finish(withBody(false)));
      response.on('error', (error) => finish(withBody(false, `the answer's body broke off: ${errorText(error)}`, 'network')));
    };
    try {
      const { url } = target;
      request = (url.protocol === 'https:' ? httpsRequest : httpRequest)(
        {
          protocol: url.protocol,
          hostname: bareHost(url),
          port: url.port === '' ? undefined : Number(url.port),
          path: `${url.pathname}${url.search}`,
          method,
          headers,
          agent: false, // no pooled socket: each call connects to its own checked addresses
          lookup: pinnedLookup(target.addresses),
        },
        onResponse,
      );
      request.on('error', (error) => finish(answer ? withBody(false, errorText(error), 'network') : { ok: false, reason: 'network', error: errorText(error) }));
      request.end(body);
    } catch (error) {
      finish({ ok: false, reason: 'network', error: errorText(error) });
    }
  });
}

/** Node's raw header list as WHATWG `Headers`; a value `Headers` refuses is left out. */
function headersOf(raw: readonly string[]): Headers {
  const headers = new Headers();
  for (let i = 0; i + 1 < raw.length; i += 2) {
    try {
      headers.append(raw[i], raw[i + 1]);
    } catch {
      // not a valid header name or value for fetch: not passed on
    }
  }
  return headers;
}

function errorText(error: unknown): string {
  const { code, message } = error as NodeJS.ErrnoException;
  return code ? `${code}: ${message}` : String(message ?? error);
}
