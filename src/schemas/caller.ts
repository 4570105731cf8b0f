import { AppError } from '../core/errors.js';
import type { Principal } from '../http/principal.js';
import type { ProjectService } from '../projects/service.js';

/**
 * The project a list or create operates on: a project credential's own project (naming another
 * one is a 404, never an oracle); the admin token must name the project with `project_id`.
 */
export async function projectOfCaller(projects: ProjectService, principal: Principal, projectId: string | undefined): Promise<string> {
  if (principal.kind === 'project') {
    if (projectId !== undefined) await projects.requireAccess(principal, projectId);
    return principal.projectId;
  }
  if (projectId === undefined) {
    throw new AppError('req.invalid', 'The admin token must name the project.', {
      errors: [{ path: 'query/project_id', message: 'is required with the admin token' }],
    });
  }
  await projects.requireAccess(principal, projectId);
  return projectId;
}

/** The project a by-id read is confined to; undefined lets the admin token read any project. */
export function projectScopeOf(principal: Principal): string | undefined {
  return principal.kind === 'project' ? principal.projectId : undefined;
}

/** Who acted, for audit trails: never a secret, only the kind of credential and a client id. */
export function actorOf(principal: Principal): string {
  if (principal.kind === 'admin') return 'admin';
  if (principal.via === 'access_token') return `service_key:${principal.clientId ?? 'unknown'}`;
  return principal.via;
}
