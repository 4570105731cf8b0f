import { describe, expect, it } from 'vitest';
import { formatEvent, tailEvents, type TailedEvent } from './events.js';

const event = (id: string, at: string, type = 'user.created'): TailedEvent => ({ id, type, occurred_at: at, actor: { kind: 'admin', id: null }, subject: { kind: 'user', id: `usr_${id}` }, data: { n: id } });

/** A fake GET /events over a list the test changes between polls: newest first, `since` inclusive, pages of `page_size`. */
function fakeApi(log: TailedEvent[]) {
  const requests: string[] = [];
  const get = async (path: string) => {
    requests.push(path);
    const url = new URL(path, 'http://x');
    const since = url.searchParams.get('since');
    const size = Number(url.searchParams.get('page_size') ?? 20);
    const offset = Number(url.searchParams.get('page_token') ?? 0);
    const matching = log.filter((e) => since === null || e.occurred_at >= since).sort((a, b) => b.occurred_at.localeCompare(a.occurred_at) || b.id.localeCompare(a.id));
    const page = matching.slice(offset, offset + size);
    return { events: page, ...(offset + size < matching.length ? { next_page_token: String(offset + size) } : {}) };
  };
  return { get, requests };
}

describe('gatehouse events tail (the loop)', () => {
  it('prints one line per event', () => {
    expect(formatEvent(event('a', '2030-01-01T00:00:00.000Z'))).toBe('2030-01-01T00:00:00.000Z  user.created  user:usr_a  by admin  {"n":"a"}');
  });

  it('starts after the newest event, prints each new one once, oldest first, across pages, and one committed late', async () => {
    const log = [event('old1', '2030-01-01T00:00:00.000Z'), event('old2', '2030-01-01T00:00:01.000Z')];
    const api = fakeApi(log);
    const printed: string[] = [];
    const polls: Array<() => void> = [
      () => log.push(event('n1', '2030-01-01T00:00:05.000Z'), event('n2', '2030-01-01T00:00:05.000Z')),
      () => {},
      // 150 events at once (two pages), and one whose transaction committed late (an earlier time).
      () => log.push(...Array.from({ length: 150 }, (_, i) => event(`b${String(i).padStart(3, '0')}`, '2030-01-01T00:00:07.000Z')), event('late', '2030-01-01T00:00:04.500Z')),
    ];
    let ready: string | undefined = 'unset';
    await tailEvents('proj_x', {
      get: api.get,
      print: (line) => printed.push(line.split('  ')[2]),
      warn: () => {},
      ready: (newest) => (ready = newest?.id),
      sleep: async () => {
        const next = polls.shift();
        next?.();
        return next !== undefined;
      },
    });
    expect(ready).toBe('old2');
    expect(printed.slice(0, 2)).toEqual(['user:usr_n1', 'user:usr_n2']);
    expect(printed.slice(2)).toEqual(['user:usr_late', ...Array.from({ length: 150 }, (_, i) => `user:usr_b${String(i).padStart(3, '0')}`)]);
    expect(api.requests[0]).toBe('/events?project_id=proj_x&page_size=1');
  });

  it('keeps going after a failed poll', async () => {
    const api = fakeApi([]);
    const warnings: string[] = [];
    let calls = 0;
    const printed: string[] = [];
    await tailEvents('proj_x', {
      get: async (path) => {
        calls++;
        if (calls === 2) throw new Error('the server does not answer');
        if (calls === 3) return { events: [event('e', '2030-01-01T00:00:00.000Z')] };
        return api.get(path);
      },
      print: (line) => printed.push(line),
      warn: (message) => warnings.push(message),
      sleep: async () => calls < 3,
    });
    expect(warnings).toEqual(['gatehouse: the server does not answer (retrying)']);
    expect(printed).toHaveLength(1);
  });
});
