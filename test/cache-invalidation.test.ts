/**
 * Per-process caches behind the session check (src/cache): a change or revocation made through
 * one process is seen by another process on the same PostgreSQL database within the bound of
 * docs/performance.md (the notification delay; the test allows 5 s for a loaded machine). The
 * process that makes a change sees it at once.
 * Two containers with separate pools and separate LISTEN connections stand for two processes.
 */
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256Hex } from '../src/core/crypto.js';
import { handoffFor, projectWithUser, sessionCookie, type Fixture } from '../src/sessions/test-fixtures.js';
import { bearer, createTestApp, type TestApp } from './helpers/app.js';
import { testEngineKind } from './helpers/engine.js';
import { openSecondProcess, until, within, type SecondProcess } from './helpers/second-process.js';

describe.skipIf(testEngineKind() === 'pglite')('cache invalidation across two processes (PostgreSQL only: an embedded PGlite database belongs to one process)', () => {
  let a: TestApp;
  let b: SecondProcess;
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
    b = await openSecondProcess(a);
    url = b.url;

    fixture = await projectWithUser(a, { given: 'Ada', family: 'Lovelace' });
    const handoff = await handoffFor(a, fixture.project.id, fixture.userId);
    const issued = await a.container.exchange.exchange(fixture.project.id, { handoffToken: handoff.token });
    sessionToken = issued.session_token;
    sessionId = issued.session.session_id;
  });

  afterAll(async () => {
    await b?.close();
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

  it('serves the session row from its cache: a deletion nobody announces is not seen by the other process', async () => {
    const handoff = await handoffFor(a, fixture.project.id, fixture.userId);
    const issued = await a.container.exchange.exchange(fixture.project.id, { handoffToken: handoff.token });
    const cookie = sessionCookie(issued.session_token);
    expect((await b.app.inject({ method: 'GET', url: '/sessions/me', headers: cookie })).statusCode).toBe(200);
    await silently('delete from sessions where id = $1', [issued.session.session_id]);
    // Proof that the check is answered from memory: the row is gone and nothing said so.
    expect((await b.app.inject({ method: 'GET', url: '/sessions/me', headers: cookie })).statusCode).toBe(200);
    // The process that reads uncached sees the truth.
    expect(await a.container.sessions.store.find(issued.session.session_id)).toBeUndefined();
  });

  it('revocation: immediate in the revoking process, and in the other once the notification arrives', async () => {
    const byId = (app: FastifyInstance) => app.inject({ method: 'GET', url: `/sessions/${sessionId}`, headers: bearer(fixture.project.project_secret) });
    for (const app of [a.app, b.app]) {
      expect((await byId(app)).statusCode).toBe(200);
      expect((await me(app)).statusCode).toBe(200);
    }
    const delivered = Promise.all([b.container.changes.next(`ses:${sessionId}`), b.container.changes.next(`stk:${sha256Hex(sessionToken)}`)]);
    const revoked = await a.app.inject({ method: 'DELETE', url: `/sessions/${sessionId}`, headers: bearer(fixture.project.project_secret) });
    expect(revoked.statusCode).toBe(204);
    // No waiting in the process that revoked.
    expect((await me(a.app)).statusCode).toBe(401);
    expect((await byId(a.app)).statusCode).toBe(404);
    await within(delivered, 'the session change notifications');
    expect((await me(b.app)).statusCode).toBe(401);
    expect((await byId(b.app)).statusCode).toBe(404);
  });

  it('a token superseded by a step-up in one process stops working in the other once the notification arrives', async () => {
    const first = await a.container.exchange.exchange(fixture.project.id, { handoffToken: (await handoffFor(a, fixture.project.id, fixture.userId)).token });
    const oldCookie = sessionCookie(first.session_token);
    expect((await b.app.inject({ method: 'GET', url: '/sessions/me', headers: oldCookie })).statusCode).toBe(200);
    const stepUp = await handoffFor(a, fixture.project.id, fixture.userId, { sessionId: first.session.session_id });
    const delivered = b.container.changes.next(`stk:${sha256Hex(first.session_token)}`);
    const upgraded = await a.container.exchange.exchange(fixture.project.id, { handoffToken: stepUp.token });
    expect(upgraded.session.session_id).toBe(first.session.session_id);
    expect((await a.app.inject({ method: 'GET', url: '/sessions/me', headers: oldCookie })).statusCode).toBe(401);
    await within(delivered, 'the superseded token notification');
    expect((await b.app.inject({ method: 'GET', url: '/sessions/me', headers: oldCookie })).statusCode).toBe(401);
    expect((await b.app.inject({ method: 'GET', url: '/sessions/me', headers: sessionCookie(upgraded.session_token) })).statusCode).toBe(200);
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
