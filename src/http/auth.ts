import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Credentials } from '../core/credentials.js';
import { AppError, MESSAGES } from '../core/errors.js';
import { holdsScope, type Principal } from '../core/principal.js';
import { routeOf } from './route-of.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The scope a bearer credential must hold; a list means any of them. Routes without it are
     * public or authenticated by a cookie of their own.
     */
    scope?: string | readonly string[];
  }
  interface FastifyRequest {
    principal?: Principal;
  }
}

const BEARER = /^Bearer ([\x21-\x7e]+)$/i;

function unauthorized(): AppError {
  return new AppError('auth.unauthorized', MESSAGES.bearerUnauthorized, {}, { 'www-authenticate': 'Bearer realm="gatehouse"' });
}

export function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (!header) return undefined;
  return BEARER.exec(header)?.[1];
}

/** Authenticates and authorises every route that declares a scope, before its body is parsed. */
export function registerBearerAuth(app: FastifyInstance, credentials: Credentials): void {
  const authenticate = async (request: FastifyRequest, required: string | readonly string[]) => {
    const token = bearerToken(request);
    if (!token) throw unauthorized();
    const principal = await credentials.resolve(token);
    if (!principal) throw unauthorized();
    const scopes = typeof required === 'string' ? [required] : required;
    if (!scopes.some((scope) => holdsScope(principal, scope))) {
      throw new AppError('auth.forbidden', 'The credential does not hold the scope this operation needs.', {
        required_scope: scopes[0],
      });
    }
    request.principal = principal;
  };
  // Callback style: a route without a scope (the session check) passes on without a promise.
  app.addHook('onRequest', (request, _reply, done) => {
    const required = routeOf(request).config.scope;
    if (required === undefined) return done();
    authenticate(request, required).then(() => done(), done);
  });
}

/** The principal of a scoped route; present by construction once the onRequest hook passed. */
export function principalOf(request: FastifyRequest): Principal {
  if (!request.principal) throw new AppError('auth.unauthorized', MESSAGES.bearerUnauthorized);
  return request.principal;
}
