import { AppError } from '../core/errors.js';

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
 * Redirects are refused for the same reason: they could leave the allow-list.
 */
export class RemoteSchemaFetcher {
  constructor(private readonly options: RemoteSchemaOptions) {}

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
    let response: Response;
    try {
      response = await fetch(url, {
        redirect: 'error',
        headers: { accept: 'application/schema+json, application/json' },
        signal: AbortSignal.timeout(this.options.timeoutMs),
      });
    } catch (error) {
      const timedOut = error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
      throw refused(url, timedOut ? `no answer within ${this.options.timeoutMs} ms` : 'the URL could not be fetched');
    }
    if (!response.ok) {
      await response.body?.cancel().catch(() => {});
      throw refused(url, `the server answered ${response.status}`);
    }
    const text = await this.readCapped(response, url);
    let document: unknown;
    try {
      document = JSON.parse(text);
    } catch {
      throw refused(url, 'the response is not JSON');
    }
    if (typeof document !== 'object' || document === null || Array.isArray(document)) throw refused(url, 'the response is not a JSON object');
    return document as Record<string, unknown>;
  }

  /** Reads the body but stops as soon as it passes the size limit, whatever Content-Length claims. */
  private async readCapped(response: Response, url: string): Promise<string> {
    const declared = Number(response.headers.get('content-length') ?? '0');
    const tooLarge = () => refused(url, `the schema is larger than ${this.options.maxBytes} bytes`);
    if (declared > this.options.maxBytes) {
      await response.body?.cancel().catch(() => {});
      throw tooLarge();
    }
    if (!response.body) return '';
    const chunks: Buffer[] = [];
    let size = 0;
    const reader = response.body.getReader();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        size += value.byteLength;
        if (size > this.options.maxBytes) {
          await reader.cancel().catch(() => {});
          throw tooLarge();
        }
        chunks.push(Buffer.from(value));
      }
    } catch (error) {
      if (error instanceof AppError) throw error;
      throw refused(url, 'the response could not be read');
    }
    return Buffer.concat(chunks).toString('utf8');
  }
}
