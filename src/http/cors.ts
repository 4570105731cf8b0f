import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../core/errors.js';
import { looksLikeId } from '../core/ids.js';
import { isConnectionError } from '../db/engine.js';
import { isDataException } from '../db/sql.js';
import { MethodIndex } from './method-not-allowed.js';
import { routeOf } from './route-of.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The route belongs to the browser plane (flows, /sessions/me): a frontend on one of the
     * project's `preview_origins` may call it from another origin, with credentials.
     */
    cors?: boolean;
  }
  interface FastifyRequest {
    /** The project a CORS route acts for, once its handler knows it (`corsFor`). */
    corsProjectId?: string;
  }
}

/** Where the allow-lists live: the project's own, and whether any project lists an origin. */
export interface CorsOrigins {
  previewOrigins(projectId: string): Promise<readonly string[]>;
  listedByAnyProject(origin: string): Promise<boolean>;
}

const ALLOWED_HEADERS = 'content-type, authorization, idempotency-key';
/** How long a browser may reuse a preflight's answer. */
const PREFLIGHT_MAX_AGE_SECONDS = 600;

/**
 * Names the project whose `preview_origins` decide whether this answer may be read cross-origin.
 * The id may still be the client's own text (POST /flow names it before it is found); one that
 * cannot be an id names no project, so nothing the client wrote reaches the lookup in `onSend`.
 */
export function corsFor(request: FastifyRequest, projectId: string): void {
  if (looksLikeId(projectId, 'proj')) request.corsProjectId = projectId;
}

function originHeader(request: FastifyRequest): string | undefined {
  const origin = request.headers.origin;
  return typeof origin === 'string' && origin !== 'null' && origin.length <= 2048 ? origin : undefined;
}

/**
 * CORS for the browser plane (issue 12 item 4), declared per route (`config.cors`) and decided in
 * two hooks, never `*`:
 * - a preflight (OPTIONS with `Access-Control-Request-Method`) to a CORS route is answered 204 with
 *   the allowance when some project lists the origin among its `preview_origins` (a preflight
 *   carries no body, so it cannot name the project), else 403 `auth.csrf_invalid`;
 * - an answer of a CORS route is made readable (`Access-Control-Allow-Origin: <origin>`, with
 *   credentials) only when the project the handler acts for lists the origin. Whether the request
 *   may change anything is still decided by the CSRF check, with the same allow-list.
 */
export function registerCors(app: FastifyInstance, origins: CorsOrigins): void {
  const browserPlane = new MethodIndex();
  app.addHook('onRoute', (route) => {
    if (route.config?.cors === true) for (const method of [route.method].flat()) browserPlane.add(route.url, method);
  });

  const preflight = async (request: FastifyRequest, reply: FastifyReply, methods: string[]) => {
    const origin = originHeader(request);
    if (origin === undefined || !(await origins.listedByAnyProject(origin))) {
      throw new AppError('auth.csrf_invalid', 'This origin may not call Gatehouse from a browser.', { reason: 'origin not in any project\'s preview_origins' });
    }
    return reply
      .status(204)
      .headers({
        'access-control-allow-origin': origin,
        'access-control-allow-credentials': 'true',
        'access-control-allow-methods': methods.filter((m) => m !== 'HEAD').join(', '),
        'access-control-allow-headers': ALLOWED_HEADERS,
        'access-control-max-age': String(PREFLIGHT_MAX_AGE_SECONDS),
        vary: 'Origin',
      })
      .send();
  };
  // Callback style: every other request passes on without a promise.
  app.addHook('onRequest', (request, reply, done) => {
    if (request.method !== 'OPTIONS' || request.headers['access-control-request-method'] === undefined) return done();
    const methods = browserPlane.allowed(request.url);
    if (methods.length === 0) return done();
    // A hook that sends the answer must not call done as well.
    preflight(request, reply, methods).catch(done);
  });

  const readable = async (request: FastifyRequest, reply: FastifyReply, origin: string, projectId: string) => {
    // The allow-list is unreadable while the database is gone, or for a value it refuses: the
    // answer (a 503, a 4xx) stays, unreadable cross-origin, instead of this hook's failure turning
    // it into a 500 that no error handler can shape any more.
    const allowed = await origins.previewOrigins(projectId).catch((error: unknown) => {
      if (isConnectionError(error) || isDataException(error)) return [] as readonly string[];
      throw error;
    });
    if (!allowed.includes(origin)) return;
    reply.header('access-control-allow-origin', origin);
    reply.header('access-control-allow-credentials', 'true');
    reply.header('access-control-expose-headers', 'retry-after');
  };
  app.addHook('onSend', (request, reply, payload, done) => {
    if (routeOf(request).config?.cors !== true) return done(null, payload);
    reply.header('vary', 'Origin');
    const origin = originHeader(request);
    if (origin === undefined || request.corsProjectId === undefined) return done(null, payload);
    readable(request, reply, origin, request.corsProjectId).then(() => done(null, payload), done);
  });
}
