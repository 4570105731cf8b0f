import swagger from '@fastify/swagger';
import type { FastifyInstance, RouteOptions } from 'fastify';
import type { EventType } from '../events/types.js';
import { ErrorBody } from './schemas.js';
import type { Tenancy } from './tenancy.js';

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'Invalid request (`req.invalid` and domain codes)',
  401: 'Missing or invalid credentials (`auth.unauthorized`)',
  403: 'The credential lacks the scope (`auth.forbidden`) or the request is cross-site (`auth.csrf_invalid`)',
  404: 'Not found, also for resources of another project',
  413: 'Body larger than 1 MiB (`req.too_large`)',
  415: 'Body in a content type the route does not read (`req.unsupported_media_type`)',
  429: 'Rate limited (`auth.rate_limited`)',
  500: 'Internal error (`internal`)',
  503: 'Database unreachable (`unavailable`)',
};

/** One registered route as the app sees it: what tests walk to cover every route, including later ones. */
export interface CatalogRoute {
  method: string;
  url: string;
  scope?: string | readonly string[];
  /** Left out of /openapi.json on purpose (`schema.hide`, or a page). */
  hidden: boolean;
  /** An HTML page of the hosted UI (`config.page`): not API, answers errors as pages. */
  page: boolean;
  /** Declared `config.cacheable`: its answers may be cached (src/http/response-headers.ts). */
  cacheable: boolean;
  /** Declared `config.tenancy`: which project it acts on (src/http/tenancy.ts). */
  tenancy?: Tenancy;
  /** Declared `config.cors`: the browser plane, callable from a project's preview origins (src/http/cors.ts). */
  cors: boolean;
  /** Declared `config.emits`: the event types a write route records (test/events-catalog.test.ts). */
  emits?: readonly EventType[];
  /** Declared `config.emitsNone`: why a write route with `emits: []` records no event. */
  emitsNone?: string;
  schema: Record<string, unknown>;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The route serves HTML pages (the hosted UI), not API: it is left out of /openapi.json and
     * its errors are pages, not `{code, message, details}` (the catalog tests honour this).
     */
    page?: boolean;
    /**
     * The event types a write route records (docs/events.md): every POST, PUT, PATCH and DELETE
     * of the API declares them; `[]` with `emitsNone` (the reason) for one that changes nothing
     * an event log holds (test/events-catalog.test.ts).
     */
    emits?: readonly EventType[];
    emitsNone?: string;
  }
  interface FastifyInstance {
    /** Every route registered after the OpenAPI hook, HEAD routes included. */
    readonly routeCatalog: readonly CatalogRoute[];
  }
}

const HAS_BODY = new Set(['POST', 'PUT', 'PATCH']);
const ERROR_BODY_ID = 'ErrorBody';

/**
 * Every route gets its security requirement (from `config.scope`) and the error responses it can
 * really produce, so `/openapi.json` says what the code does without each route repeating it.
 */
function describeRoute(route: RouteOptions): void {
  const schema = (route.schema ??= {}) as Record<string, unknown>;
  if (schema.hide) return;
  const scope = route.config?.scope;
  const methods = [route.method].flat();
  const response = (schema.response ??= {}) as Record<string, unknown>;
  const statuses = [500, 503];
  const takesInput = schema.params || schema.querystring || methods.some((m) => HAS_BODY.has(m));
  if (takesInput) statuses.push(400, 429);
  // A path parameter or a named project_id (in the query or the body of a scoped route) can point
  // at something absent or another project's.
  if (schema.params || schema.querystring || (scope !== undefined && schema.body)) statuses.push(404);
  if (scope !== undefined) {
    const scopes = typeof scope === 'string' ? [scope] : [...scope];
    schema.security ??= scopes.map((s) => ({ bearer: [s] }));
    statuses.push(403);
  }
  // Routes authenticated by a cookie declare their own security; they answer 401 too.
  if (Array.isArray(schema.security) && schema.security.length > 0) statuses.push(401);
  if (methods.some((m) => HAS_BODY.has(m))) statuses.push(413, 415);
  for (const status of statuses) {
    // One shared schema instead of a copy per route and status keeps /openapi.json small.
    response[status] ??= { $ref: `${ERROR_BODY_ID}#`, description: ERROR_DESCRIPTIONS[status] };
  }
}

export async function registerOpenApi(app: FastifyInstance): Promise<void> {
  const catalog: CatalogRoute[] = [];
  app.decorate('routeCatalog', catalog);
  app.addSchema({ $id: ERROR_BODY_ID, ...ErrorBody });
  app.addHook('onRoute', (route) => {
    const page = route.config?.page === true;
    if (page) ((route.schema ??= {}) as Record<string, unknown>).hide = true;
    describeRoute(route);
    const schema = (route.schema ?? {}) as Record<string, unknown>;
    const hidden = Boolean(schema.hide) || (Array.isArray(schema.tags) && schema.tags.includes('X-HIDDEN'));
    for (const method of [route.method].flat()) catalog.push({ method, url: route.url, scope: route.config?.scope, hidden, page, cacheable: route.config?.cacheable === true, tenancy: route.config?.tenancy, cors: route.config?.cors === true, emits: route.config?.emits, emitsNone: route.config?.emitsNone, schema });
  });
  await app.register(swagger, {
    // Shared schemas keep their $id as their name under components.schemas.
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`) },
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Gatehouse',
        version: '0.1.0',
        description: 'Identity, session and flow service. Errors are `{code, message, details}`.',
      },
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer', description: 'Admin token, project secret or service-key access token' },
          serviceSession: { type: 'apiKey', in: 'cookie', name: '__service_session' },
          sessionToken: { type: 'http', scheme: 'bearer', description: 'A session token (gh_st_...), as returned by the exchange' },
          flowState: { type: 'apiKey', in: 'cookie', name: '_zflow' },
        },
      },
    },
  });
  app.get('/openapi.json', { config: { tenancy: 'public', cacheable: true }, schema: { hide: true } }, async () => app.swagger());
}
