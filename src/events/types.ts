/**
 * The event catalogue (docs/events.md): every type Gatehouse writes to a project's event log, the
 * kind of thing it is about, the fields of its `data` and an example. `data` is built from the
 * fields listed here and nothing else (`eventData`), never spread from a row, so a column added
 * later cannot leak into the log; no field ever holds a secret (a catalog test greps the examples).
 *
 * This file imports nothing: every domain that emits, and the HTTP layer that declares `emits`,
 * reads its types from here.
 */

/** Who acted: the kind of credential (or the user themselves, or Gatehouse) and its id where it has one. */
export type ActorKind = 'admin' | 'project_secret' | 'preview_secret' | 'service_key' | 'oauth_client' | 'operator' | 'self' | 'system';

export interface Actor {
  kind: ActorKind;
  /** operator: the operator's user id; service_key, oauth_client: the client id; self: the user; else null */
  id: string | null;
}

export const SYSTEM: Actor = Object.freeze({ kind: 'system', id: null });
export const ADMIN: Actor = Object.freeze({ kind: 'admin', id: null });
export const self = (userId: string): Actor => ({ kind: 'self', id: userId });
/** The user the change is about, acting on itself (a flow, before the user's id is known): `selfAs` names it. */
export const SELF: Actor = Object.freeze({ kind: 'self', id: null });

/** `SELF` as the user `userId`; any other actor as it is. */
export function selfAs(actor: Actor, userId: string): Actor {
  return actor.kind === 'self' && actor.id === null ? self(userId) : actor;
}

/**
 * The actor as the user-attribute audit trail writes it (`admin`, `project_secret`,
 * `service_key:<client id>`, `operator:<user id>`, `self`, `system`): one mapping for both logs.
 */
export function actorName(actor: Actor): string {
  return (actor.kind === 'service_key' || actor.kind === 'operator') && actor.id !== null ? `${actor.kind}:${actor.id}` : actor.kind;
}

export type SubjectKind = 'user' | 'session' | 'project' | 'schema' | 'flow_definition' | 'team' | 'sso_provider' | 'saml_provider' | 'oauth_client' | 'service_key' | 'operator' | 'webhook';

export interface Subject {
  kind: SubjectKind;
  id: string | null;
}

/** The `data` of each type. Values are ids, names, methods, counts and times: never a secret. */
export interface EventDataMap {
  'user.created': { schema_id: string; team_id: string | null };
  'user.updated': { changed: string[] };
  'user.deleted': Record<string, never>;
  'user.unlocked': Record<string, never>;
  'user.locked': { method: string; failures: number; locked_until: string | null; disabled: boolean; flow_id: string };
  'credential.added': { method: string; credential_id: string | null };
  'credential.removed': { method: string; credential_id: string };
  'session.created': { user_id: string; methods: string[] };
  'session.revoked': { user_id: string | null; reason: 'revoked' | 'logout' | 'user_deleted' };
  'login.succeeded': { session_id: string; methods: string[]; step_up: boolean };
  'login.failed': { reason: 'invalid_credentials' | 'blocked' | 'unknown_account' | 'code_exhausted'; method: string; ip: string; user_agent: string | null; flow_id: string };
  'password.changed': Record<string, never>;
  'recovery.requested': { method: string; flow_id: string | null; known_account: boolean };
  'mfa.enabled': { method: string; replaced: boolean };
  'mfa.disabled': { method: string; credential_id: string };
  'sso.linked': { provider_id: string; credential_id: string };
  'sso.unlinked': { credential_id: string };
  'oauth.token_revoked': { token_id: string; token_type: 'access_token' | 'refresh_token' | 'authorization_code'; client_id: string | null; user_id: string | null; reason: 'revoked' | 'reuse_detected' };
  'project.created': { name: string };
  'project.deleted': { name: string };
  'project.updated': { changed: string[] };
  'project.secret_rotated': { previous_valid_until: string };
  'project.settings_updated': { sections: string[] };
  'mail_template.updated': { template: string; language: string };
  'mail_template.deleted': { template: string; language: string };
  'schema.created': { uri: string | null; team_id: string | null };
  'flow_definition.created': { name: string; purposes: string[]; status: string };
  'flow_definition.updated': { name: string; purposes: string[]; status: string };
  'flow_definition.deleted': Record<string, never>;
  'team.created': { name: string };
  'team.deleted': Record<string, never>;
  'sso_provider.created': { name: string; template: string };
  'sso_provider.updated': { name: string; template: string };
  'sso_provider.deleted': Record<string, never>;
  'saml_provider.created': { name: string };
  'saml_provider.updated': { name: string };
  'saml_provider.deleted': Record<string, never>;
  'oauth_client.created': { name: string; public: boolean };
  'oauth_client.deleted': Record<string, never>;
  'service_key.created': { name: string; scopes: string[] };
  'service_key.deleted': Record<string, never>;
  'operator.role_granted': { user_id: string; role: string; project_id: string | null };
  'operator.role_revoked': { user_id: string; project_id: string | null };
  'webhook.created': { url: string; events: string[] };
  'webhook.updated': { url: string; events: string[]; enabled: boolean };
  'webhook.deleted': Record<string, never>;
  'webhook.secret_rotated': { previous_valid_until: string };
  'webhook.disabled': { failing_since: string };
}

export type EventType = keyof EventDataMap;

interface Definition<D> {
  subject: SubjectKind;
  /** one line for docs/events.md */
  summary: string;
  /** the only keys `data` keeps */
  fields: ReadonlyArray<keyof D & string>;
  example: D;
}

const USR = 'usr_5z8k2v0q6m1x3c7b9n4r2t8w1y';
const none = { fields: [], example: {} } as const;

/** Every type, in the order docs/events.md lists them. */
export const EVENT_CATALOGUE: { readonly [T in EventType]: Definition<EventDataMap[T]> } = {
  'user.created': { subject: 'user', summary: 'A user was created (API, registration, or a first upstream sign-in).', fields: ['schema_id', 'team_id'], example: { schema_id: 'sch_1f0c7g3k9m2p4r6t8v0x2z4b6d', team_id: null } },
  'user.updated': { subject: 'user', summary: "A user's attributes were replaced; `changed` names the top-level attributes that differ (never their values).", fields: ['changed'], example: { changed: ['email', 'name'] } },
  'user.deleted': { subject: 'user', summary: 'A user was erased, with its sessions, tokens and credentials.', ...none },
  'user.unlocked': { subject: 'user', summary: "A user's sign-in lock-out was lifted.", ...none },
  'user.locked': {
    subject: 'user',
    summary: "Wrong guesses locked a user's factor: until `locked_until`, or for good (`disabled`) until an operator unlocks it. Written with the `login.failed` of the guess that earned the lock; a longer lock after the last one ran out is a new event.",
    fields: ['method', 'failures', 'locked_until', 'disabled', 'flow_id'],
    example: { method: 'password', failures: 6, locked_until: '2026-11-27T16:05:00.000Z', disabled: false, flow_id: 'flow_8d1f3h5k7m9p1r3t5v7x9z1b3d' },
  },
  'credential.added': { subject: 'user', summary: 'A first-factor credential was added: a password set for the first time, a passkey.', fields: ['method', 'credential_id'], example: { method: 'passkey', credential_id: 'cred_7h2k4m6p8r0t2v4x6z8b0d2f4h' } },
  'credential.removed': { subject: 'user', summary: 'A password or passkey was removed.', fields: ['method', 'credential_id'], example: { method: 'passkey', credential_id: 'cred_7h2k4m6p8r0t2v4x6z8b0d2f4h' } },
  'session.created': { subject: 'session', summary: 'A signed-in session began (a handoff exchanged; an anonymous shell is no event).', fields: ['user_id', 'methods'], example: { user_id: USR, methods: ['password', 'totp'] } },
  'session.revoked': { subject: 'session', summary: 'A signed-in session ended before its time: revoked, logged out, or its user erased.', fields: ['user_id', 'reason'], example: { user_id: USR, reason: 'logout' } },
  'login.succeeded': { subject: 'user', summary: 'A sign-in completed: its factors reached a session (new, upgraded or stepped up).', fields: ['session_id', 'methods', 'step_up'], example: { session_id: 'sess_3c5e7g9j1l3n5q7s9u1w3y5a7c', methods: ['password'], step_up: false } },
  'login.failed': {
    subject: 'user',
    summary: 'A credential check failed; the subject is the user when the identifier named one (null otherwise). The typed identifier is not kept.',
    fields: ['reason', 'method', 'ip', 'user_agent', 'flow_id'],
    example: { reason: 'invalid_credentials', method: 'password', ip: '203.0.113.7', user_agent: 'Mozilla/5.0 (X11; Linux x86_64)', flow_id: 'flow_8b0d2f4h6k8m0p2r4t6v8x0z2b' },
  },
  'password.changed': { subject: 'user', summary: 'A password replaced the previous one (operator set, recovery, settings).', ...none },
  'recovery.requested': { subject: 'user', summary: 'Account recovery was asked for: by someone in a recovery flow (actor `system`; the subject is null when the identifier names no user, and nothing was sent), or by an operator or the API mailing the user a recovery link (`method` `recovery_link`, `flow_id` null, the actor the caller).', fields: ['method', 'flow_id', 'known_account'], example: { method: 'recovery_by_mail', flow_id: 'flow_8b0d2f4h6k8m0p2r4t6v8x0z2b', known_account: true } },
  'mfa.enabled': { subject: 'user', summary: 'A second factor was set up (TOTP, recovery codes), or replaced.', fields: ['method', 'replaced'], example: { method: 'totp', replaced: false } },
  'mfa.disabled': { subject: 'user', summary: 'A second factor was removed.', fields: ['method', 'credential_id'], example: { method: 'totp', credential_id: 'cred_9k1m3p5r7t9v1x3z5b7d9f1h3k' } },
  'sso.linked': { subject: 'user', summary: 'An upstream identity was linked to the user.', fields: ['provider_id', 'credential_id'], example: { provider_id: 'google', credential_id: 'cred_2d4f6h8k0m2p4r6t8v0x2z4b6d' } },
  'sso.unlinked': { subject: 'user', summary: 'An upstream identity was unlinked (its credential removed).', fields: ['credential_id'], example: { credential_id: 'cred_2d4f6h8k0m2p4r6t8v0x2z4b6d' } },
  'oauth.token_revoked': { subject: 'user', summary: 'An OAuth access or refresh token (with its family) was revoked at /auth/revoke (`reason` `revoked`), or a refresh token or authorization code was presented a second time and Gatehouse revoked every token of its grant (`reuse_detected`, actor `system`: a sign of a stolen token); the subject is its user, null for a client token.', fields: ['token_id', 'token_type', 'client_id', 'user_id', 'reason'], example: { token_id: 'tok_6v8x0z2b4d6f8h0k2m4p6r8t0v', token_type: 'refresh_token', client_id: 'oc_4r6t8v0x2z4b6d8f0h2k4m6p8r', user_id: USR, reason: 'revoked' } },
  'project.created': { subject: 'project', summary: 'The project was created.', fields: ['name'], example: { name: 'Shop' } },
  'project.deleted': { subject: 'project', summary: "A project was deleted with everything in it. Its own log goes with it, so the event is in the log of the instance's system project (as operator role changes are); an instance without a system project keeps none.", fields: ['name'], example: { name: 'Shop' } },
  'project.updated': { subject: 'project', summary: 'The project was renamed or its preview origins replaced.', fields: ['changed'], example: { changed: ['preview_origins'] } },
  'project.secret_rotated': { subject: 'project', summary: 'A new project secret was issued; the previous one works until `previous_valid_until`.', fields: ['previous_valid_until'], example: { previous_valid_until: '2030-01-02T00:00:00.000Z' } },
  'project.settings_updated': { subject: 'project', summary: 'Project settings changed: `sections` among `sessions`, `ui`, `events`, `branding`, `flow_settings`.', fields: ['sections'], example: { sections: ['sessions', 'events'] } },
  'mail_template.updated': { subject: 'project', summary: 'A mail template override was stored (created or replaced) for one message in one language; its text is not in the event.', fields: ['template', 'language'], example: { template: 'recovery_code', language: 'de' } },
  'mail_template.deleted': { subject: 'project', summary: 'A mail template override was removed: the built-in message applies again (removing none is no event).', fields: ['template', 'language'], example: { template: 'recovery_code', language: 'de' } },
  'schema.created': { subject: 'schema', summary: 'A user schema revision was stored.', fields: ['uri', 'team_id'], example: { uri: 'https://schemas.example.com/customer.json', team_id: null } },
  'flow_definition.created': { subject: 'flow_definition', summary: 'A flow definition was created.', fields: ['name', 'purposes', 'status'], example: { name: 'login-with-totp', purposes: ['login'], status: 'active' } },
  'flow_definition.updated': { subject: 'flow_definition', summary: 'A flow definition was replaced.', fields: ['name', 'purposes', 'status'], example: { name: 'login-with-totp', purposes: ['login'], status: 'inactive' } },
  'flow_definition.deleted': { subject: 'flow_definition', summary: 'A flow definition was deleted.', ...none },
  'team.created': { subject: 'team', summary: 'A team was created.', fields: ['name'], example: { name: 'Support' } },
  'team.deleted': { subject: 'team', summary: 'A team was deleted.', ...none },
  'sso_provider.created': { subject: 'sso_provider', summary: 'An upstream identity provider was added.', fields: ['name', 'template'], example: { name: 'Google', template: 'google' } },
  'sso_provider.updated': { subject: 'sso_provider', summary: 'An upstream identity provider was replaced.', fields: ['name', 'template'], example: { name: 'Google Workspace', template: 'google' } },
  'sso_provider.deleted': { subject: 'sso_provider', summary: 'An upstream identity provider was removed.', ...none },
  'saml_provider.created': { subject: 'saml_provider', summary: 'A SAML identity provider was added.', fields: ['name'], example: { name: 'Corp Entra ID' } },
  'saml_provider.updated': { subject: 'saml_provider', summary: 'A SAML identity provider was replaced (metadata, mapping, domains).', fields: ['name'], example: { name: 'Corp Entra ID' } },
  'saml_provider.deleted': { subject: 'saml_provider', summary: 'A SAML identity provider was removed.', ...none },
  'oauth_client.created': { subject: 'oauth_client', summary: 'An OIDC client was registered.', fields: ['name', 'public'], example: { name: 'Shop web', public: false } },
  'oauth_client.deleted': { subject: 'oauth_client', summary: 'An OIDC client was deleted (its tokens revoked).', ...none },
  'service_key.created': { subject: 'service_key', summary: 'A service key was created.', fields: ['name', 'scopes'], example: { name: 'billing', scopes: ['user.read', 'event.read'] } },
  'service_key.deleted': { subject: 'service_key', summary: 'A service key was deleted (its tokens revoked).', ...none },
  'operator.role_granted': { subject: 'operator', summary: "An operator role was granted (in the system project's log).", fields: ['user_id', 'role', 'project_id'], example: { user_id: USR, role: 'project_admin', project_id: 'proj_0a2c4e6g8j0l2n4q6s8u0w2y4a' } },
  'operator.role_revoked': { subject: 'operator', summary: "An operator role was revoked (in the system project's log).", fields: ['user_id', 'project_id'], example: { user_id: USR, project_id: 'proj_0a2c4e6g8j0l2n4q6s8u0w2y4a' } },
  'webhook.created': { subject: 'webhook', summary: 'A webhook endpoint was registered.', fields: ['url', 'events'], example: { url: 'https://shop.example.com/webhooks/gatehouse', events: ['user.created'] } },
  'webhook.updated': { subject: 'webhook', summary: 'A webhook endpoint was changed.', fields: ['url', 'events', 'enabled'], example: { url: 'https://shop.example.com/webhooks/gatehouse', events: ['*'], enabled: true } },
  'webhook.deleted': { subject: 'webhook', summary: 'A webhook endpoint was deleted.', ...none },
  'webhook.secret_rotated': { subject: 'webhook', summary: "A webhook's signing secret was rotated; both are used until `previous_valid_until`.", fields: ['previous_valid_until'], example: { previous_valid_until: '2030-01-02T00:00:00.000Z' } },
  'webhook.disabled': { subject: 'webhook', summary: 'A webhook endpoint that kept failing was disabled.', fields: ['failing_since'], example: { failing_since: '2029-12-27T00:00:00.000Z' } },
};

export const EVENT_TYPES = Object.keys(EVENT_CATALOGUE) as EventType[];

export function isEventType(value: string): value is EventType {
  return Object.hasOwn(EVENT_CATALOGUE, value);
}

/** What an emitter hands `EventLog.record`: the change's project, actor, subject and the type's data. */
export interface NewEvent<T extends EventType = EventType> {
  type: T;
  projectId: string;
  actor: Actor;
  /** the subject's id; its kind is the type's (`EVENT_CATALOGUE`) */
  subjectId: string | null;
  data: EventDataMap[T];
}

/** An event as GET /events answers it. */
export interface EventResource {
  id: string;
  type: string;
  occurred_at: string;
  project_id: string;
  actor: Actor;
  subject: Subject;
  data: Record<string, unknown>;
}

/** Values that must never reach the log: our token and secret prefixes (`gh_st_`, `gh_ps_`...), webhook secrets, password hashes. */
export const SECRET_SHAPES: readonly RegExp[] = [/gh_[a-z]{2,8}_/, /whsec_/, /\$argon2/];

/** What a secret-looking string becomes in `data` (`eventData`): a name an operator typed may look like one. */
export const REDACTED = '[redacted]';

const redact = (value: unknown): unknown => {
  if (typeof value === 'string') return SECRET_SHAPES.some((shape) => shape.test(value)) ? REDACTED : value;
  if (Array.isArray(value)) return value.map(redact);
  if (typeof value === 'object' && value !== null) return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, redact(item)]));
  return value;
};

/** The first string anywhere in `value` that looks like a secret, or undefined (the catalog test's check). */
export function secretIn(value: unknown): string | undefined {
  if (typeof value === 'string') return SECRET_SHAPES.some((shape) => shape.test(value)) ? value : undefined;
  const items = Array.isArray(value) ? value : typeof value === 'object' && value !== null ? Object.values(value) : [];
  for (const item of items) {
    const found = secretIn(item);
    if (found !== undefined) return found;
  }
  return undefined;
}

/**
 * The type's `data`: its declared fields only, built anew (a missing one as null), and any string
 * that looks like a secret replaced by `REDACTED`, whatever the caller passed.
 */
export function eventData<T extends EventType>(type: T, data: EventDataMap[T]): Record<string, unknown> {
  const built: Record<string, unknown> = {};
  for (const field of EVENT_CATALOGUE[type].fields as readonly string[]) built[field] = redact((data as Record<string, unknown>)[field] ?? null);
  return built;
}
