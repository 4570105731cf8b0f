import { deliver } from '../core/outbound.js';
import type { OutboundPolicy } from '../core/outbound-target.js';
import { isLoopbackHost } from '../core/public-url.js';

/** How long fetching IdP metadata may take, and how large it may be. */
export const METADATA_TIMEOUT_MS = 5_000;
export const METADATA_MAX_BYTES = 1024 * 1024;
/** Metadata fetched from a URL is used for a day, then fetched again (certificates roll over). */
export const METADATA_REFRESH_MS = 24 * 3_600_000;

/** Reads a metadata URL: the document, or throws an Error whose message says why not. */
export type MetadataFetcher = (url: string) => Promise<string>;

/** A metadata URL must be https, or http on a loopback host (development); no credentials in it. */
export function metadataUrlProblem(raw: string): string | undefined {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'is not a URL';
  }
  if (url.username !== '' || url.password !== '') return 'must not hold credentials';
  if (url.protocol === 'https:') return undefined;
  if (url.protocol === 'http:' && isLoopbackHost(url.hostname)) return undefined;
  return 'must be https (http only on a loopback host)';
}

/**
 * GETs metadata URLs through the SSRF-safe outbound client (src/core/outbound.ts): the host is
 * resolved once and the socket pinned to the checked addresses, so a URL never reaches a private,
 * link-local (cloud metadata) or rebound address. A loopback host is reached only as `policy`
 * says: on a development machine (a loopback public URL) or with the operator's opt-in
 * (GATEHOUSE_OUTBOUND_ALLOW_PRIVATE=1). No redirect is followed, one deadline, at most 1 MiB.
 */
export function metadataFetcher(policy: OutboundPolicy): MetadataFetcher {
  return async (url) => {
    const result = await deliver({
      url,
      method: 'GET',
      headers: { accept: 'application/samlmetadata+xml, application/xml, text/xml', 'user-agent': 'Gatehouse-SAML/1' },
      ...policy,
      // `metadataUrlProblem` decides which URLs are http; the policy, which hosts are reached.
      requireHttps: false,
      timeoutMs: METADATA_TIMEOUT_MS,
      maxResponseBytes: METADATA_MAX_BYTES,
    });
    if (result.truncated) throw new Error('is larger than 1 MiB');
    if (!result.ok) throw new Error(result.reason === 'http_status' || result.reason === 'redirect' ? `answered HTTP ${result.status}` : (result.error ?? 'no answer'));
    if (result.bodyIncomplete) throw new Error(result.error ?? 'ended early');
    return result.responseBody ?? '';
  };
}
