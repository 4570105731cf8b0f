import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, errorBody, type TestApp } from '../../test/helpers/app.js';
import { MethodIndex } from './method-not-allowed.js';

describe('MethodIndex', () => {
  const index = new MethodIndex();
  for (const [method, url] of [
    ['GET', '/sessions/me'],
    ['DELETE', '/sessions/me'],
    ['GET', '/sessions/:session_id'],
    ['PATCH', '/sessions/:session_id'],
    ['POST', '/flow/:id/submit'],
    ['GET', '/files/*'],
    ['GET', '/'],
    ['GET', '/odd/:a-:b'],
    ['GET', '/re/:id(^\\d+$)'],
  ]) index.add(url, method);

  it('unions the methods of every route matching the path, static and parametric, in Allow order', () => {
    expect(index.allowed('/sessions/me')).toEqual(['GET', 'PATCH', 'DELETE']);
    expect(index.allowed('/sessions/sess_1?x=1')).toEqual(['GET', 'PATCH']);
    expect(index.allowed('/sessions/')).toEqual(['GET', 'PATCH']);
    expect(index.allowed('/flow/abc/submit')).toEqual(['POST']);
    expect(index.allowed('/flow/a%2Fb/submit')).toEqual(['POST']);
    expect(index.allowed('/')).toEqual(['GET']);
  });

  it('matches like the router: decoded, case-sensitive, exact slashes, wildcard only below its prefix', () => {
    expect(index.allowed('/se%73sions/me')).toEqual(['GET', 'PATCH', 'DELETE']);
    expect(index.allowed('/Sessions/me')).toEqual([]);
    expect(index.allowed('/sessions/me/')).toEqual([]);
    expect(index.allowed('//sessions/me')).toEqual([]);
    expect(index.allowed('/files/a/b')).toEqual(['GET']);
    expect(index.allowed('/files')).toEqual([]);
    expect(index.allowed('/flow/%E0%A4%A/submit')).toEqual([]);
    expect(index.allowed('*')).toEqual([]);
  });

  it('knows all of the router syntax: several parameters in a segment, regular expressions', () => {
    expect(index.allowed('/odd/1-2')).toEqual(['GET']);
    expect(index.allowed('/re/1')).toEqual(['GET']);
    expect(index.allowed('/re/x')).toEqual([]);
  });

  it('stays cheap on long paths', () => {
    expect(index.allowed(`/sessions/${'x/'.repeat(50_000)}`)).toEqual([]);
  });
});

describe('405 req.method_not_allowed', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t.close());

  it('answers a known path asked with another method with 405, Allow and the error body', async () => {
    const cases: Array<[string, string, string]> = [
      ['PATCH', '/healthz', 'GET, HEAD'],
      ['DELETE', '/users/usr_1/password', 'PUT'],
      ['GET', '/flow/flow_1/submit', 'POST'],
      ['PUT', '/sessions/me', 'GET, HEAD, DELETE'],
      ['POST', '/sessions/sess_1', 'GET, HEAD, DELETE'],
      ['DELETE', '/users?limit=1', 'GET, HEAD, POST'],
      ['OPTIONS', '/users', 'GET, HEAD, POST'],
      ['PATCH', '/health%7A', 'GET, HEAD'],
    ];
    for (const [method, url, allow] of cases) {
      const response = await t.app.inject({ method: method as 'GET', url });
      expect(response.statusCode, `${method} ${url}`).toBe(405);
      expect(response.headers.allow).toBe(allow);
      expect(response.headers['content-type']).toMatch(/^application\/json/);
      expect(response.headers['x-request-id']).toBeTruthy();
      expect(errorBody(response)).toEqual({
        code: 'req.method_not_allowed',
        message: expect.stringContaining(`${method} is not allowed`),
        details: { allowed_methods: allow.split(', ') },
      });
    }
  });

  it('needs no credential, like a 404 (which paths exist is in /openapi.json anyway)', async () => {
    const response = await t.app.inject({ method: 'PUT', url: '/projects/proj_1', headers: { authorization: 'Bearer nope' } });
    expect(response.statusCode).toBe(405);
    expect(response.headers.allow).toBe('GET, HEAD, PATCH, DELETE');
  });

  it('keeps 404 route.not_found for paths no route has, and HEAD on GET routes', async () => {
    for (const url of ['/nope', '/healthz/', '/HEALTHZ', '/users/usr_1/password/x', '//healthz']) {
      const response = await t.app.inject({ method: 'PATCH', url });
      expect(response.statusCode, url).toBe(404);
      expect(errorBody(response).code).toBe('route.not_found');
      expect(response.headers.allow).toBeUndefined();
    }
    expect((await t.app.inject({ method: 'HEAD', url: '/healthz' })).statusCode).toBe(200);
  });

  it('answers HEAD on a GET route that refuses HEAD with 405 and no body', async () => {
    const response = await t.app.inject({ method: 'HEAD', url: '/auth/authorize?client_id=x' });
    expect(response.statusCode).toBe(405);
    expect(response.headers.allow).toBe('GET, POST'); // the authorization endpoint takes a form POST too (OIDC Core §3.1.2.1)
    expect(response.body).toBe('');
  });

  it('agrees with the router on every registered route', async () => {
    const byUrl = new Map<string, string[]>();
    for (const route of t.app.routeCatalog) byUrl.set(route.url, [...(byUrl.get(route.url) ?? []), route.method]);
    // Pages (config.page) answer their own 404s as HTML pages: a route answered, not "no route".
    const pages = new Set(t.app.routeCatalog.filter((route) => route.page).map((route) => route.url));
    for (const [pattern, registered] of byUrl) {
      const url = pattern.replace(/:\w+/g, 'x1');
      for (const method of ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']) {
        const response = await t.app.inject({ method: method as 'GET', url });
        const label = `${method} ${url}`;
        // The path exists, so never "no route"; a 404 from a route is fine (GET /sessions/exchange is
        // GET /sessions/:session_id; HEAD answers have no body to look at).
        const page = pages.has(pattern) && String(response.headers['content-type']).startsWith('text/html');
        if (response.statusCode === 404 && method !== 'HEAD' && !page) expect(errorBody(response).code, label).not.toBe('route.not_found');
        if (registered.includes(method)) expect(response.statusCode, label).not.toBe(405);
        if (response.statusCode === 405) {
          const allow = response.headers.allow?.split(', ') ?? [];
          expect(allow, label).toEqual(expect.arrayContaining(registered));
          expect(allow, label).not.toContain(method);
        }
      }
    }
  });

  it('sends Allow over real HTTP', async () => {
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const response = await fetch(`${address}/healthz`, { method: 'DELETE' });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET, HEAD');
    expect(await response.json()).toMatchObject({ code: 'req.method_not_allowed' });
  });
});
