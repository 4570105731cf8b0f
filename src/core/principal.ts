import { AppError, notFoundMessage, type ErrorDetails } from './errors.js';
import { isScope, OPERATOR_SCOPE } from './scopes.js';

/** Who is calling, after the bearer credential has been resolved. */
export type Principal =
  | {
      kind: 'admin';
      /** Set when an instance admin operator (a system-project user) calls, not the admin token. */
      operator?: string;
    }
  | {
      kind: 'project';
      projectId: string;
      /** `all` for the project secret and an operator's project token; the granted list for service-key tokens. */
      scopes: 'all' | ReadonlySet<string>;
      via: 'project_secret' | 'preview_secret' | 'access_token' | 'operator';
      clientId?: string;
      /** Set for access tokens so that revocation can be checked. */
      tokenId?: string;
      /** The operator (system-project user) behind a project token (`via: 'operator'`). */
      operatorId?: string;
    }
  | {
      /** A project admin operator: lists their projects and mints project tokens, nothing else. */
      kind: 'operator';
      userId: string;
      projects: ReadonlySet<string>;
    };

export function holdsScope(principal: Principal, scope: string): boolean {
  // The admin token needs no operator's project token; an instance admin operator may mint one.
  if (principal.kind === 'admin') return scope !== OPERATOR_SCOPE || principal.operator !== undefined;
  // A project admin works through project tokens: its own token holds the operator scope only.
  if (principal.kind === 'operator') return scope === OPERATOR_SCOPE;
  // A project credential needs no project token, whatever scopes it lists.
  if (scope === OPERATOR_SCOPE) return false;
  // The project secret (and an operator's project token) holds every scope of its project, never instance-level ones.
  if (principal.scopes === 'all') return (principal.via === 'project_secret' || principal.via === 'operator') && isScope(scope);
  return principal.scopes.has(scope);
}

/**
 * The tenancy rule: a credential of another project sees a 404 with the resource's own code,
 * so that ids cannot be probed across projects.
 */
export function assertProjectAccess(principal: Principal, projectId: string, code = 'proj.not_found', details: ErrorDetails = {}): void {
  if (!canAccessProject(principal, projectId)) throw new AppError(code, notFoundMessage(code), details);
}

export function canAccessProject(principal: Principal, projectId: string): boolean {
  if (principal.kind === 'admin') return true;
  if (principal.kind === 'operator') return principal.projects.has(projectId);
  return principal.projectId === projectId;
}

/**
 * The project a by-id lookup is confined to: the credential's own project, or undefined for the
 * admin (any project). A project admin operator reaches no by-id route (its scope says so); should
 * one ever get here, it is refused rather than treated as the admin.
 */
export function projectScope(principal: Principal): string | undefined {
  if (principal.kind === 'admin') return undefined;
  if (principal.kind === 'operator') throw new AppError('auth.forbidden', 'An operator acts on a project through a project token.', { required_scope: 'project.write' });
  return principal.projectId;
}
