import { AppError } from '../core/errors.js';
import { deliver } from '../core/outbound.js';
import type { OutboundPolicy } from '../core/outbound-target.js';

export interface RemoteSchemaOptions {
  /** URL prefixes that may be fetched (`https://schemas.example.com/`); empty means fetching is off. */
  allow: string[];
  timeoutMs: number;
  maxBytes: number;
}

export const REMOTE_DEFAULTS: RemoteSchemaOptions = { allow: [], timeoutMs: 3000, maxBytes: 256 * 1024 };

function refused(url: string, reason: string): AppError {
  return new AppError('sch.invalid', 'The schema URL cannot be used.', { errors: [{ path: 'schema', message: reason }], url });
}

/**
 * Fetches user schemas named by URL. Off unless an allow-list is configured, because fetching
 * arbitrary URLs from the server would let any caller probe the server's network (SSRF).
 * Redirects are refused for the same reason: they could leave the allow-list. The request goes
 * through the SSRF-safe outbound client (src/core/outbound.ts): a listed host that is, or resolves
 * to, a private, loopback or link-local address is refused before any connection unless `outbound`
 * allows it, and the socket is pinned to the addresses checked (no DNS rebinding). One deadline
 * covers the exchange, body included, and reading stops at the size limit.
 */
export class RemoteSchemaFetcher {
  constructor(
    private readonly options: RemoteSchemaOptions,
    private readonly outbound: OutboundPolicy = {},
  ) {}

  get enabled(): boolean {
    return this.options.allow.length > 0;
  }

  allows(url: string): boolean {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return false;
    }
    if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return false;
    if (parsed.username || parsed.password) return false;
    const normalised = parsed.toString();
    return this.options.allow.some((prefix) => normalised.startsWith(prefix));
  }

  async fetch(url: string): Promise<Record<string, unknown>> {
    if (!this.enabled) throw refused(url, 'fetching remote schemas is disabled on this server');
    if (!this.allows(url)) throw refused(url, 'the URL is not on the allow-list of this server');
    const { timeoutMs, maxBytes } = this.options;
    const result = await deliver({
      url,
      method: 'GET',
      headers: { accept: 'application/schema+json, application/json', 'user-agent': 'Gatehouse-Schemas/1' },
      ...this.outbound,
      // The allow-list decides the scheme; the policy decides which addresses are reached.
      requireHttps: false,
      refuseFragment: false,
      timeoutMs,
      maxResponseBytes: maxBytes,
    });
    const tooLarge = () => refused(url, `the schema is larger than ${maxBytes} bytes`);
    if (result.status === undefined) {
      if (result.reason === 'timeout') throw refused(url, `no answer within ${timeoutMs} ms`);
      if (result.reason === 'private_address') throw refused(url, `the URL could not be fetched: its host is not a public address (${result.error})`);
      throw refused(url, 'the URL could not be fetched');
    }
    if (result.reason === 'redirect') throw refused(url, `the URL could not be fetched: it answered a redirect (${result.status}), which is not followed`);
    if (!result.ok) throw refused(url, `the server answered ${result.status}`);
    if (result.truncated || Number(result.headers?.get('content-length') ?? '0') > maxBytes) throw tooLarge();
    if (result.bodyIncomplete === 'timeout') throw refused(url, `no answer within ${timeoutMs} ms`);
    if (result.bodyIncomplete) throw refused(url, 'the response could not be read');
    let document: unknown;
    try {
      document = JSON.parse(result.responseBody ?? '');
    } catch {
      throw refused(url, 'the response is not JSON');
    }
    if (typeof document !== 'object' || document === null || Array.isArray(document)) throw refused(url, 'the response is not a JSON object');
    return document as Record<string, unknown>;
  }
}
