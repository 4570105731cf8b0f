import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { testConfig } from '../src/config.js';
import { closeContainer, createContainer, type Container } from '../src/container.js';
import { openPostgres, type Engine } from '../src/db/engine.js';
import { migrate } from '../src/db/migrate.js';
import { bearer, errorBody } from './helpers/app.js';
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

  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: base.toString() });
    await client.connect();
    await client.query(statement);
    await client.end();
  };
  const readProject = () => app.inject({ method: 'GET', url: `/projects/${project.id}`, headers: bearer(project.project_secret) });
  const createTeam = (teamName: string) =>
    app.inject({ method: 'POST', url: `/teams?project_id=${project.id}`, headers: bearer(config.adminToken), payload: { name: teamName } });

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

  it('recovers by itself when the database returns', async () => {
    await proxy.start();
    expect((await app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
    expect((await readProject()).statusCode).toBe(200);
    expect((await createTeam('After')).statusCode).toBe(201);
    // The write attempted during the outage did not half-happen.
    const names = (await engine.db.selectFrom('teams').select('name').where('project_id', '=', project.id).execute()).map((row) => row.name);
    expect(names.sort()).toEqual(['After', 'Before']);
  });
});
