import { isLoopbackHost } from '../core/public-url.js';
import { deliver } from '../webhooks/target.js';

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
 * GETs a metadata URL through the webhooks' SSRF-safe client (src/webhooks/target.ts): the host is
 * resolved once and the socket pinned to the checked addresses, so an operator-given URL never
 * reaches a private, link-local (cloud metadata) or rebound address. The one exception is the
 * documented development case of `metadataUrlProblem`, a loopback host by name or literal. No
 * redirect is followed, one deadline, at most 1 MiB.
 */
export const fetchMetadata: MetadataFetcher = async (url) => {
  const result = await deliver({
    url,
    method: 'GET',
    headers: { accept: 'application/samlmetadata+xml, application/xml, text/xml', 'user-agent': 'Gatehouse-SAML/1' },
    allowPrivate: isLoopbackHost(new URL(url).hostname),
    timeoutMs: METADATA_TIMEOUT_MS,
    maxResponseBytes: METADATA_MAX_BYTES,
  });
  if (result.truncated) throw new Error('is larger than 1 MiB');
  if (!result.ok) throw new Error(result.reason === 'http_status' || result.reason === 'redirect' ? `answered HTTP ${result.status}` : (result.error ?? 'no answer'));
  return result.responseBody ?? '';
};
