import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, errorBody, type TestApp } from './helpers/app.js';

const JSON_TYPE = { 'content-type': 'application/json' };

describe('text that is not well-formed Unicode, and oversized headers', () => {
  let t: TestApp;
  let project: Awaited<ReturnType<TestApp['createProject']>>;
  beforeAll(async () => {
    t = await createTestApp();
    project = await t.createProject();
  });
  afterAll(async () => t.close());

  const count = async (table: 'projects' | 'teams' | 'users') =>
    Number((await t.container.db.selectFrom(table).select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow()).n);

  it('refuses a lone surrogate in any string of any body with 400 req.invalid and the path, storing nothing', async () => {
    const before = { projects: await count('projects'), teams: await count('teams'), users: await count('users') };
    const cases: Array<{ url: string; token: string; payload: string; path: string }> = [
      // Raw JSON text: `\ud800` is the escape a client sends; JSON.parse turns it into a lone surrogate.
      { url: '/projects', token: t.adminToken, payload: '{"name":"Acme \\ud800"}', path: 'body/name' },
      { url: `/teams?project_id=${project.id}`, token: project.project_secret, payload: '{"name":"a\\udc00b"}', path: 'body/name' },
      { url: `/users?project_id=${project.id}`, token: project.project_secret, payload: '{"attributes":{"email":"s@example.com","name":{"given":"\\udbff"}}}', path: 'body/attributes/name/given' },
      { url: `/teams?project_id=${project.id}`, token: project.project_secret, payload: '{"name":"ok","\\ud800x":1}', path: 'body/\ufffdx' },
      { url: `/teams?project_id=${project.id}`, token: project.project_secret, payload: '{"name":"ok","list":["fine","\\ud83d"]}', path: 'body/list/1' },
    ];
    for (const { url, token, payload, path } of cases) {
      const response = await t.app.inject({ method: 'POST', url, headers: { ...bearer(token), ...JSON_TYPE }, payload });
      expect(response.statusCode, `${url} ${payload}`).toBe(400);
      expect(errorBody(response)).toMatchObject({ code: 'req.invalid', details: { errors: [{ path, message: 'contains a lone UTF-16 surrogate' }] } });
    }
    expect({ projects: await count('projects'), teams: await count('teams'), users: await count('users') }).toEqual(before);
  });

  it('keeps well-formed text, surrogate pairs included', async () => {
    const response = await t.app.inject({ method: 'POST', url: `/teams?project_id=${project.id}`, headers: { ...bearer(project.project_secret), ...JSON_TYPE }, payload: '{"name":"Team \\ud83d\\ude00"}' });
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json().name).toBe('Team 😀');
  });

  it('walks a body nested deeper than the call stack without a 5xx', async () => {
    const depth = 200_000;
    const payload = `{"name":${'['.repeat(depth)}"\\ud800"${']'.repeat(depth)}}`;
    const response = await t.app.inject({ method: 'POST', url: `/teams?project_id=${project.id}`, headers: { ...bearer(project.project_secret), ...JSON_TYPE }, payload });
    expect(response.statusCode).toBe(400);
    expect(errorBody(response).code).toBe('req.invalid');
  });

  it('answers headers over the limit with 431 and the {code, message, details} body', async () => {
    const base = new URL(await t.app.listen({ port: 0, host: '127.0.0.1' }));
    const raw = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(base.port), '127.0.0.1');
      let received = '';
      socket.on('data', (chunk) => (received += chunk.toString('utf8')));
      socket.on('close', () => resolve(received));
      socket.on('error', reject);
      socket.write(`GET /healthz HTTP/1.1\r\nHost: ${base.host}\r\nX-Big: ${'a'.repeat(40_000)}\r\n\r\n`);
    });
    const [head, body] = raw.split('\r\n\r\n');
    expect(head).toMatch(/^HTTP\/1\.1 431 /);
    expect(head.toLowerCase()).toContain('content-type: application/json');
    expect(JSON.parse(body)).toEqual({ code: 'req.headers_too_large', message: 'The request headers are too large.', details: { limit_bytes: expect.any(Number) } });
  });
});
