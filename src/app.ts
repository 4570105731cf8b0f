import cookie from '@fastify/cookie';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { randomUUID } from 'node:crypto';
import type { Container } from './container.js';
import { registerBearerAuth } from './http/auth.js';
import { clientErrorHandler, frameworkErrors, registerErrorHandling } from './http/error-handler.js';
import { healthRoutes } from './http/health.js';
import { indexRoute } from './http/index-route.js';
import { registerMetrics } from './http/metrics.js';
import { ROUTER_OPTIONS } from './http/method-not-allowed.js';
import { registerOpenApi } from './http/openapi.js';
import { registerTenancy } from './http/tenancy.js';
import { registerCors } from './http/cors.js';
import { OneLineRequestLog } from './http/request-log.js';
import { registerResponseHeaders } from './http/response-headers.js';
import { registerRequestSpans } from './http/tracing.js';
import { declareRouteView } from './http/route-of.js';
import { tracingOn } from './core/tracing.js';
import { registerValidators } from './http/validation.js';
import { registerWellFormedText } from './http/well-formed-text.js';
import { routeModules } from './routes.js';

export const BODY_LIMIT = 1_048_576;

/** Builds the HTTP application around a container; listening is the caller's business. */
export async function buildApp(container: Container): Promise<FastifyInstance> {
  const app: FastifyInstance = Fastify({
    loggerInstance: container.logger as FastifyBaseLogger,
    bodyLimit: BODY_LIMIT,
    trustProxy: container.config.trustedProxies.length > 0 ? container.config.trustedProxies : false,
    genReqId: (request) => {
      const given = request.headers['x-request-id'];
      return typeof given === 'string' && /^[\w-]{8,64}$/.test(given) ? given : randomUUID();
    },
    ajv: { customOptions: { removeAdditional: false } },
    routerOptions: ROUTER_OPTIONS,
    frameworkErrors,
    clientErrorHandler,
    logController: new OneLineRequestLog(),
  });
  declareRouteView(app);
  // First, so that every later hook runs inside the request's span; not at all with tracing off.
  if (tracingOn()) registerRequestSpans(app);
  registerResponseHeaders(app);
  // Bodies are JSON (forms only where a route adds a parser, as /auth does): JSON sent as
  // text/plain is 415, not a confusing "must be object".
  app.removeContentTypeParser('text/plain');
  registerValidators(app);
  registerWellFormedText(app);
  registerErrorHandling(app);
  await registerOpenApi(app);
  await app.register(cookie);
  registerBearerAuth(app, container.credentials);
  registerTenancy(app, container.projects);
  registerCors(app, {
    previewOrigins: async (projectId) => (await container.projects.row(projectId))?.preview_origins ?? [],
    listedByAnyProject: (origin) => container.projects.anyListsPreviewOrigin(origin),
  });
  healthRoutes(app, container.engine);
  indexRoute(app);
  registerMetrics(app);
  for (const register of routeModules) register(app, container);
  await app.ready();
  return app;
}
