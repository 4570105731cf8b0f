import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CatalogRoute } from '../src/http/openapi.js';
import { createTestApp, type TestApp } from './helpers/app.js';

interface Operation {
  security?: Array<Record<string, string[]>>;
  responses: Record<string, { description: string; content?: Record<string, { schema: { $ref?: string; required?: string[] } }> }>;
  parameters?: Array<{ in: string; name: string }>;
}
type Spec = {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  components: { securitySchemes: Record<string, unknown>; schemas?: Record<string, { required?: string[] }> };
};

/** `/teams/:team_id` as OpenAPI writes it: `/teams/{team_id}` (the same rules as @fastify/swagger). */
export function openApiPath(url: string): string {
  return url
    .replace(/:(\w+)(\([^)]*\))?/g, '{$1}')
    .replace(/\*/g, '{*}');
}

/** The routes a client can call: Fastify's automatic HEAD twins are not separate operations. */
export function documentedRoutes(routes: readonly CatalogRoute[]): CatalogRoute[] {
  return routes.filter((route) => route.method !== 'HEAD' && !route.hidden);
}

describe('/openapi.json', () => {
  let t: TestApp;
  let spec: Spec;
  let routes: CatalogRoute[];
  const operation = (route: CatalogRoute) => spec.paths[openApiPath(route.url)]?.[route.method.toLowerCase()];
  /** Follows a local `#/components/schemas/X` reference. */
  const resolve = (schema: { $ref?: string; required?: string[] } | undefined) => {
    const name = schema?.$ref?.match(/^#\/components\/schemas\/(.+)$/)?.[1];
    return (name ? spec.components.schemas?.[name] : schema) ?? {};
  };

  beforeAll(async () => {
    t = await createTestApp();
    const response = await t.app.inject({ method: 'GET', url: '/openapi.json' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    spec = response.json();
    routes = documentedRoutes(t.app.routeCatalog);
  });
  afterAll(async () => t.close());

  it('is a valid OpenAPI 3.1 document', async () => {
    expect(spec.openapi).toMatch(/^3\.1\./);
    const result = await new Validator().validate(spec as never);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('knows the routes of the app (the catalog is not empty or stale)', () => {
    const urls = routes.map((route) => `${route.method} ${route.url}`);
    for (const known of ['POST /projects', 'GET /projects/:project_id', 'POST /teams', 'GET /teams/:team_id', 'GET /healthz', 'GET /readyz']) {
      expect(urls).toContain(known);
    }
  });

  it('documents every route registered in the app, and nothing else', () => {
    const missing = routes.filter((route) => !operation(route)).map((route) => `${route.method} ${route.url}`);
    expect(missing, 'routes missing from /openapi.json').toEqual([]);
    const documented = new Set(routes.map((route) => `${route.method.toLowerCase()} ${openApiPath(route.url)}`));
    const extra = Object.entries(spec.paths).flatMap(([path, ops]) =>
      Object.keys(ops)
        .filter((method) => !documented.has(`${method} ${path}`))
        .map((method) => `${method} ${path}`),
    );
    expect(extra, 'operations in /openapi.json without a route').toEqual([]);
  });

  it('hides only pages (config.page) and unauthenticated GET routes (the document itself)', () => {
    const hiddenApi = t.app.routeCatalog.filter((route) => route.hidden && !route.page && (route.method !== 'GET' && route.method !== 'HEAD' || route.scope !== undefined));
    expect(hiddenApi.map((route) => `${route.method} ${route.url}`)).toEqual([]);
    const pages = t.app.routeCatalog.filter((route) => route.page);
    expect(pages.map((route) => `${route.method} ${route.url}`)).toEqual(expect.arrayContaining(['GET /ui/login', 'POST /ui/login', 'GET /ui/assets/:name']));
    // Pages are never API: hidden, and no bearer scope.
    expect(pages.filter((route) => !route.hidden || route.scope !== undefined)).toEqual([]);
  });

  it('gives every scoped route its bearer security with the scope, and 401/403 responses', () => {
    const scoped = routes.filter((route) => route.scope !== undefined);
    expect(scoped.length).toBeGreaterThan(5);
    for (const route of scoped) {
      const op = operation(route)!;
      const scopes = typeof route.scope === 'string' ? [route.scope] : [...route.scope!];
      expect(op.security, `${route.method} ${route.url}`).toEqual(scopes.map((scope) => ({ bearer: [scope] })));
      expect(Object.keys(op.responses), `${route.method} ${route.url}`).toEqual(expect.arrayContaining(['401', '403']));
    }
    expect(spec.components.securitySchemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
  });

  it('names only security schemes that exist', () => {
    const schemes = Object.keys(spec.components.securitySchemes);
    for (const route of routes) {
      for (const requirement of operation(route)!.security ?? []) {
        for (const scheme of Object.keys(requirement)) expect(schemes, `${route.method} ${route.url}`).toContain(scheme);
      }
    }
  });

  it('lists the error responses each route can produce, each with the error body', () => {
    for (const route of routes) {
      const op = operation(route)!;
      const name = `${route.method} ${route.url}`;
      const expected = ['500', '503'];
      if (route.schema.params || route.schema.querystring || route.schema.body) expected.push('400');
      if (route.schema.params) expected.push('404');
      if (route.schema.body) expected.push('413');
      expect(Object.keys(op.responses), name).toEqual(expect.arrayContaining(expected));
      for (const [status, response] of Object.entries(op.responses)) {
        if (Number(status) < 400) continue;
        expect(response.description, `${name} ${status}`).toBeTruthy();
        expect(resolve(response.content?.['application/json']?.schema).required, `${name} ${status}`).toEqual(['code', 'message', 'details']);
      }
    }
  });

  it('documents the success response of every route', () => {
    const without = routes
      .filter((route) => !Object.keys(operation(route)!.responses).some((status) => /^[23]\d\d$/.test(status)))
      .map((route) => `${route.method} ${route.url}`);
    expect(without, 'routes without a 2xx/3xx response schema').toEqual([]);
  });

  it('describes path parameters', () => {
    for (const route of routes) {
      const op = operation(route)!;
      const inPath = [...route.url.matchAll(/:(\w+)/g)].map((match) => match[1]);
      const documented = (op.parameters ?? []).filter((p) => p.in === 'path').map((p) => p.name);
      expect(documented.sort(), `${route.method} ${route.url}`).toEqual(inPath.sort());
    }
  });
});
