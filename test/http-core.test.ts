import { Writable } from 'node:stream';
import { pino } from 'pino';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { testConfig } from '../src/config.js';
import { createContainer } from '../src/container.js';
import { bearer, createTestApp, errorBody, type TestApp } from './helpers/app.js';
import { openTestEngine } from './helpers/engine.js';

/** Cross-cutting HTTP behaviour: the error body for failures outside any one domain. */
describe('HTTP core', () => {
  let t: TestApp;
  let project: Awaited<ReturnType<TestApp['createProject']>>;
  beforeAll(async () => {
    t = await createTestApp();
    project = await t.createProject();
  });
  afterAll(async () => t.close());

  it('answers malformed percent-encoding with 400 req.invalid', async () => {
    for (const url of ['/teams/%', '/teams/%E0%A4%A', '/projects/%/service_keys']) {
      const response = await t.app.inject({ method: 'GET', url, headers: bearer(t.adminToken) });
      expect(response.statusCode, url).toBe(400);
      expect(errorBody(response).code).toBe('req.invalid');
      expect(response.headers['x-request-id']).toBeTruthy();
    }
  });

  it('answers a path segment over 200 characters with 400 req.invalid', async () => {
    const response = await t.app.inject({ method: 'GET', url: `/teams/${'a'.repeat(201)}`, headers: bearer(t.adminToken) });
    expect(response.statusCode).toBe(400);
    expect(errorBody(response)).toMatchObject({ code: 'req.invalid', message: 'A path segment is too long.' });
  });

  it('answers NUL characters the database cannot store with 400 and stores nothing', async () => {
    const create = await t.app.inject({
      method: 'POST',
      url: `/teams?project_id=${project.id}`,
      headers: bearer(project.project_secret),
      payload: { name: 'bad\u0000name' },
    });
    expect(create.statusCode).toBe(400);
    expect(errorBody(create).code).toBe('req.invalid');
    const rows = await t.container.db.selectFrom('teams').select('id').where('project_id', '=', project.id).execute();
    expect(rows).toEqual([]);
    const read = await t.app.inject({ method: 'GET', url: '/teams/team_%00', headers: bearer(t.adminToken) });
    expect(read.statusCode).toBe(400);
  });

  it('answers an unsupported content type with 415 and the error body', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: `/teams?project_id=${project.id}`,
      headers: { ...bearer(project.project_secret), 'content-type': 'application/xml' },
      payload: '<team name="x"/>',
    });
    expect(response.statusCode).toBe(415);
    expect(errorBody(response).code).toBe('req.unsupported_media_type');
  });

  it('answers JSON sent as text/plain with 415, and stores nothing', async () => {
    const before = await t.container.db.selectFrom('teams').select('id').where('project_id', '=', project.id).execute();
    const response = await t.app.inject({
      method: 'POST',
      url: `/teams?project_id=${project.id}`,
      headers: { ...bearer(project.project_secret), 'content-type': 'text/plain' },
      payload: JSON.stringify({ name: 'Plain' }),
    });
    expect(response.statusCode, response.body).toBe(415);
    expect(errorBody(response)).toMatchObject({ code: 'req.unsupported_media_type', details: { content_type: 'application/json' } });
    expect(await t.container.db.selectFrom('teams').select('id').where('project_id', '=', project.id).execute()).toEqual(before);
  });

  it('answers GET / with the name, the version and where to go next', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ name: 'gatehouse', version: expect.stringMatching(/^\d+\.\d+\.\d+/), links: { openapi: '/openapi.json', login: '/ui/login', docs: expect.any(String) } });
  });

  it('answers an unknown method on a known path with a JSON 405 and Allow', async () => {
    const response = await t.app.inject({ method: 'PATCH', url: '/healthz' });
    expect(response.statusCode).toBe(405);
    expect(response.headers.allow).toBe('GET, HEAD');
    expect(errorBody(response).code).toBe('req.method_not_allowed');
  });

  it('echoes a well-formed X-Request-Id and replaces a malformed one', async () => {
    const given = await t.app.inject({ method: 'GET', url: '/healthz', headers: { 'x-request-id': 'trace-12345678' } });
    expect(given.headers['x-request-id']).toBe('trace-12345678');
    const replaced = await t.app.inject({ method: 'GET', url: '/healthz', headers: { 'x-request-id': 'bad id\n' } });
    expect(replaced.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('an internal failure', () => {
  it('answers 500 internal with the request id, logs the cause under that id, and leaks no stack', async () => {
    const lines: string[] = [];
    const logger = pino({ level: 'info' }, new Writable({ write: (chunk, _enc, done) => (lines.push(String(chunk)), done()) }));
    const engine = await openTestEngine();
    const container = createContainer(testConfig(), { engine: engine.engine, logger });
    const app = await buildApp(container);
    try {
      const project = await container.projects.create({ name: 'Broken' });
      // A real fault, not a stub: the table the route needs is gone.
      await sql`drop table teams cascade`.execute(container.db);
      const response = await app.inject({ method: 'GET', url: '/teams/team_00000000000000000000000000', headers: bearer(project.project_secret) });
      expect(response.statusCode).toBe(500);
      const body = errorBody(response);
      expect(body).toEqual({ code: 'internal', message: 'An internal error occurred.', details: { request_id: response.headers['x-request-id'] } });
      expect(response.body).not.toMatch(/teams|relation|at .*\.(ts|js)/);
      const logged = lines.map((line) => JSON.parse(line)).find((entry) => entry.msg === 'request failed');
      expect(logged).toMatchObject({ level: 50, request_id: response.headers['x-request-id'] });
      expect(logged.err.message).toMatch(/teams/);
    } finally {
      await app.close();
      await engine.close();
    }
  });
});
