import { describe, expect, it } from 'vitest';
import { nonCanonicalTwin } from './base64-test-kit.js';
import { hmacBase64Url } from './crypto.js';
import { AppError } from './errors.js';
import { DEFAULT_LIMIT, MAX_LIMIT, Paginator, type Cursor } from './pagination.js';

const key = Buffer.alloc(32, 7);
const paginator = new Paginator(key);
const cursor: Cursor = { createdAt: new Date('2030-05-06T07:08:09.123Z'), id: 'team_abc' };

function expectInvalidToken(fn: () => unknown): void {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe('req.invalid');
    expect((error as AppError).status).toBe(400);
    expect((error as AppError).details.errors).toEqual([{ path: 'query/page_token', message: 'invalid page token' }]);
    return;
  }
  throw new Error('expected the page token to be refused');
}

describe('Paginator', () => {
  it('round-trips a cursor through an opaque URL-safe token', () => {
    const token = paginator.encode(cursor, 'teams:p1');
    expect(token).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    expect(paginator.decode(token, 'teams:p1')).toEqual(cursor);
  });

  it('binds a token to its list scope', () => {
    const token = paginator.encode(cursor, 'teams:p1');
    expectInvalidToken(() => paginator.decode(token, 'teams:p2'));
  });

  it('decodes the body strictly, even under a valid MAC: a non-canonical body is refused', () => {
    const body = paginator.encode(cursor, 'teams:p1').split('.')[0];
    const twin = body.length % 4 >= 2 ? nonCanonicalTwin(body) : `${body}A`;
    expect(Buffer.from(twin, 'base64url').equals(Buffer.from(body, 'base64url'))).toBe(true);
    expectInvalidToken(() => paginator.decode(`${twin}.${hmacBase64Url(key, twin)}`, 'teams:p1'));
  });

  it('refuses tokens signed with another key', () => {
    const token = new Paginator(Buffer.alloc(32, 8)).encode(cursor, 'teams:p1');
    expectInvalidToken(() => paginator.decode(token, 'teams:p1'));
  });

  it('keeps accepting tokens signed with an older key during a rotation', () => {
    const oldKey = Buffer.alloc(32, 1);
    const before = new Paginator([oldKey]).encode(cursor, 'teams:p1');
    const rotated = new Paginator([Buffer.alloc(32, 2), oldKey]);
    expect(rotated.decode(before, 'teams:p1')).toEqual(cursor);
    const after = rotated.encode(cursor, 'teams:p1');
    expect(after).not.toBe(before);
    expectInvalidToken(() => new Paginator([oldKey]).decode(after, 'teams:p1'));
    // Once the old key is dropped, its tokens are refused.
    expectInvalidToken(() => new Paginator([Buffer.alloc(32, 2)]).decode(before, 'teams:p1'));
  });

  it('refuses tampered and malformed tokens', () => {
    const token = paginator.encode(cursor, 'teams:p1');
    const [body, mac] = token.split('.');
    const forgedBody = Buffer.from(JSON.stringify(['1999-01-01T00:00:00.000Z', 'team_abc', 'teams:p1'])).toString('base64url');
    // Correctly signed but wrongly shaped payloads must be refused too, not crash.
    const signed = (payload: unknown) => {
      const b = Buffer.from(JSON.stringify(payload)).toString('base64url');
      return `${b}.${hmacBase64Url(key, b)}`;
    };
    const signedRaw = (b: string) => `${b}.${hmacBase64Url(key, b)}`;
    for (const bad of [
      '',
      '.',
      body,
      `${body}.`,
      `.${mac}`,
      `${forgedBody}.${mac}`,
      `${body}.${mac}.${mac}`,
      `${body}.${mac.slice(1)}`,
      'not base64!.abc',
      signed(['not a date', 'team_abc', 'teams:p1']),
      signed(['2030-01-01T00:00:00.000Z', 42, 'teams:p1']),
      signed({ a: 1 }),
      signed(['2030-01-01T00:00:00.000Z', 'team_abc']),
      signedRaw('e30'),
      signedRaw('!!!'),
      signedRaw(Buffer.from('{not json').toString('base64url')),
    ]) {
      expectInvalidToken(() => paginator.decode(bad, 'teams:p1'));
    }
  });

  it('clamps limits to 1..100 with a default of 20', () => {
    expect(DEFAULT_LIMIT).toBe(20);
    expect(MAX_LIMIT).toBe(100);
    expect(paginator.limitOf({})).toBe(20);
    expect(paginator.limitOf({ limit: 0 })).toBe(1);
    expect(paginator.limitOf({ limit: 7 })).toBe(7);
    expect(paginator.limitOf({ limit: 1000 })).toBe(100);
  });

  it('turns limit + 1 rows into a page with a token that continues after the last kept row', () => {
    const rows = [1, 2, 3].map((n) => ({ createdAt: new Date(Date.UTC(2030, 0, n)), id: `team_${n}` }));
    const page = paginator.page(rows, 2, 'teams:p1', (row) => row, (row) => row.id);
    expect(page.items).toEqual(['team_1', 'team_2']);
    expect(paginator.decode(page.nextPageToken!, 'teams:p1')).toEqual(rows[1]);

    const last = paginator.page(rows.slice(0, 2), 2, 'teams:p1', (row) => row, (row) => row.id);
    expect(last).toEqual({ items: ['team_1', 'team_2'] });
    expect(paginator.page([], 2, 'teams:p1', (row: Cursor) => row, (row) => row)).toEqual({ items: [] });
  });
});
