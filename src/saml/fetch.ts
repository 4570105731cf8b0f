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

/** `fetch` with a deadline, no redirects and a size cap. */
export const fetchMetadata: MetadataFetcher = async (url) => {
  const response = await fetch(url, { redirect: 'error', signal: AbortSignal.timeout(METADATA_TIMEOUT_MS), headers: { accept: 'application/samlmetadata+xml, application/xml, text/xml' } });
  if (!response.ok) throw new Error(`answered HTTP ${response.status}`);
  const declared = Number(response.headers.get('content-length') ?? '0');
  if (declared > METADATA_MAX_BYTES) throw new Error('is larger than 1 MiB');
  const reader = response.body?.getReader();
  if (!reader) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > METADATA_MAX_BYTES) {
      await reader.cancel();
      throw new Error('is larger than 1 MiB');
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
};
