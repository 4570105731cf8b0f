import { projectScope, type Principal } from '../core/principal.js';
import { actorName, type Actor } from '../events/types.js';

/** The project a by-id read is confined to; undefined lets the admin token read any project. */
export function projectScopeOf(principal: Principal): string | undefined {
  return projectScope(principal);
}

/**
 * Who acted, for the event log and the attribute audit trail alike: never a secret, only the kind
 * of credential and the id it has (an operator's user id, a service key's client id).
 */
export function actorRefOf(principal: Principal): Actor {
  if (principal.kind === 'admin') return principal.operator ? { kind: 'operator', id: principal.operator } : { kind: 'admin', id: null };
  if (principal.kind === 'operator') return { kind: 'operator', id: principal.userId };
  if (principal.via === 'operator') return { kind: 'operator', id: principal.operatorId ?? 'unknown' };
  if (principal.via === 'access_token') return { kind: 'service_key', id: principal.clientId ?? 'unknown' };
  return { kind: principal.via, id: null };
}

/** `actorRefOf` as the audit trail writes it: `admin`, `project_secret`, `service_key:<client id>`, `operator:<user id>`. */
export function actorOf(principal: Principal): string {
  return actorName(actorRefOf(principal));
}
