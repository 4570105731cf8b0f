import swagger from '@fastify/swagger';
import type { FastifyInstance, RouteOptions } from 'fastify';
import { ErrorBody } from './schemas.js';

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'Invalid request (`req.invalid` and domain codes)',
  401: 'Missing or invalid credentials (`auth.unauthorized`)',
  403: 'The credential lacks the scope (`auth.forbidden`) or the request is cross-site (`auth.csrf_invalid`)',
  404: 'Not found, also for resources of another project',
  413: 'Body larger than 1 MiB (`req.too_large`)',
  429: 'Rate limited (`auth.rate_limited`)',
  500: 'Internal error (`internal`)',
  503: 'Database unreachable (`unavailable`)',
};

/**
 * Every route gets its security requirement (from `config.scope`) and the shared error responses,
 * so `/openapi.json` says what the code does without each route repeating it.
 */
function describeRoute(route: RouteOptions): void {
  const schema = (route.schema ??= {}) as Record<string, unknown>;
  if (schema.hide) return;
  const scope = route.config?.scope;
  const response = (schema.response ??= {}) as Record<string, unknown>;
  const statuses = [400, 404, 429, 500, 503];
  if (scope !== undefined) {
    const scopes = typeof scope === 'string' ? [scope] : [...scope];
    schema.security ??= scopes.map((s) => ({ bearer: [s] }));
    statuses.push(401, 403);
  }
  if (schema.body) statuses.push(413);
  for (const status of statuses) {
    response[status] ??= { ...ErrorBody, description: ERROR_DESCRIPTIONS[status] };
  }
}

export async function registerOpenApi(app: FastifyInstance): Promise<void> {
  app.addHook('onRoute', describeRoute);
  await app.register(swagger, {
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
          flowState: { type: 'apiKey', in: 'cookie', name: '_zflow' },
        },
      },
    },
  });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}
