import { AppError, type ErrorDetails } from '../core/errors.js';
import { isScope } from '../core/scopes.js';

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

const RESOURCE_BY_PREFIX: Record<string, string> = {
  proj: 'The project',
  team: 'The team',
  user: 'The user',
  sch: 'The schema',
  flowdef: 'The flow definition',
  sess: 'The session',
  att: 'The auth attempt',
  flow: 'The flow',
  key: 'The service key',
};

export function notFoundMessage(code: string): string {
  if (code === 'att.not_found') return 'The auth attempt was not found.';
  const prefix = code.split('.')[0];
  return `${RESOURCE_BY_PREFIX[prefix] ?? 'The resource'} was not found.`;
}

export function notFoundError(code: string, details: ErrorDetails = {}): AppError {
  return new AppError(code, notFoundMessage(code), details);
}
