import type { FastifyInstance } from 'fastify';
import { routeOf } from './route-of.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The answer carries neither a secret nor personal data and may be kept by caches (discovery
     * documents, public keys, the API description). Routes without it answer
     * `Cache-Control: no-store`: forgetting the declaration can only make an answer uncached,
     * never make a secret cacheable. `test/response-headers.test.ts` lists the routes that have it.
     */
    cacheable?: boolean;
  }
}

/**
 * The one place that decides caching headers (DESIGN §4.17): every answer gets its
 * `X-Request-Id` and `X-Content-Type-Options: nosniff`; every answer of a route not declared `cacheable` gets
 * `Cache-Control: no-store` (session tokens, project secrets, user attributes, error bodies
 * alike), unless the route set its own stricter value. Unrouted answers (404/405) count as not
 * cacheable.
 */
export function registerResponseHeaders(app: FastifyInstance): void {
  app.addHook('onSend', (request, reply, payload, done) => {
    reply.header('x-request-id', request.id);
    reply.header('x-content-type-options', 'nosniff');
    const cacheable = routeOf(request).config?.cacheable === true;
    if (!cacheable && !reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
    done(null, payload);
  });
}
