import { describe, expect, it } from 'vitest';
import { AppError } from '../core/errors.js';
import { pageUrl, readEntry, signInUrl } from './entry.js';

const ISSUER = 'http://localhost:8080';
const read = (query: Record<string, unknown>) => readEntry(query, undefined, ISSUER);

describe('the `aal` page parameter (a step-up asks for a level)', () => {
  it('takes 1 or 2, and the page URL carries it through the redirects', () => {
    const entry = read({ project_id: 'proj_1', session_id: 'sess_1', aal: '2' });
    expect(entry.aal).toBe('2');
    expect(read({ project_id: 'proj_1', aal: '1' }).aal).toBe('1');
    expect(read({ project_id: 'proj_1', aal: ['2', '1'] }).aal).toBe('2');
    expect(read({ project_id: 'proj_1' }).aal).toBeUndefined();
    const next = new URL(pageUrl('login', entry, { flow: 'flow_1' }), ISSUER);
    expect(Object.fromEntries(next.searchParams)).toEqual({ project_id: 'proj_1', session_id: 'sess_1', flow: 'flow_1', aal: '2' });
  });

  it('refuses any other value as an invalid page address naming the parameter (a 400 page, never a 500)', () => {
    for (const aal of ['3', '0', 'urn:nist:aal:2', '22', ' 2', '2\n']) {
      let error: unknown;
      try {
        read({ project_id: 'proj_1', aal });
      } catch (caught) {
        error = caught;
      }
      expect(error, aal).toBeInstanceOf(AppError);
      expect((error as AppError).code).toBe('req.invalid');
      expect((error as AppError).details.errors).toEqual([{ path: 'querystring/aal', message: 'is invalid' }]);
    }
  });

  it('is left behind with the session on the way back to a plain sign-in', () => {
    const entry = read({ project_id: 'proj_1', session_id: 'sess_1', aal: '2', redirect_uri: 'https://shop.example.com/cb' });
    const back = new URL(signInUrl(entry, false), ISSUER);
    expect(back.searchParams.has('aal')).toBe(false);
    expect(back.searchParams.has('session_id')).toBe(false);
    expect(back.searchParams.get('redirect_uri')).toBe('https://shop.example.com/cb');
  });
});
