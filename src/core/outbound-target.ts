import { lookup, type LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import { isLoopbackHost } from './public-url.js';

/**
 * Which hosts an outbound call may reach (webhooks, back-channel logout, upstream SSO, SAML
 * metadata, remote schemas: every URL an operator or a tenant names). The host is resolved once,
 * every address must be public unicast, and the socket is pinned to the checked addresses
 * (`pinnedLookup`), so a DNS answer that changes between the check and the connect (rebinding) is
 * never asked for. The delivery itself is `deliver` (./outbound.ts); a fetch-shaped adapter is
 * `outboundFetch` (./outbound-fetch.ts).
 */

/**
 * The one rule for private targets. Private, loopback, link-local (cloud metadata), CGNAT … addresses
 * are reached only when the operator opts in (`allowPrivate`: GATEHOUSE_OUTBOUND_ALLOW_PRIVATE=1,
 * or its older name GATEHOUSE_WEBHOOK_ALLOW_PRIVATE=1), or when the target is a loopback host while
 * the service's own public URL is one too (`allowLoopback`: a development machine). In production
 * (a public URL that is not loopback) nothing private is reached without the opt-in.
 */
export interface OutboundPolicy {
  /** the operator's opt-in: private, loopback, link-local … addresses, and plain http anywhere */
  allowPrivate?: boolean;
  /** the public URL is on a loopback host: loopback hosts (by name, resolving to loopback addresses only) may be reached, over http too */
  allowLoopback?: boolean;
}

/** The policy of this process's configuration. */
export function outboundPolicy(config: { publicUrl: string; outboundAllowPrivate?: boolean }): OutboundPolicy {
  let loopback = false;
  try {
    loopback = isLoopbackHost(new URL(config.publicUrl).hostname);
  } catch {
    // an unparsable public URL (refused at start-up anyway) is not a development machine
  }
  return { allowPrivate: config.outboundAllowPrivate === true, allowLoopback: loopback };
}

export type TargetRefusal = 'invalid_url' | 'https_required' | 'userinfo' | 'fragment' | 'private_address' | 'dns_failure';

export class OutboundTargetError extends Error {
  override readonly name = 'OutboundTargetError';
  constructor(
    readonly reason: TargetRefusal,
    message: string,
  ) {
    super(message);
  }
}

export interface TargetOptions extends OutboundPolicy {
  /** refuse plain http unless the policy allows the host (webhooks; default true) */
  requireHttps?: boolean;
  /** refuse a URL with a fragment (webhooks; default true); fetch-shaped callers drop it instead */
  refuseFragment?: boolean;
}

const MAX_URL_LENGTH = 2048;

function parse(address: string): ipaddr.IPv4 | ipaddr.IPv6 | undefined {
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.parse(address);
  } catch {
    return undefined;
  }
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  return parsed;
}

/**
 * Whether an outbound call may go to this address: only ipaddr.js's `unicast` range (so not private,
 * loopback, link-local, CGNAT, unique-local, unspecified, multicast, broadcast, reserved, NAT64 …).
 * IPv4-mapped IPv6 addresses (`::ffff:10.0.0.1`) are judged as the IPv4 address they carry.
 */
export function addressAllowed(address: string): boolean {
  const parsed = parse(address);
  if (parsed === undefined) return false;
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).parts.slice(0, 6).every((part) => part === 0)) return false; // ::/96, IPv4-compatible
  return parsed.range() === 'unicast';
}

/** 127.0.0.0/8 and ::1 (also as `::ffff:127.x.y.z`). */
export function isLoopbackAddress(address: string): boolean {
  return parse(address)?.range() === 'loopback';
}

/** The host as a resolver or socket takes it (`[::1]` -> `::1`). */
export function bareHost(url: URL): string {
  return url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
}

/** Whether the policy lets this URL's host be a loopback target (the development case). */
function devLoopback(url: URL, options: OutboundPolicy): boolean {
  return options.allowLoopback === true && isLoopbackHost(url.hostname);
}

/** Whether `address`, one of `url`'s, may be connected to under `options`. */
function addressPermitted(url: URL, address: string, options: OutboundPolicy): boolean {
  return options.allowPrivate === true || addressAllowed(address) || (devLoopback(url, options) && isLoopbackAddress(address));
}

/**
 * Checks a target URL's shape (a webhook's at registration, 400, and before every call):
 * absolute http(s), https unless the policy allows the host (or `requireHttps` is false), no
 * user:password, no fragment; a literal IP host is judged here already. Returns the parsed URL;
 * throws `OutboundTargetError`.
 */
export function checkTargetUrl(url: string, options: TargetOptions = {}): URL {
  let parsed: URL;
  try {
    if (url.length > MAX_URL_LENGTH) throw new Error('too long');
    parsed = new URL(url);
  } catch {
    throw new OutboundTargetError('invalid_url', 'not an absolute URL of at most 2048 characters');
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') throw new OutboundTargetError('invalid_url', 'only http(s) URLs are targets');
  if (parsed.protocol !== 'https:' && options.requireHttps !== false && !options.allowPrivate && !devLoopback(parsed, options)) {
    throw new OutboundTargetError('https_required', 'targets must use https');
  }
  if (parsed.username !== '' || parsed.password !== '') throw new OutboundTargetError('userinfo', 'target URLs must not carry a user name or password');
  if (parsed.href.includes('#')) {
    if (options.refuseFragment !== false) throw new OutboundTargetError('fragment', 'target URLs must not carry a fragment');
    parsed.hash = '';
  }
  if (parsed.hostname === '') throw new OutboundTargetError('invalid_url', 'the URL has no host');
  const host = bareHost(parsed);
  if (ipaddr.isValid(host) && !addressPermitted(parsed, host, options)) {
    throw new OutboundTargetError('private_address', `${host} is not a public address`);
  }
  return parsed;
}

/**
 * `checkTargetUrl` as a registration answers with it (a client's back-channel logout URI, an upstream
 * provider's issuer): undefined when the URL may be a target, else why not, for a 400's field
 * message. Shape and literal IP hosts only, no DNS, so registering never waits on the network; a name
 * that resolves to a private address is refused when it is called.
 */
export function targetUrlProblem(url: string, options: TargetOptions = {}): string | undefined {
  try {
    checkTargetUrl(url, options);
    return undefined;
  } catch (error) {
    if (error instanceof OutboundTargetError) return `is refused by the outbound policy: ${error.reason}: ${error.message}`;
    throw error;
  }
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
    throw new OutboundTargetError('dns_failure', `could not resolve ${host}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
  if (addresses.length === 0) throw new OutboundTargetError('dns_failure', `${host} has no address`);
  const refused = addresses.find((entry) => !addressPermitted(parsed, entry.address, options));
  if (refused) throw new OutboundTargetError('private_address', `${host} resolves to ${refused.address}, not a public address`);
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
