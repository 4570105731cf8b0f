import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, errorBody, type TestApp } from '../../test/helpers/app.js';

/** A real HTTP server standing in for a schema host. */
async function schemaHost(): Promise<{ server: Server; base: string; hits: string[]; connections: () => number }> {
  const hits: string[] = [];
  let connections = 0;
  const server = createServer((request, response) => {
    hits.push(request.url ?? '');
    switch (request.url) {
      case '/schemas/person.json':
        response.setHeader('content-type', 'application/json');
        response.end(JSON.stringify({ type: 'object', objectType: 'person', properties: { email: { type: 'string', format: 'email', 'x-unique': 'project' } } }));
        return;
      case '/schemas/huge.json':
        response.setHeader('content-type', 'application/json');
        response.end(JSON.stringify({ type: 'object', description: 'x'.repeat(10_000) }));
        return;
      case '/schemas/invalid.json':
        response.end(JSON.stringify({ type: 'array' }));
        return;
      case '/schemas/redirect.json':
        response.statusCode = 302;
        response.setHeader('location', 'http://169.254.169.254/latest');
        response.end();
        return;
      case '/schemas/slow.json':
        return; // never answers: the fetch must time out
      default:
        response.statusCode = 404;
        response.end();
    }
  });
  server.on('connection', () => connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, hits, connections: () => connections };
}

describe('remote schema URLs', () => {
  let host: Awaited<ReturnType<typeof schemaHost>>;
  let t: TestApp;
  let project: { id: string; project_secret: string };

  beforeAll(async () => {
    host = await schemaHost();
    t = await createTestApp({ schemaFetch: { allow: [`${host.base}/schemas/`], timeoutMs: 300, maxBytes: 4096 } });
    project = await t.createProject();
  });
  afterAll(async () => {
    await t.close();
    host.server.closeAllConnections();
    await new Promise((resolve) => host.server.close(resolve));
  });

  const schemaUrl = (url: string) =>
    t.app.inject({ method: 'POST', url: `/schemas?project_id=${project.id}`, headers: bearer(project.project_secret), payload: { kind: 'schema-url', url } });

  it('fetches an allowed URL once, stores it as a revision and lets users use it', async () => {
    const url = `${host.base}/schemas/person.json`;
    const first = await schemaUrl(url);
    expect(first.statusCode).toBe(201);
    const again = await schemaUrl(url);
    expect(again.json()).toEqual(first.json());
    expect(host.hits.filter((hit) => hit === '/schemas/person.json')).toHaveLength(1);
    const stored = (await t.app.inject({ method: 'GET', url: `/schemas/${first.json().id}`, headers: bearer(project.project_secret) })).json();
    expect(stored.schema.$id).toBe(url);
    const user = await t.app.inject({
      method: 'POST',
      url: `/users?project_id=${project.id}`,
      headers: bearer(project.project_secret),
      payload: { schema: url, attributes: { email: 'remote@example.com' } },
    });
    expect(user.statusCode).toBe(201);
  });

  it('refuses URLs off the allow-list, redirects, timeouts, oversized and invalid documents', async () => {
    const cases: Array<[string, RegExp]> = [
      ['http://127.0.0.1:1/schemas/person.json', /names no schema/],
      [`${host.base}/other/person.json`, /names no schema/],
      [`${host.base}/schemas/redirect.json`, /could not be fetched/],
      [`${host.base}/schemas/slow.json`, /no answer within 300 ms/],
      [`${host.base}/schemas/huge.json`, /larger than 4096 bytes/],
      [`${host.base}/schemas/invalid.json`, /must have type/],
      [`${host.base}/schemas/missing.json`, /answered 404/],
    ];
    const before = await t.container.db.selectFrom('user_schemas').select('id').execute();
    for (const [url, reason] of cases) {
      const response = await schemaUrl(url);
      expect(response.statusCode, url).toBe(400);
      const body = errorBody(response);
      expect(body.code).toBe('sch.invalid');
      expect(JSON.stringify(body.details), url).toMatch(reason);
    }
    expect(await t.container.db.selectFrom('user_schemas').select('id').execute()).toHaveLength(before.length);
  });

  it('is off by default', async () => {
    const plain = await createTestApp();
    try {
      const other = await plain.createProject();
      const response = await plain.app.inject({
        method: 'POST',
        url: `/schemas?project_id=${other.id}`,
        headers: bearer(other.project_secret),
        payload: { kind: 'schema-url', url: `${host.base}/schemas/person.json` },
      });
      expect(response.statusCode).toBe(400);
      expect(errorBody(response).code).toBe('sch.invalid');
      expect(await plain.container.schemas.resolve(other.id, `${host.base}/schemas/person.json`)).toBeUndefined();
    } finally {
      await plain.close();
    }
  });

  describe('under the outbound policy', () => {
    const PRIVATE = ['https://10.0.0.1/schemas/person.json', 'https://169.254.169.254/latest/meta-data', 'https://[::ffff:192.168.1.1]/schemas/person.json'];
    /** One app with `config`, every URL of `urls` on its allow-list: the details of each URL's answer (201: undefined). */
    async function fetchAll(config: Parameters<typeof createTestApp>[0], urls: string[]): Promise<Array<string | undefined>> {
      const app = await createTestApp({ ...config, schemaFetch: { allow: urls.map((url) => new URL(url).toString()), timeoutMs: 300, maxBytes: 4096 } });
      try {
        const own = await app.createProject();
        const answers: Array<string | undefined> = [];
        for (const url of urls) {
          const response = await app.app.inject({ method: 'POST', url: `/schemas?project_id=${own.id}`, headers: bearer(own.project_secret), payload: { kind: 'schema-url', url } });
          if (response.statusCode === 201) answers.push(undefined);
          else {
            expect(response.statusCode, url).toBe(400);
            expect(errorBody(response).code, url).toBe('sch.invalid');
            answers.push(JSON.stringify(errorBody(response).details));
          }
        }
        return answers;
      } finally {
        await app.close();
      }
    }

    it('refuses an allowed URL on a private, loopback or link-local address in production, before any connection', async () => {
      const before = host.connections();
      const loopback = [`${host.base}/schemas/person.json`, `${host.base.replace('127.0.0.1', 'localhost')}/schemas/person.json`];
      const answers = await fetchAll({ publicUrl: 'https://id.example.com' }, [...loopback, ...PRIVATE]);
      for (const answer of answers) expect(answer).toMatch(/could not be fetched: its host is not a public address/);
      expect(answers[0]).toContain('127.0.0.1 is not a public address');
      expect(answers[2]).toContain('10.0.0.1 is not a public address');
      expect(host.connections()).toBe(before);
    });

    it('fetches a loopback schema host with the operator opt-in, and on a development machine, where the private network stays out of reach', async () => {
      const url = `${host.base}/schemas/person.json`;
      expect(await fetchAll({ publicUrl: 'https://id.example.com', outboundAllowPrivate: true }, [url])).toEqual([undefined]);
      const dev = await fetchAll({ publicUrl: 'http://localhost:8080' }, [url, ...PRIVATE]);
      expect(dev[0]).toBeUndefined();
      for (const answer of dev.slice(1)) expect(answer).toMatch(/its host is not a public address/);
    });
  });
});
