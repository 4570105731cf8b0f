import { projectScope, type Principal } from '../core/principal.js';

/** The project a by-id read is confined to; undefined lets the admin token read any project. */
export function projectScopeOf(principal: Principal): string | undefined {
  return projectScope(principal);
}

/** Who acted, for audit trails: never a secret, only the kind of credential and a client id. */
export function actorOf(principal: Principal): string {
  if (principal.kind === 'admin') return principal.operator ? `operator:${principal.operator}` : 'admin';
  if (principal.kind === 'operator') return `operator:${principal.userId}`;
  if (principal.via === 'operator') return `operator:${principal.operatorId ?? 'unknown'}`;
  if (principal.via === 'access_token') return `service_key:${principal.clientId ?? 'unknown'}`;
  return principal.via;
}
