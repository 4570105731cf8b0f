import { lookup, type LookupAddress } from 'node:dns';
import { request as httpRequest, type IncomingMessage, type OutgoingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * The SSRF-safe webhook call (docs/design/events.md §3). The target's host is resolved once; every
 * address must be public unicast (unless private targets are allowed, for development and tests),
 * and the connection goes to exactly those addresses (a pinned `lookup`), with the original host
 * kept for `Host` and TLS SNI: a DNS answer that changes between the check and the connect
 * (rebinding) is never asked for. No redirect is followed, the whole exchange has one deadline, and
 * at most `maxResponseBytes` of the answer are read.
 */

export type TargetRefusal = 'invalid_url' | 'https_required' | 'userinfo' | 'fragment' | 'private_address' | 'dns_failure';
export type DeliveryFailure = TargetRefusal | 'timeout' | 'redirect' | 'http_status' | 'network';

export class WebhookTargetError extends Error {
  override readonly name = 'WebhookTargetError';
  constructor(
    readonly reason: TargetRefusal,
    message: string,
  ) {
    super(message);
  }
}

export interface TargetOptions {
  /** allow http: and private, loopback, link-local … addresses (GATEHOUSE_WEBHOOK_ALLOW_PRIVATE=1) */
  allowPrivate?: boolean;
}

const MAX_URL_LENGTH = 2048;

/**
 * Whether a webhook may be sent to this address: only ipaddr.js's `unicast` range (so not private,
 * loopback, link-local, CGNAT, unique-local, unspecified, multicast, broadcast, reserved, NAT64 …).
 * IPv4-mapped IPv6 addresses (`::ffff:10.0.0.1`) are judged as the IPv4 address they carry.
 */
export function addressAllowed(address: string): boolean {
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.parse(address);
  } catch {
    return false;
  }
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).parts.slice(0, 6).every((part) => part === 0)) return false; // ::/96, IPv4-compatible
  return parsed.range() === 'unicast';
}

/** The host as a resolver or socket takes it (`[::1]` -> `::1`). */
function bareHost(url: URL): string {
  return url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
}

/**
 * Checks a webhook URL's shape (at registration, 400, and again before each delivery): absolute
 * http(s), https unless private targets are allowed, no user:password, no fragment; a literal IP
 * host is judged here already. Returns the parsed URL; throws `WebhookTargetError`.
 */
export function checkTargetUrl(url: string, options: TargetOptions = {}): URL {
  let parsed: URL;
  try {
    if (url.length > MAX_URL_LENGTH) throw new Error('too long');
    parsed = new URL(url);
  } catch {
    throw new WebhookTargetError('invalid_url', 'not an absolute URL of at most 2048 characters');
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') throw new WebhookTargetError('invalid_url', 'only http(s) URLs are webhook targets');
  if (parsed.protocol !== 'https:' && !options.allowPrivate) throw new WebhookTargetError('https_required', 'webhook targets must use https');
  if (parsed.username !== '' || parsed.password !== '') throw new WebhookTargetError('userinfo', 'webhook URLs must not carry a user name or password');
  if (parsed.href.includes('#')) throw new WebhookTargetError('fragment', 'webhook URLs must not carry a fragment');
  if (parsed.hostname === '') throw new WebhookTargetError('invalid_url', 'the URL has no host');
  const host = bareHost(parsed);
  if (!options.allowPrivate && ipaddr.isValid(host) && !addressAllowed(host)) {
    throw new WebhookTargetError('private_address', `${host} is not a public address`);
  }
  return parsed;
}

export interface ResolvedTarget {
  url: URL;
  /** every address the host resolved to, each one checked */
  addresses: LookupAddress[];
}

/** `checkTargetUrl`, then one DNS resolution whose every address must be allowed. */
export async function resolveTarget(url: string, options: TargetOptions = {}): Promise<ResolvedTarget> {
  const parsed = checkTargetUrl(url, options);
  const host = bareHost(parsed);
  let addresses: LookupAddress[];
  try {
    addresses = await new Promise<LookupAddress[]>((resolve, reject) =>
      lookup(host, { all: true }, (error, found) => (error ? reject(error) : resolve(found))),
    );
  } catch (error) {
    throw new WebhookTargetError('dns_failure', `could not resolve ${host}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
  if (addresses.length === 0) throw new WebhookTargetError('dns_failure', `${host} has no address`);
  if (!options.allowPrivate) {
    const refused = addresses.find((entry) => !addressAllowed(entry.address));
    if (refused) throw new WebhookTargetError('private_address', `${host} resolves to ${refused.address}, not a public address`);
  }
  return { url: parsed, addresses };
}

/** A socket `lookup` that answers only with the addresses already resolved and checked. */
export function pinnedLookup(addresses: readonly LookupAddress[]): LookupFunction {
  return (_hostname, options, callback) => {
    const family = options.family === 'IPv4' ? 4 : options.family === 'IPv6' ? 6 : options.family;
    const usable = addresses.filter((entry) => !family || entry.family === family);
    if (usable.length === 0) {
      callback(Object.assign(new Error('no checked address of the requested family'), { code: 'ENOTFOUND' }), '', 0);
    } else if (options.all) {
      callback(null, usable.map((entry) => ({ ...entry })));
    } else {
      callback(null, usable[0].address, usable[0].family);
    }
  };
}

export interface DeliverInput {
  url: string;
  /** POST (a delivery, the default) or GET (a document, e.g. SAML metadata: no body is sent) */
  method?: 'POST' | 'GET';
  /** the Standard Webhooks headers (and any other); content-type defaults to application/json */
  headers: Readonly<Record<string, string>>;
  body?: string | Uint8Array;
  allowPrivate?: boolean;
  /** one deadline for the whole exchange, resolution included */
  timeoutMs?: number;
  maxResponseBytes?: number;
}

export interface DeliveryResult {
  /** a 2xx answer */
  ok: boolean;
  status?: number;
  /** why not ok (or what went wrong after a 2xx was received) */
  error?: string;
  reason?: DeliveryFailure;
  durationMs: number;
  /** the first `maxResponseBytes` of the answer (utf-8), for the delivery log */
  responseBody?: string;
  /** whether the answer was longer than that and was cut off */
  truncated?: boolean;
}

/** Posts one delivery (or GETs one document). Never throws: every failure is an `ok: false` result with a reason. */
export async function deliver(input: DeliverInput): Promise<DeliveryResult> {
  const started = performance.now();
  const timeoutMs = input.timeoutMs ?? 10_000;
  const elapsed = () => Math.round(performance.now() - started);
  let timer: NodeJS.Timeout | undefined;
  let target: ResolvedTarget;
  try {
    target = await Promise.race([
      resolveTarget(input.url, { allowPrivate: input.allowPrivate }),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error('timeout')), timeoutMs);
      }),
    ]);
  } catch (error) {
    if (error instanceof WebhookTargetError) return { ok: false, reason: error.reason, error: error.message, durationMs: elapsed() };
    return { ok: false, reason: 'timeout', error: `no answer within ${timeoutMs} ms (resolving the host)`, durationMs: elapsed() };
  } finally {
    clearTimeout(timer);
  }
  const outcome = await send(target, input, Math.max(1, timeoutMs - elapsed()), timeoutMs);
  return { ...outcome, durationMs: elapsed() };
}

/**
 * The request half of `deliver`: posts to a target that `resolveTarget` has resolved and checked,
 * connecting only to its addresses. Never throws.
 */
export async function deliverResolved(target: ResolvedTarget, input: Omit<DeliverInput, 'url' | 'allowPrivate'>): Promise<DeliveryResult> {
  const started = performance.now();
  const timeoutMs = input.timeoutMs ?? 10_000;
  const outcome = await send(target, input, timeoutMs, timeoutMs);
  return { ...outcome, durationMs: Math.round(performance.now() - started) };
}

type Outcome = Omit<DeliveryResult, 'durationMs'>;

function send(target: ResolvedTarget, input: Omit<DeliverInput, 'url' | 'allowPrivate'>, remainingMs: number, timeoutMs: number): Promise<Outcome> {
  const maxBytes = input.maxResponseBytes ?? 64 * 1024;
  const method = input.method ?? 'POST';
  const body = method === 'GET' ? undefined : typeof input.body === 'string' ? Buffer.from(input.body ?? '', 'utf8') : (input.body ?? Buffer.alloc(0));
  const headers: OutgoingHttpHeaders = {
    ...(body ? { 'content-type': 'application/json' } : {}),
    'user-agent': 'Gatehouse-Webhooks/1',
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
    const finish = (result: Outcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      request?.destroy();
      resolve(result);
    };
    const withBody = (truncated: boolean, error?: string): Outcome => ({
      ...answer!,
      ...(error && !answer!.error ? { error } : {}),
      responseBody: Buffer.concat(chunks).toString('utf8'),
      truncated,
    });
    timer = setTimeout(() => {
      if (answer) finish(withBody(false, `the answer's body did not end within ${timeoutMs} ms`));
      else finish({ ok: false, reason: 'timeout', error: `no answer within ${timeoutMs} ms` });
    }, remainingMs);
    const onResponse = (response: IncomingMessage) => {
      const status = response.statusCode ?? 0;
      if (status >= 200 && status < 300) answer = { ok: true, status };
      else if (status >= 300 && status < 400) answer = { ok: false, status, reason: 'redirect', error: `redirect (${status}) not followed` };
      else answer = { ok: false, status, reason: 'http_status', error: `HTTP ${status}` };
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
      response.on('error', (error) => finish(withBody(false, `the answer's body broke off: ${errorText(error)}`)));
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
          agent: false, // no pooled socket: each delivery connects to its own checked addresses
          lookup: pinnedLookup(target.addresses),
        },
        onResponse,
      );
      request.on('error', (error) => finish(answer ? withBody(false, errorText(error)) : { ok: false, reason: 'network', error: errorText(error) }));
      request.end(body);
    } catch (error) {
      finish({ ok: false, reason: 'network', error: errorText(error) });
    }
  });
}

function errorText(error: unknown): string {
  const { code, message } = error as NodeJS.ErrnoException;
  return code ? `${code}: ${message}` : String(message ?? error);
}
