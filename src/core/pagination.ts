import { decodeBase64url } from './base64.js';
import { AppError } from './errors.js';
import { digestsEqual, hmacBase64Url } from './crypto.js';

/**
 * Cursor pagination over (created_at, id) as DESIGN §4.7 describes. The cursor is opaque to
 * clients: base64url JSON plus an HMAC, so a tampered token is refused with 400 instead of
 * silently skipping rows.
 */
export const DEFAULT_LIMIT = 20;
export const MAX_LIMIT = 100;

export interface Cursor {
  createdAt: Date;
  id: string;
}

export interface PageRequest {
  limit?: number;
  pageToken?: string;
}

export interface Page<T> {
  items: T[];
  nextPageToken?: string;
}

export class Paginator {
  private readonly keys: readonly Buffer[];

  /** The first key signs; every key verifies, so tokens survive a GATEHOUSE_SECRET rotation. */
  constructor(keys: Buffer | readonly Buffer[]) {
    this.keys = Buffer.isBuffer(keys) ? [keys] : keys;
    if (this.keys.length === 0) throw new Error('Paginator needs at least one key');
  }

  encode(cursor: Cursor, scope: string): string {
    const body = Buffer.from(JSON.stringify([cursor.createdAt.toISOString(), cursor.id, scope])).toString('base64url');
    return `${body}.${hmacBase64Url(this.keys[0], body)}`;
  }

  /** `scope` binds a token to one list (and its filters) so it cannot be replayed against another. */
  decode(token: string, scope: string): Cursor {
    const [body, mac, extra] = token.split('.');
    const bad = () => new AppError('req.invalid', 'The page token is invalid.', { errors: [{ path: 'query/page_token', message: 'invalid page token' }] });
    if (!body || !mac || extra !== undefined || !this.keys.some((key) => digestsEqual(mac, hmacBase64Url(key, body)))) throw bad();
    // The MAC covers the body's text, so only a body this class wrote gets here; decoded strictly all the same.
    const bytes = decodeBase64url(body);
    if (!bytes) throw bad();
    let parsed: unknown;
    try {
      parsed = JSON.parse(bytes.toString('utf8'));
    } catch {
      throw bad();
    }
    if (!Array.isArray(parsed) || parsed.length !== 3 || parsed[2] !== scope) throw bad();
    const createdAt = new Date(String(parsed[0]));
    if (Number.isNaN(createdAt.getTime()) || typeof parsed[1] !== 'string') throw bad();
    return { createdAt, id: parsed[1] };
  }

  limitOf(request: PageRequest): number {
    return Math.min(Math.max(request.limit ?? DEFAULT_LIMIT, 1), MAX_LIMIT);
  }

  /**
   * Turns `limit + 1` fetched rows into a page: the extra row only proves that more exist.
   */
  page<Row, T>(rows: Row[], limit: number, scope: string, cursorOf: (row: Row) => Cursor, map: (row: Row) => T): Page<T> {
    const hasMore = rows.length > limit;
    const kept = hasMore ? rows.slice(0, limit) : rows;
    const items = kept.map(map);
    if (!hasMore) return { items };
    return { items, nextPageToken: this.encode(cursorOf(kept[kept.length - 1]), scope) };
  }
}
