import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { testConfig } from '../src/config.js';
import { closeContainer, createContainer, type Container } from '../src/container.js';
import { isConnectionError, openPostgres, type Engine } from '../src/db/engine.js';
import { migrate } from '../src/db/migrate.js';
import { bearer, errorBody } from './helpers/app.js';
import { outageProbes, type OutageProbe, prepareOutageProbes } from './helpers/outage-probes.js';
import { testEngineKind } from './helpers/engine.js';
import { until } from './helpers/second-process.js';
import { TcpProxy } from './helpers/tcp-proxy.js';

const onPostgres = testEngineKind() === 'postgres';

// PGlite runs inside the process: there is no connection to lose, so this only runs on PostgreSQL.
describe.skipIf(!onPostgres)('a lost PostgreSQL connection (PostgreSQL only: PGlite has no connection to lose)', () => {
  const base = new URL(process.env.DATABASE_URL ?? 'postgres://localhost/none');
  const name = `gh_outage_${randomBytes(6).toString('hex')}`;
  const proxy = new TcpProxy(base.hostname, Number(base.port || 5432));
  let engine: Engine;
  let app: FastifyInstance;
  let container: Container;
  const config = testConfig();
  let project: { id: string; project_secret: string };
  let probes: OutageProbe[];

  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: base.toString() });
    await client.connect();
    await client.query(statement);
    await client.end();
  };
  const readProject = () => app.inject({ method: 'GET', url: `/projects/${project.id}`, headers: bearer(project.project_secret) });
  const createTeam = (teamName: string) =>
    app.inject({ method: 'POST', url: `/teams?project_id=${project.id}`, headers: bearer(config.adminToken), payload: { name: teamName } });
  /** Every probe whose status differs from its usual one, so one run names them all. */
  const unexpectedWhileUp = async () => {
    const wrong: string[] = [];
    for (const probe of probes) {
      const response = await app.inject(probe.request);
      if (response.statusCode !== probe.up) wrong.push(`${probe.name}: ${response.statusCode} ${response.body.slice(0, 200)}`);
    }
    return wrong;
  };

  beforeAll(async () => {
    await admin(`create database ${name}`);
    await proxy.start();
    const url = new URL(base);
    url.hostname = '127.0.0.1';
    url.port = String(proxy.port);
    url.pathname = `/${name}`;
    engine = await openPostgres(url.toString(), 4);
    await migrate(engine);
    container = createContainer(config, { engine });
    app = await buildApp(container);
    const created = await app.inject({ method: 'POST', url: '/projects', headers: bearer(config.adminToken), payload: { name: 'Outage' } });
    project = created.json();
  });

  afterAll(async () => {
    await app?.close();
    if (container) await closeContainer(container);
    else await engine?.close();
    await proxy.stop();
    await admin(`drop database if exists ${name} with (force)`);
  });

  it('answers normally while the database is there', async () => {
    expect((await app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
    expect((await readProject()).statusCode).toBe(200);
    expect((await createTeam('Before')).statusCode).toBe(201);
    probes = outageProbes(await prepareOutageProbes(app, config, project));
    expect(await unexpectedWhileUp()).toEqual([]);
  });

  it('answers 503 unavailable with Retry-After while it is gone, and /healthz stays up', async () => {
    // Dropped under the pool's idle connections: the first queries meet sockets that are still
    // closing (which must not crash the process), later ones find nobody listening.
    await proxy.stop();
    // Until the change feed notices that its LISTEN connection is gone, the per-process caches
    // may still answer a read from memory (docs/performance.md); from then on they are bypassed.
    await until(() => !container.changes.healthy, 'the change feed noticing the outage');
    const ready = await app.inject({ method: 'GET', url: '/readyz' });
    expect(ready.statusCode).toBe(503);
    expect(errorBody(ready).code).toBe('unavailable');
    expect(Number(ready.headers['retry-after'])).toBeGreaterThan(0);

    // Bearer resolution, reads and writes all need the database; none may answer 500.
    for (const response of [await readProject(), await createTeam('During'), await readProject()]) {
      expect(response.statusCode, response.body).toBe(503);
      expect(errorBody(response)).toMatchObject({ code: 'unavailable', message: 'The service is temporarily unavailable.' });
      expect(Number(response.headers['retry-after'])).toBeGreaterThan(0);
    }
    expect((await app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
  });

  // Browsers and OAuth clients meet the outage too: pages answer a 503 page, OAuth endpoints
  // RFC 6749's temporarily_unavailable, routes that need no database keep answering.
  it('answers 503 with Retry-After on every route family that needs the database, never 500', async () => {
    const statuses: string[] = [];
    for (const probe of probes) statuses.push(`${probe.name}: ${(await app.inject(probe.request)).statusCode}`);
    // No `down` is 500: this names every route family that still answers one.
    expect(statuses).toEqual(probes.map((probe) => `${probe.name}: ${probe.down}`));
    for (const probe of probes) {
      const response = await app.inject(probe.request);
      const label = `${probe.name}: ${response.body.slice(0, 300)}`;
      if (probe.down !== 503) continue;
      expect(Number(response.headers['retry-after']), label).toBeGreaterThan(0);
      if (probe.kind === 'page') {
        expect(response.headers['content-type'], label).toMatch(/^text\/html/);
        expect(response.headers['content-security-policy'], label).toBeTruthy();
        expect(response.body, label).toContain(probe.unavailableText);
      } else if (probe.kind === 'oauth') {
        expect(response.json(), label).toMatchObject({ error: 'temporarily_unavailable', code: 'unavailable' });
      } else {
        expect(errorBody(response), label).toMatchObject({ code: 'unavailable' });
      }
    }
  });

  it('recovers by itself when the database returns', async () => {
    await proxy.start();
    expect((await app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
    expect((await readProject()).statusCode).toBe(200);
    expect((await createTeam('After')).statusCode).toBe(201);
    expect(await unexpectedWhileUp()).toEqual([]);
    // The write attempted during the outage did not half-happen.
    const names = (await engine.db.selectFrom('teams').select('name').where('project_id', '=', project.id).execute()).map((row) => row.name);
    expect(names.sort()).toEqual(['After', 'Before']);
  });
});

// The classifier needs no server: it runs on both engines.
describe('which database errors mean "unavailable"', () => {
  it.each(['57P01', '57P02', '57P03', '55000', '53300', '08000', '08001', '08003', '08004', '08006', '08P01', 'ECONNREFUSED'])('%s is unavailable', (code) => {
    expect(isConnectionError(Object.assign(new Error('lost'), { code }))).toBe(true);
  });
  it.each(['23505', '22P02', '42P01', '40001', undefined])('%s is not', (code) => {
    expect(isConnectionError(Object.assign(new Error('bug'), { code }))).toBe(false);
  });
});

/**
 * The server itself refuses: `ALLOW_CONNECTIONS false` (new connections fail with 55000) or a
 * connection limit of 0 (53300), and `pg_terminate_backend` ends the pool's connections (57P01).
 * Connection limits do not bind superusers, so the app connects as a role of its own.
 */
describe.skipIf(!onPostgres)('a PostgreSQL that refuses connections (PostgreSQL only: PGlite has no connections to refuse)', () => {
  const base = new URL(process.env.DATABASE_URL ?? 'postgres://localhost/none');
  const suffix = randomBytes(6).toString('hex');
  const name = `gh_refuse_${suffix}`;
  const role = `gh_refuse_role_${suffix}`;
  const config = testConfig();
  let engine: Engine;
  let app: FastifyInstance;
  let container: Container;
  let project: { id: string; project_secret: string };

  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: base.toString() });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  const terminateAll = () => admin(`select pg_terminate_backend(pid) from pg_stat_activity where datname = '${name}' and pid <> pg_backend_pid()`);
  const readProject = () => app.inject({ method: 'GET', url: `/projects/${project.id}`, headers: bearer(project.project_secret) });
  const createTeam = (teamName: string) =>
    app.inject({ method: 'POST', url: `/teams?project_id=${project.id}`, headers: bearer(config.adminToken), payload: { name: teamName } });

  const expectUnavailable = async () => {
    await until(() => !container.changes.healthy, 'the change feed noticing the outage');
    const ready = await app.inject({ method: 'GET', url: '/readyz' });
    expect(ready.statusCode).toBe(503);
    expect(errorBody(ready).code).toBe('unavailable');
    expect(Number(ready.headers['retry-after'])).toBeGreaterThan(0);
    const answers = await Promise.all([readProject(), createTeam('During'), readProject(), app.inject({ method: 'GET', url: `/projects/${project.id}`, headers: bearer(config.adminToken) })]);
    for (const response of answers) {
      expect(response.statusCode, response.body).toBe(503);
      expect(errorBody(response)).toMatchObject({ code: 'unavailable', message: 'The service is temporarily unavailable.' });
      expect(Number(response.headers['retry-after'])).toBeGreaterThan(0);
    }
    expect((await app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
  };
  const expectRecovered = async (teamName: string) => {
    expect((await app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
    expect((await readProject()).statusCode).toBe(200);
    expect((await createTeam(teamName)).statusCode).toBe(201);
  };

  beforeAll(async () => {
    await admin(`create role ${role} login`);
    await admin(`create database ${name} owner ${role}`);
    const url = new URL(base);
    url.username = role;
    url.password = '';
    url.pathname = `/${name}`;
    engine = await openPostgres(url.toString(), 4);
    await migrate(engine);
    container = createContainer(config, { engine });
    app = await buildApp(container);
    const created = await app.inject({ method: 'POST', url: '/projects', headers: bearer(config.adminToken), payload: { name: 'Refused' } });
    project = created.json();
    await until(() => container.changes.healthy, 'the change feed listening');
  });

  afterAll(async () => {
    await admin(`alter database ${name} allow_connections true`).catch(() => {});
    await app?.close();
    if (container) await closeContainer(container);
    else await engine?.close();
    await admin(`drop database if exists ${name} with (force)`);
    await admin(`drop role if exists ${role}`);
  });

  it('ALLOW_CONNECTIONS false + pg_terminate_backend (57P01, then 55000): 503 with Retry-After, then recovery', async () => {
    await expectRecovered('Before');
    await admin(`alter database ${name} allow_connections false`);
    await terminateAll();
    await expectUnavailable();
    await admin(`alter database ${name} allow_connections true`);
    await expectRecovered('After refusal');
  });

  it('too many connections (53300): 503 with Retry-After, then recovery', async () => {
    await admin(`alter role ${role} connection limit 0`);
    await terminateAll();
    await expectUnavailable();
    await admin(`alter role ${role} connection limit -1`);
    await expectRecovered('After limit');
    const names = (await engine.db.selectFrom('teams').select('name').where('project_id', '=', project.id).execute()).map((row) => row.name);
    // Nothing attempted during the outages half-happened.
    expect(names.sort()).toEqual(['After limit', 'After refusal', 'Before']);
  });
});
