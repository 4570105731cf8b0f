import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.js';
import { AppError, MESSAGES } from '../core/errors.js';
import { clearCookie, cookieValue } from '../http/cookies.js';
import { bearerToken } from '../http/auth.js';
import { corsFor } from '../http/cors.js';
import { assertSameOrigin } from '../http/csrf.js';
import { NoContent } from '../http/schemas.js';
import type { ProjectService } from '../projects/service.js';
import { SESSION_COOKIE } from './cookie.js';
import { SessionSchema } from './routes.schemas.js';
import type { SessionService } from './service.js';

export interface SessionMeRouteDeps {
  sessions: SessionService;
  projects: ProjectService;
  config: Pick<Config, 'publicUrl'>;
}

function unauthorized(): AppError {
  return new AppError('auth.unauthorized', MESSAGES.sessionUnauthorized, {}, { 'www-authenticate': `Cookie realm="gatehouse", cookie-name="${SESSION_COOKIE}"` });
}

/**
 * End-user self-service, authenticated by the session itself, never by a bearer scope: the
 * `__service_session` cookie (browsers), and for reading also `Authorization: Bearer <session
 * token>` (backends that hold the token). Read the current session, log out.
 */
export function sessionMeRoutes(app: FastifyInstance, { sessions, projects, config }: SessionMeRouteDeps): void {
  app.get(
    '/sessions/me',
    { config: { tenancy: 'credential', cors: true },
      schema: {
        tags: ['sessions'],
        summary: 'The current session (cookie __service_session, or Authorization: Bearer <session token>)',
        security: [{ serviceSession: [] }, { sessionToken: [] }],
        response: { 200: SessionSchema },
      },
    },
    async (request) => {
      // A header a backend sends on purpose wins over a cookie that may be lying around.
      const token = request.headers.authorization !== undefined ? bearerToken(request) : cookieValue(request, SESSION_COOKIE);
      // Missing, invalid, superseded, expired and deleted tokens all look the same.
      const session = token ? await sessions.findByToken(token) : undefined;
      if (!session) throw unauthorized();
      corsFor(request, session.project_id);
      return session;
    },
  );

  app.delete(
    '/sessions/me',
    { config: { tenancy: 'credential', cors: true, emits: ['session.revoked'] },
      schema: {
        tags: ['sessions'],
        summary: 'Log out: delete the current session and clear the cookie (idempotent)',
        security: [{ serviceSession: [] }],
        response: { 204: NoContent },
      },
    },
    async (request, reply) => {
      const token = cookieValue(request, SESSION_COOKIE);
      // The project's preview origins (its own frontends) may log out as well as Gatehouse's origin.
      const projectId = token ? await sessions.projectOfToken(token) : undefined;
      const allowedOrigins = projectId ? ((await projects.row(projectId))?.preview_origins ?? []) : [];
      if (projectId) corsFor(request, projectId);
      assertSameOrigin(request, { publicUrl: config.publicUrl, allowedOrigins });
      if (!token) throw unauthorized();
      // A token that no longer names a session (already logged out, superseded) deletes nothing
      // and still answers 204: repeating a logout is not an error.
      await sessions.deleteByToken(token);
      clearCookie(request, reply, SESSION_COOKIE);
      return reply.status(204).send(null);
    },
  );
}
