/** Every scope a credential can hold, as the interface names them. */
export const SCOPES = [
  'project.write',
  'team.read',
  'team.write',
  'schema.read',
  'schema.write',
  'user.read',
  'user.write',
  'session.read',
  'sessions.read',
  'session.write',
  'session.delete',
  'auth_attempt.write',
  'flow_definition.read',
  'flow_definition.write',
  'flow_definition.delete',
  /** GET /events: the project's event log (docs/events.md) */
  'event.read',
] as const;

export type Scope = (typeof SCOPES)[number];

export function isScope(value: string): value is Scope {
  return (SCOPES as readonly string[]).includes(value);
}

/** Held only by the instance admin token (creating projects). */
export const ADMIN_SCOPE = 'instance.admin';

/**
 * Held by operators signed in through the system project (docs/operators.md): a project admin's
 * own token and an instance admin operator, never the admin token or a project credential. It
 * lets them list their projects and mint project tokens.
 */
export const OPERATOR_SCOPE = 'operator';

/** What a preview secret may do: read its project and run flows from its preview origins. */
export const PREVIEW_SCOPES: ReadonlySet<string> = new Set(['project.read', 'flow.run']);
