import fc from 'fast-check';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import type { CatalogRoute } from '../src/http/openapi.js';
import { asText, encode, hostileJson, hostileString, RAW_SEGMENTS, sometimes, valueFor } from './helpers/arbitraries.js';
import { bearer, createTestApp } from './helpers/app.js';

/**
 * For every route the app registers (found at run time, so routes added later are covered too):
 * random and hostile path parameters, query strings, bodies, content types, cookies and
 * credentials never produce a 5xx, and every error carries `{code, message, details}`.
 * PROPERTY_RUNS raises the number of requests per route for a longer hunt.
 */
const RUNS_PER_ROUTE = Number(process.env.PROPERTY_RUNS ?? 40);

const t = await createTestApp();
const mine = await t.createProject('Property');
const theirs = await t.createProject('Other');
const team = await t.app.inject({ method: 'POST', url: `/teams?project_id=${mine.id}`, headers: bearer(mine.project_secret), payload: { name: 'T' } });
const key = await t.app.inject({ method: 'POST', url: `/projects/${mine.id}/service_keys`, headers: bearer(mine.project_secret), payload: { scopes: ['team.read'] } });
/** Real ids of both projects, so that generated requests reach rows and the cross-project checks. */
const pool = [mine.id, theirs.id, team.json().id, key.json().id, 'proj_00000000000000000000000000'].filter(Boolean) as string[];
afterAll(async () => t.close());

// Routes that end the test projects' credentials (a second rotation ends the original secret,
// deletion ends everything) run last, so every other route still meets live credentials.
const ENDS_CREDENTIALS = new Set(['POST /projects/:project_id/rotate_secret', 'DELETE /projects/:project_id']);
const endsCredentials = (route: CatalogRoute) => Number(ENDS_CREDENTIALS.has(`${route.method} ${route.url}`));
const routes = t.app.routeCatalog.filter((route) => route.method !== 'HEAD').sort((a, b) => endsCredentials(a) - endsCredentials(b));

const credentials = fc.oneof(
  { weight: 4, arbitrary: fc.constant(mine.project_secret) },
  { weight: 3, arbitrary: fc.constant(t.adminToken) },
  { weight: 1, arbitrary: fc.constant(mine.preview_secret) },
  { weight: 1, arbitrary: fc.constant(theirs.project_secret) },
  { weight: 1, arbitrary: fc.constantFrom(undefined, 'gh_ps_not-a-real-secret', '') },
);

/** HTTP Basic client authentication (the OAuth endpoints), with real, wrong and hostile ids. */
const basicCredentials = fc
  .tuple(fc.oneof(fc.constant(key.json().client_id as string), hostileString(pool)), fc.oneof(fc.constant(key.json().client_secret as string), hostileString()))
  .map(([id, secret]) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`);
const authorization = fc.oneof(
  { weight: 5, arbitrary: credentials.map((token) => (token === undefined ? undefined : `Bearer ${token}`)) },
  { weight: 2, arbitrary: basicCredentials },
  { weight: 1, arbitrary: fc.constantFrom('Basic !!!', 'Bearer', 'Digest x', 'Basic ' + Buffer.from('no-colon').toString('base64')) },
);

function pathArbitrary(route: CatalogRoute): fc.Arbitrary<string> {
  const names = [...route.url.matchAll(/:(\w+)|\*/g)].map((match) => match[1] ?? '*');
  const properties = (route.schema.params as { properties?: Record<string, unknown> } | undefined)?.properties ?? {};
  const segment = (name: string) =>
    fc.oneof(
      { weight: 4, arbitrary: valueFor(properties[name] ?? { type: 'string' }, pool, 0, name).map((value) => encode(asText(value)) || 'x') },
      { weight: 1, arbitrary: fc.constantFrom(...RAW_SEGMENTS) },
    );
  return fc.tuple(...names.map(segment)).map((values) => {
    let index = 0;
    return route.url.replace(/:(\w+)(\([^)]*\))?|\*/g, () => values[index++]);
  });
}

/** The query of a hosted-UI page (config.page): its entry parameters with real, hostile and odd values. */
const PAGE_QUERY_KEYS = ['project_id', 'purpose', 'app_id', 'redirect_uri', 'authorization_id', 'resume_uri', 'flow', 'done', 'lang'];
const pageQuery = fc
  .array(
    fc.tuple(
      fc.constantFrom(...PAGE_QUERY_KEYS),
      fc.oneof(hostileString(pool), fc.constantFrom('login', 'register', 'settings', 'de', 'xx', 'signed_in', 'https://evil.example/', 'http://localhost:80/auth/authorize/resume', 'flow_00000000000000000000000000')),
    ),
    { maxLength: 6 },
  )
  .map((pairs) => pairs.map(([k, v]) => [k, encode(v)]));

function queryArbitrary(route: CatalogRoute): fc.Arbitrary<string> {
  if (route.page) {
    return fc.oneof(pageQuery, pageQuery.map((pairs) => [['project_id', mine.id], ...pairs])).map((pairs) => (pairs.length ? `?${pairs.map(([k, v]) => `${k}=${v}`).join('&')}` : ''));
  }
  const fromSchema = valueFor(route.schema.querystring ?? { type: 'object', properties: {} }, pool).map((value) => {
    if (!value || typeof value !== 'object' || Array.isArray(value)) return [['q', encode(asText(value))]];
    // Arrays become repeated keys, as browsers and curl send them.
    return Object.entries(value).flatMap(([k, v]) => [v].flat().map((item) => [encode(k), encode(asText(item))]));
  });
  const raw = fc.array(fc.tuple(hostileString(pool).map(encode), fc.oneof(hostileString(pool).map(encode), fc.constantFrom(...RAW_SEGMENTS))), { maxLength: 4 });
  return fc
    .oneof({ weight: 3, arbitrary: fromSchema }, { weight: 1, arbitrary: raw })
    .map((pairs) => (pairs.length ? `?${pairs.map(([k, v]) => `${k}=${v}`).join('&')}` : ''));
}

const FORM_FIELDS = ['action', 'f.email', 'f.password', 'f.__proto__', 'captcha', 'challenge_response', 'grant_type', 'client_id', 'client_secret', 'scope', 'token', 'token_type_hint', 'subject_token', 'subject_token_type', 'audience', 'resource'];

function propertyNames(schema: unknown): string[] {
  return Object.keys((schema as { properties?: Record<string, unknown> } | undefined)?.properties ?? {});
}

function bodyArbitrary(route: CatalogRoute): fc.Arbitrary<{ payload?: string; contentType?: string }> {
  const json = fc.oneof(
    { weight: 4, arbitrary: valueFor(route.schema.body ?? { type: 'object' }, pool) },
    { weight: 1, arbitrary: hostileJson(pool) },
  );
  const raw = fc.constantFrom(
    '',
    '{',
    '{"__proto__":{"polluted":true}}',
    '{"constructor":{"prototype":{"polluted":true}}}',
    `${'['.repeat(5000)}${']'.repeat(5000)}`,
    'a=1&b=2&token=x',
    '\u0000\u0001',
  );
  const asJson = fc.record({ payload: json.map((value) => JSON.stringify(value) ?? 'null'), contentType: fc.constant('application/json') });
  // Form bodies (the OAuth endpoints read them) with the route's field names and the usual OAuth ones.
  const formKeys = fc.constantFrom(...propertyNames(route.schema.body), ...FORM_FIELDS);
  const formValue = fc.oneof(hostileString(pool), fc.constantFrom('client_credentials', 'refresh_token', 'access_token', 'team.read', key.json().client_id));
  const asForm = fc.record({
    payload: fc.array(fc.tuple(formKeys, formValue), { maxLength: 5 }).map((pairs) => pairs.map(([k, v]) => `${encode(k)}=${encode(v)}`).join('&')),
    contentType: fc.constant('application/x-www-form-urlencoded'),
  });
  const odd = fc.record({
    payload: fc.oneof(raw, fc.string({ unit: 'binary', maxLength: 100 })),
    contentType: fc.constantFrom('application/json', 'application/x-www-form-urlencoded', 'text/plain', 'multipart/form-data; boundary=x', undefined),
  });
  return fc.oneof({ weight: 6, arbitrary: asJson }, { weight: 2, arbitrary: asForm }, { weight: 2, arbitrary: odd }, { weight: 1, arbitrary: fc.constant({}) });
}

function requestArbitrary(route: CatalogRoute): fc.Arbitrary<InjectOptions> {
  return fc
    .record({
      path: pathArbitrary(route),
      query: queryArbitrary(route),
      body: bodyArbitrary(route),
      auth: authorization,
      cookie: sometimes(fc.tuple(hostileString(), hostileString()).map(([session, flow]) => `__service_session=${encode(session)}; _zflow=${encode(flow)}`), 3),
      origin: sometimes(fc.constantFrom('https://evil.example', 'null', 'http://localhost:80'), 3),
    })
    .map(({ path, query, body, auth, cookie, origin }) => {
      const headers: Record<string, string> = {};
      if (auth !== undefined) headers.authorization = auth;
      if (cookie) headers.cookie = cookie;
      if (origin) headers.origin = origin;
      if (body.contentType) headers['content-type'] = body.contentType;
      return { method: route.method as InjectOptions['method'], url: `${path}${query}`, headers, payload: body.payload };
    });
}

function checkResponse(request: InjectOptions, response: LightMyRequestResponse, page = false): void {
  const what = `${request.method} ${request.url} -> ${response.statusCode} ${response.body.slice(0, 300)}`;
  expect(response.statusCode, what).toBeLessThan(500);
  if (response.statusCode < 400) return;
  expect(response.body, what).not.toMatch(/\bat .+\.(ts|js):\d+/);
  // A page (config.page) answers errors as pages; its assets as the API does.
  if (page && response.headers['content-type']?.toString().startsWith('text/html')) return;
  expect(response.headers['content-type'], what).toMatch(/^application\/json/);
  const body = response.json();
  expect(typeof body.code, what).toBe('string');
  expect(typeof body.message, what).toBe('string');
  expect(body.details !== null && typeof body.details === 'object' && !Array.isArray(body.details), what).toBe(true);
  expect(response.body, what).not.toMatch(/\bat .+\.(ts|js):\d+/);
}

describe('every route survives hostile input', () => {
  it('has routes to check', () => {
    expect(routes.length).toBeGreaterThan(5);
  });

  it.each(routes.map((route) => [`${route.method} ${route.url}`, route] as const))('%s', async (_name, route) => {
    await fc.assert(
      fc.asyncProperty(requestArbitrary(route), async (request) => checkResponse(request, await t.app.inject(request), route.page)),
      { numRuns: RUNS_PER_ROUTE },
    );
    // Prototype pollution through a body would show up on every object.
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('answers unknown paths and methods with an error body', async () => {
    const method = fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS');
    const segment = fc.oneof(hostileString().map((value) => encode(value) || 'x'), fc.constantFrom(...RAW_SEGMENTS));
    const path = fc.array(segment, { minLength: 1, maxLength: 4 }).map((parts) => `/${parts.join('/')}`);
    await fc.assert(
      fc.asyncProperty(method, path, async (m, p) => {
        const request = { method: m as InjectOptions['method'], url: p };
        checkResponse(request, await t.app.inject(request));
      }),
      { numRuns: 100 },
    );
  });
});
