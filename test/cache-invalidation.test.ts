/**
 * Per-process caches behind the session check (src/cache): a change or revocation made through
 * one process is seen by another process on the same PostgreSQL database within the bound of
 * docs/performance.md (the notification delay; the test allows 5 s for a loaded machine).
 * Two containers with separate pools and separate LISTEN connections stand for two processes.
 */
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { testConfig } from '../src/config.js';
import { closeContainer, createContainer, type Container } from '../src/container.js';
import { openPostgres } from '../src/db/engine.js';
import { handoffFor, projectWithUser, sessionCookie, type Fixture } from '../src/sessions/test-fixtures.js';
import { bearer, createTestApp, type TestApp } from './helpers/app.js';
import { testEngineKind } from './helpers/engine.js';

const BOUND_MS = 5_000;

function within<T>(promise: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not arrive within ${BOUND_MS} ms`)), BOUND_MS);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

async function until(condition: () => boolean, what: string): Promise<void> {
  await within(
    (async () => {
      while (!condition()) await new Promise((resolve) => setTimeout(resolve, 5));
    })(),
    what,
  );
}

describe.skipIf(testEngineKind() === 'pglite')('cache invalidation across two processes (PostgreSQL only: an embedded PGlite database belongs to one process)', () => {
  let a: TestApp;
  let b: { container: Container; app: FastifyInstance };
  let url: string;
  let fixture: Fixture;
  let sessionToken: string;
  let sessionId: string;

  /** SQL that no trigger sees: a change whose notification is lost. */
  async function silently(statement: string, params: unknown[]): Promise<void> {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query('set session_replication_role = replica');
      await client.query(statement, params);
    } finally {
      await client.end();
    }
  }

  const me = (app: FastifyInstance) => app.inject({ method: 'GET', url: '/sessions/me', headers: sessionCookie(sessionToken) });
  const nameOnB = async () => (await me(b.app)).json().name as string | undefined;

  beforeAll(async () => {
    a = await createTestApp();
    const database = (await a.container.engine.db.selectNoFrom((eb) => eb.fn<string>('current_database', []).as('name')).executeTakeFirstOrThrow()).name;
    const base = new URL(process.env.DATABASE_URL!);
    base.pathname = `/${database}`;
    url = base.toString();
    const engine = await openPostgres(url, 4);
    const container = createContainer(testConfig(), { engine, clock: a.clock });
    b = { container, app: await buildApp(container) };
    await until(() => a.container.changes.healthy && b.container.changes.healthy, 'both LISTEN subscriptions');

    fixture = await projectWithUser(a, { given: 'Ada', family: 'Lovelace' });
    const handoff = await handoffFor(a, fixture.project.id, fixture.userId);
    const issued = await a.container.exchange.exchange(fixture.project.id, { handoffToken: handoff.token });
    sessionToken = issued.session_token;
    sessionId = issued.session.session_id;
  });

  afterAll(async () => {
    await b?.app.close();
    if (b) await closeContainer(b.container);
    await a?.close();
  });

  it('serves the profile from its cache: a change nobody announces stays invisible to the other process', async () => {
    expect(await nameOnB()).toBe('Ada Lovelace');
    await silently(`update users set attributes = jsonb_set(attributes, '{name,given}', '"Silent"') where id = $1`, [fixture.userId]);
    expect(await nameOnB()).toBe('Ada Lovelace');
    // The database has it (the users service reads it uncached).
    expect((await a.container.users.find(fixture.project.id, fixture.userId))?.attributes.name).toEqual({ given: 'Silent', family: 'Lovelace' });
  });

  it('sees a user change made through the other process once its notification arrives', async () => {
    const delivered = b.container.changes.next(`usr:${fixture.userId}`);
    await a.container.users.updateAttributes(fixture.project.id, fixture.userId, {
      email: (await a.container.users.find(fixture.project.id, fixture.userId))!.attributes.email,
      name: { given: 'Grace', family: 'Hopper' },
    });
    await within(delivered, 'the user change notification');
    expect(await nameOnB()).toBe('Grace Hopper');
  });

  it('sees changed session settings (freshness windows) made through the other process', async () => {
    a.clock.advance(5 * 60 * 1000);
    expect((await me(b.app)).json().assurance_levels).toEqual(['urn:nist:aal:1']);
    const delivered = b.container.changes.next(`proj:${fixture.project.id}`);
    const patched = await a.app.inject({
      method: 'PATCH',
      url: `/projects/${fixture.project.id}/settings`,
      headers: bearer(fixture.project.project_secret),
      payload: { sessions: { aal1_window_seconds: 120, aal2_window_seconds: 60 } },
    });
    expect(patched.statusCode).toBe(200);
    await within(delivered, 'the project change notification');
    expect((await me(b.app)).json().assurance_levels).toEqual([]);
  });

  it('revocation through one process is immediate in the other (the session row is never cached)', async () => {
    const byId = () => b.app.inject({ method: 'GET', url: `/sessions/${sessionId}`, headers: bearer(fixture.project.project_secret) });
    expect((await byId()).statusCode).toBe(200);
    expect((await me(b.app)).statusCode).toBe(200);
    const revoked = await a.app.inject({ method: 'DELETE', url: `/sessions/${sessionId}`, headers: bearer(fixture.project.project_secret) });
    expect(revoked.statusCode).toBe(204);
    // No waiting: the very next request in the other process answers as for an unknown session.
    expect((await me(b.app)).statusCode).toBe(401);
    expect((await byId()).statusCode).toBe(404);
  });

  it('a lost LISTEN connection leaves nothing stale: changes missed while it was down are read from the database', async () => {
    const handoff = await handoffFor(a, fixture.project.id, fixture.userId);
    sessionToken = (await a.container.exchange.exchange(fixture.project.id, { handoffToken: handoff.token })).session_token;
    expect(await nameOnB()).toBe('Grace Hopper');

    const lost = b.container.changes.next('*');
    await silently(`select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and query ilike 'listen %' and pid <> pg_backend_pid()`, []);
    await within(lost, 'the loss of the LISTEN connection');
    await silently(`update users set attributes = jsonb_set(attributes, '{name,given}', '"Missed"') where id = $1`, [fixture.userId]);
    expect(await nameOnB()).toBe('Missed Hopper');

    // The feed comes back by itself, and caching resumes.
    await until(() => b.container.changes.healthy, 'the LISTEN reconnection');
    expect(await nameOnB()).toBe('Missed Hopper');
  });
});
