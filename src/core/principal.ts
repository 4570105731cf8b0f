import { AppError, notFoundMessage, type ErrorDetails } from './errors.js';
import { isScope } from './scopes.js';

/** Who is calling, after the bearer credential has been resolved. */
export type Principal =
  | { kind: 'admin' }
  | {
      kind: 'project';
      projectId: string;
      /** `all` for the project secret; the granted list for service-key tokens. */
      scopes: 'all' | ReadonlySet<string>;
      via: 'project_secret' | 'preview_secret' | 'access_token';
      clientId?: string;
      /** Set for access tokens so that revocation can be checked. */
      tokenId?: string;
    };

export function holdsScope(principal: Principal, scope: string): boolean {
  if (principal.kind === 'admin') return true;
  // The project secret holds every scope of its project, never instance-level ones.
  if (principal.scopes === 'all') return principal.via === 'project_secret' && isScope(scope);
  return principal.scopes.has(scope);
}

/**
 * The tenancy rule: a credential of another project sees a 404 with the resource's own code,
 * so that ids cannot be probed across projects.
 */
export function assertProjectAccess(principal: Principal, projectId: string, code = 'proj.not_found', details: ErrorDetails = {}): void {
  if (principal.kind === 'admin') return;
  if (principal.projectId !== projectId) throw new AppError(code, notFoundMessage(code), details);
}

export function canAccessProject(principal: Principal, projectId: string): boolean {
  return principal.kind === 'admin' || principal.projectId === projectId;
}
