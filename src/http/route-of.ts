import type { FastifyInstance, FastifyRequest } from 'fastify';

type RouteView = FastifyRequest['routeOptions'];

declare module 'fastify' {
  interface FastifyRequest {
    /** `routeOptions`, read once per request (`routeOf`). */
    routeView: RouteView | null;
  }
}

/**
 * Declares the per-request slot `routeOf` fills, so every request object has the same shape
 * from its construction. Call before any hook or route is added.
 */
export function declareRouteView(app: FastifyInstance): void {
  app.decorateRequest('routeView', null);
}

/**
 * The route's options (pattern, `config`) for this request. Fastify's `request.routeOptions` is a
 * getter that builds a new 13-field object on every read, and the hooks read it 5-7 times per
 * request; this reads it once. An app without `declareRouteView` (a unit test's bare Fastify)
 * still gets the right answer.
 */
export function routeOf(request: FastifyRequest): RouteView {
  return (request.routeView ??= request.routeOptions);
}
