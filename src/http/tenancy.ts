import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError, notFoundError } from '../core/errors.js';
import { canAccessProject } from '../core/principal.js';
import type { ProjectService } from '../projects/service.js';
import { principalOf } from './auth.js';
import { routeOf } from './route-of.js';

/**
 * Which project a route acts on, declared with the route (`config.tenancy`) so that no handler
 * hand-writes the check: one forgotten line would be a cross-tenant read. Every route declares
 * one; test/tenancy.test.ts fails for a route that does not, and probes every route with another
 * project's credentials.
 *
 * - `{ project: 'params' | 'query' | 'body' }`: the `project_id` named there. The hooks below check
 *   that the caller may act on it before the handler runs: another project's id and an unknown
 *   id are both 404 `proj.not_found`. In the query or body it may be left out by a
 *   project credential (its own project); the admin token must name it. Needs `config.scope`.
 * - `resource`: a by-id route; the handler confines its lookup to the caller's project
 *   (`projectScopeOf`), so another project's id is that resource's own 404.
 * - `credential`: the project is the one the cookie, flow state or token itself belongs to
 *   (browser plane, OAuth endpoints, hosted pages); nothing names a project to trust.
 * - `instance`: instance-wide, the admin token only (its scope says so).
 *   (`GET /projects` is `credential`: an operator's token names the projects it lists.)
 * - `public`: no project data at all (health, metadata, static assets).
 */
export type Tenancy = { project: 'params' | 'query' | 'body' } | 'resource' | 'credential' | 'instance' | 'public';

declare module 'fastify' {
  interface FastifyContextConfig {
    tenancy?: Tenancy;
  }
  interface FastifyRequest {
    /** The project a `{ project }` route acts on, checked by the tenancy hook. */
    tenantProjectId?: string;
  }
}

function namedProjectId(request: FastifyRequest, where: 'params' | 'query' | 'body'): string | undefined {
  const source = request[where] as Record<string, unknown> | undefined | null;
  const value = source && typeof source === 'object' ? source.project_id : undefined;
  return typeof value === 'string' ? value : undefined;
}

/** Resolves and checks the project of every `{ project }` route before its handler. */
export function registerTenancy(app: FastifyInstance, projects: ProjectService): void {
  app.addHook('onRoute', (route) => {
    const tenancy = route.config?.tenancy;
    if (typeof tenancy === 'object' && route.config?.scope === undefined) {
      throw new Error(`${route.method} ${route.url}: a project binding needs a bearer scope`);
    }
  });
  // A project credential naming another project is refused before the body is validated, so
  // its answer is the same 404 whatever the body holds (validation errors would tell it about
  // a project it cannot see). This needs no database; lone surrogates are refused earlier.
  // Both hooks are callback style (a throw is the hook's error): a route without a project binding
  // passes on without a promise.
  app.addHook('preValidation', (request, _reply, done) => {
    const tenancy = routeOf(request).config.tenancy;
    if (typeof tenancy !== 'object') return done();
    const principal = principalOf(request);
    const named = namedProjectId(request, tenancy.project);
    if (principal.kind !== 'admin' && named !== undefined && !canAccessProject(principal, named)) throw notFoundError('proj.not_found');
    done();
  });
  // After validation: a malformed id is a 400, and the admin token learns whether the project exists.
  app.addHook('preHandler', (request, _reply, done) => {
    const tenancy = routeOf(request).config.tenancy;
    if (typeof tenancy !== 'object') return done();
    const principal = principalOf(request);
    const named = namedProjectId(request, tenancy.project);
    if (named === undefined) {
      if (principal.kind === 'project') {
        request.tenantProjectId = principal.projectId;
        return done();
      }
      const who = principal.kind === 'admin' ? 'the admin token' : 'an operator\'s token';
      throw new AppError('req.invalid', `${who[0].toUpperCase()}${who.slice(1)} must name the project.`, {
        errors: [{ path: `${tenancy.project}/project_id`, message: `is required with ${who}` }],
      });
    }
    projects.requireAccess(principal, named).then(() => {
      request.tenantProjectId = named;
      done();
    }, done);
  });
}

/** The project of a `{ project }` route, as the tenancy hook checked it. */
export function tenantOf(request: FastifyRequest): string {
  if (request.tenantProjectId === undefined) throw new Error(`${routeOf(request).url} declares no project binding`);
  return request.tenantProjectId;
}
