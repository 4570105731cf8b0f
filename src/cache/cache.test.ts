import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/helpers/app.js';
import { testEngineKind } from '../../test/helpers/engine.js';
import { handoffFor, projectWithUser, sessionCookie } from '../sessions/test-fixtures.js';
import { ChangeCache } from './cache.js';
import { ChangeFeed } from './feed.js';

async function until(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 1000 && !condition(); i++) await new Promise((resolve) => setTimeout(resolve, 5));
  if (!condition()) throw new Error('condition not reached');
}

describe('ChangeCache', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
    await until(() => t.container.changes.healthy);
  });
  afterAll(async () => t.close());

  it('serves a loaded value until its row changes', async () => {
    const cache = new ChangeCache<number>(t.container.changes, { kind: 'usr' });
    let loads = 0;
    const load = async () => ++loads;
    expect(cache.peek('usr_1')).toBeUndefined();
    expect(await cache.get('usr_1', load)).toBe(1);
    expect(await cache.get('usr_1', load)).toBe(1);
    expect(cache.peek('usr_1')?.value).toBe(1);
    t.container.changes.publishLocal('usr:usr_2');
    expect(await cache.get('usr_1', load)).toBe(1);
    t.container.changes.publishLocal('usr:usr_1');
    // A peek never loads: after the change it misses until a get has loaded again.
    expect(cache.peek('usr_1')).toBeUndefined();
    expect(await cache.get('usr_1', load)).toBe(2);
    expect(cache.peek('usr_1')?.value).toBe(2);
    t.container.changes.publishLocal('*');
    expect(await cache.get('usr_1', load)).toBe(3);
  });

  it('does not store a value whose load raced a change (it may predate the change)', async () => {
    const cache = new ChangeCache<string>(t.container.changes, { kind: 'usr' });
    let release!: (value: string) => void;
    const first = cache.get('usr_9', () => new Promise<string>((resolve) => (release = resolve)));
    t.container.changes.publishLocal('usr:usr_9');
    release('before the change');
    expect(await first).toBe('before the change');
    expect(await cache.get('usr_9', async () => 'after the change')).toBe('after the change');
  });

  it('a change of another key does not discard a load in flight; a failed load leaves nothing behind', async () => {
    const cache = new ChangeCache<string>(t.container.changes, { kind: 'usr' });
    let release!: (value: string) => void;
    const first = cache.get('usr_7', () => new Promise<string>((resolve) => (release = resolve)));
    t.container.changes.publishLocal('usr:usr_8');
    release('loaded');
    expect(await first).toBe('loaded');
    expect(await cache.get('usr_7', async () => 'reloaded')).toBe('loaded');
    await expect(cache.get('usr_6', async () => Promise.reject(new Error('database gone')))).rejects.toThrow('database gone');
    expect(await cache.get('usr_6', async () => 'back')).toBe('back');
  });

  it('concurrent misses of one key share one load; a change detaches it, so later misses load anew', async () => {
    const cache = new ChangeCache<string>(t.container.changes, { kind: 'usr' });
    const releases: Array<(value: string) => void> = [];
    const load = () => new Promise<string>((resolve) => releases.push(resolve));
    const burst = Array.from({ length: 50 }, () => cache.get('usr_5', load));
    expect(releases).toHaveLength(1);
    t.container.changes.publishLocal('usr:usr_5');
    // After the change, a miss must not join the read that may predate it.
    const after = cache.get('usr_5', load);
    expect(releases).toHaveLength(2);
    releases[0]('before the change');
    releases[1]('after the change');
    expect(new Set(await Promise.all(burst))).toEqual(new Set(['before the change']));
    expect(await after).toBe('after the change');
    expect(await cache.get('usr_5', async () => 'not loaded')).toBe('after the change');
  });

  it('caches nothing while the feed is not listening', async () => {
    const idle = new ChangeFeed(t.container.engine);
    const cache = new ChangeCache<number>(idle, { kind: 'usr' });
    let loads = 0;
    await cache.get('k', async () => ++loads);
    await cache.get('k', async () => ++loads);
    expect(loads).toBe(2);
    expect(cache.peek('k')).toBeUndefined();
  });

  it('drops every entry on a change of its kind when keys are not row ids', async () => {
    const cache = new ChangeCache<string>(t.container.changes, { kind: 'proj', dropAllOnChange: true });
    await cache.get('secret-hash', async () => 'proj_1');
    t.container.changes.publishLocal('proj:proj_1');
    expect(await cache.get('secret-hash', async () => 'reloaded')).toBe('reloaded');
  });

  it('a user changed through the service shows in the same process on the next session read', async () => {
    const { project, userId } = await projectWithUser(t, { given: 'Ada', family: 'Lovelace' });
    const handoff = await handoffFor(t, project.id, userId);
    const { session_token } = await t.container.exchange.exchange(project.id, { handoffToken: handoff.token });
    const me = async () => (await t.app.inject({ method: 'GET', url: '/sessions/me', headers: sessionCookie(session_token) })).json().name;
    expect(await me()).toBe('Ada Lovelace');
    const delivered = t.container.changes.next(`usr:${userId}`);
    const user = (await t.container.users.find(project.id, userId))!;
    await t.container.users.updateAttributes(project.id, userId, { ...user.attributes, name: { given: 'Grace', family: 'Hopper' } });
    // PGlite delivers the notification when the transaction commits; PostgreSQL a moment later.
    if (testEngineKind() === 'postgres') await delivered;
    expect(await me()).toBe('Grace Hopper');
  });
});
