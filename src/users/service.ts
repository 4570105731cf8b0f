import type { ErrorObject } from 'ajv/dist/2020.js';
import type { Kysely } from 'kysely';
import type { Clock } from '../core/clock.js';
import type { ChangeFeed } from '../cache/feed.js';
import { AppError, notFoundError } from '../core/errors.js';
import { looksLikeId, type IdGenerator } from '../core/ids.js';
import type { Page, PageRequest, Paginator } from '../core/pagination.js';
import type { Database } from '../db/schema.js';
import type { EventLog } from '../events/service.js';
import { actorName, selfAs, SYSTEM, type Actor } from '../events/types.js';
import { depthOf, valueAt } from '../schemas/document.js';
import type { SchemaService, StoredSchema } from '../schemas/service.js';
import type { TeamService } from '../teams/service.js';
import { claimsOf, profileOf, type UserClaims } from './claims.js';
import { credentialEvent, changedAttributes } from './audit-events.js';
import { auditedChanges, identifierRows, normaliseIdentifier } from './identifiers.js';
import type { AuditEventRow, UserRow, UserStore } from './store.js';

/** Attributes are documents about a person; deeper nesting is refused before anything walks it. */
const MAX_ATTRIBUTE_DEPTH = 32;

/** A user as services pass it around; `toUserResource` gives the interface's shape. */
export interface User {
  id: string;
  projectId: string;
  /** The revision id the attributes were validated against. */
  schemaId: string;
  /** The schema reference as the creator wrote it (echoed back as `schema`). */
  schema: string;
  attributes: Record<string, unknown>;
  metadata: {
    created_at: string;
    updated_at: string;
    status: string;
    lifecycle_owner_team_id?: string;
    /** attribute paths proved by a mailed code or link -> when (DESIGN §4.11) */
    verified?: Record<string, string>;
  };
}

export interface AuditEvent {
  id: string;
  attribute: string;
  action: string;
  actor: string;
  created_at: string;
}

export interface UserInput {
  /** Revision id or `$id` URL. */
  schema: string;
  attributes: Record<string, unknown>;
}

export interface CreateUserOptions {
  teamId?: string;
  /** Run inside the caller's transaction (e.g. a flow that also writes a credential). */
  trx?: Kysely<Database>;
  /** Who does it, for the audit trail and the event log (default: `system`). */
  actor?: Actor;
}

export function toUser(row: UserRow): User {
  const metadata: User['metadata'] = {
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
    status: row.status,
  };
  if (row.lifecycle_owner_team_id) metadata.lifecycle_owner_team_id = row.lifecycle_owner_team_id;
  if (row.verified && Object.keys(row.verified).length > 0) metadata.verified = row.verified;
  return { id: row.id, projectId: row.project_id, schemaId: row.schema_id, schema: row.schema_ref, attributes: row.attributes, metadata };
}

export function toUserResource(user: User) {
  return { id: user.id, schema: user.schema, attributes: user.attributes, metadata: user.metadata };
}

/** Ajv's errors as `{path, message}` with paths under `attributes/`, naming missing and extra properties. */
function attributeErrors(errors: ErrorObject[]): Array<{ path: string; message: string; keyword: string }> {
  return errors.map((error) => {
    let path = `attributes${error.instancePath}`;
    if (error.keyword === 'required') path += `/${String(error.params.missingProperty)}`;
    if (error.keyword === 'additionalProperties') path += `/${String(error.params.additionalProperty)}`;
    if (error.keyword === 'unevaluatedProperties') path += `/${String(error.params.unevaluatedProperty)}`;
    return { path, message: error.message ?? 'is invalid', keyword: error.keyword };
  });
}

/**
 * Work other domains do when a user is deleted (sessions, attempts, OAuth tokens, credentials
 * kept outside the users tables), inside the transaction that deletes the user row. What it
 * returns runs after the commit (dropping this process's cached rows: before the commit a read
 * could cache the old row again).
 */
export type UserDeletedHook = (trx: Kysely<Database>, user: User, actor: Actor) => Promise<void | (() => void)>;
/**
 * A check before a user is erased, in the erasing transaction, that throws to refuse it (the last
 * instance admin, src/operators). `scope` is the caller's project (undefined: the admin token): a
 * hook refuses only for a user the caller can see, so the refusal tells no other project anything.
 */
export type UserDeletingHook = (trx: Kysely<Database>, scope: string | undefined, userId: string) => Promise<void>;

export class UserService {
  private readonly deletedHooks: UserDeletedHook[] = [];
  private readonly deletingHooks: UserDeletingHook[] = [];

  constructor(
    private readonly store: UserStore,
    private readonly schemas: SchemaService,
    private readonly teams: TeamService,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
    private readonly paginator: Paginator,
    private readonly events: EventLog,
    private readonly changes?: ChangeFeed,
  ) {}

  /**
   * Creates a user: resolves the schema (id or URL), validates the attributes with the revision's
   * cached validator (400 `user.invalid`), claims its x-unique identifiers in the same transaction
   * (409 `user.already_exists`) and records audited attributes.
   */
  async create(projectId: string, input: UserInput, options: CreateUserOptions = {}): Promise<User> {
    const schema = await this.checkInput(projectId, input, options.trx);
    if (options.teamId !== undefined && !(await this.teamBelongs(projectId, options.teamId, options.trx))) {
      throw notFoundError('team.not_found');
    }
    const now = this.clock.now();
    const row: UserRow = {
      id: this.ids.next('usr'),
      project_id: projectId,
      schema_id: schema.id,
      schema_ref: input.schema,
      attributes: input.attributes,
      status: 'active',
      lifecycle_owner_team_id: options.teamId ?? null,
      created_at: now,
      updated_at: now,
      verified: {},
    };
    const actor = selfAs(options.actor ?? SYSTEM, row.id);
    const write = async (trx: Kysely<Database>) => {
      const store = this.store.with(trx);
      await store.insert(row);
      const taken = await store.claimIdentifiers(
        identifierRows(schema.model, { projectId, id: row.id, teamId: row.lifecycle_owner_team_id, attributes: row.attributes }),
      );
      if (taken.length > 0) {
        // Undo the insert here: a caller's transaction that catches the 409 must not keep a half user.
        await store.delete(row.id);
        throw alreadyExists(taken);
      }
      await store.insertAuditEvents(this.auditRows(row, auditedChanges(schema.model, undefined, row.attributes), actor));
      await this.events.record(trx, { type: 'user.created', projectId, actor, subjectId: row.id, data: { schema_id: schema.id, team_id: row.lifecycle_owner_team_id } });
    };
    await (options.trx ? write(options.trx) : this.store.transaction((trx) => write(trx)));
    return toUser(row);
  }

  /**
   * Resolves the schema a new user names and validates the attributes against it, without writing
   * anything: 400 `user.invalid` listing each failing path. Registration calls it before hashing a
   * password, so that bad attributes are reported first.
   */
  async checkInput(projectId: string, input: UserInput, trx?: Kysely<Database>): Promise<StoredSchema> {
    const schema = await this.schemas.resolve(projectId, input.schema, trx);
    if (!schema) {
      throw new AppError('user.invalid', 'The user does not match its schema.', {
        errors: [{ path: 'schema', message: 'names no user schema of this project', keyword: 'schema' }],
      });
    }
    this.validate(schema, input.attributes);
    return schema;
  }

  /**
   * Replaces a user's attributes (validated against the user's own revision), re-claims its
   * identifiers and audits what changed.
   */
  async updateAttributes(projectId: string, userId: string, attributes: Record<string, unknown>, options: { actor?: Actor } = {}): Promise<User> {
    const current = await this.get(projectId, userId);
    const schema = await this.schemaOf(current);
    this.validate(schema, attributes);
    const now = this.clock.now();
    // A verified value that changes is no longer verified (the new address proved nothing).
    const verified = { ...(current.metadata.verified ?? {}) };
    const unverified = Object.keys(verified).filter((path) => JSON.stringify(valueAt(current.attributes, path)) !== JSON.stringify(valueAt(attributes, path)));
    for (const path of unverified) delete verified[path];
    const actor = selfAs(options.actor ?? SYSTEM, userId);
    await this.store.transaction(async (trx, store) => {
      await store.releaseIdentifiers(userId);
      const taken = await store.claimIdentifiers(
        identifierRows(schema.model, { projectId, id: userId, teamId: current.metadata.lifecycle_owner_team_id ?? null, attributes }),
      );
      if (taken.length > 0) throw alreadyExists(taken);
      await store.updateAttributes(userId, attributes, now, unverified);
      const changes = auditedChanges(schema.model, current.attributes, attributes);
      await store.insertAuditEvents(this.auditRows({ id: userId, project_id: projectId }, changes, actor, now));
      await this.events.record(trx, { type: 'user.updated', projectId, actor, subjectId: userId, data: { changed: changedAttributes(current.attributes, attributes) } });
    });
    this.announce(userId);
    const metadata: User['metadata'] = { ...current.metadata, updated_at: now.toISOString() };
    if (Object.keys(verified).length > 0) metadata.verified = verified;
    else delete metadata.verified;
    return { ...current, attributes, metadata };
  }

  /** Records that the user proved to own the value at `path` (a mailed code or link reached it). */
  async markVerified(projectId: string, userId: string, path: string): Promise<void> {
    if (await this.store.markVerified(projectId, userId, path, this.clock.now())) this.announce(userId);
  }

  /**
   * Called after a commit that changed the user's row: every cache of this process keyed by it
   * (the session check's profile) drops it at once; the row's notification follows for the others.
   */
  private announce(userId: string): void {
    this.changes?.publishLocal(`usr:${userId}`);
  }

  onDeleted(hook: UserDeletedHook): void {
    this.deletedHooks.push(hook);
  }

  onDeleting(hook: UserDeletingHook): void {
    this.deletingHooks.push(hook);
  }

  /**
   * Erases a user in one transaction: every `onDeleted` hook (sessions and their tokens, pending
   * attempts, OAuth grants...) and the row, whose identifiers, credentials and audit trail go by
   * cascade. Another project's user, or an unknown one, is 404 `user.not_found`.
   */
  async delete(projectId: string | undefined, userId: string, actor: Actor = SYSTEM): Promise<void> {
    if (!looksLikeId(userId, 'usr')) throw notFoundError('user.not_found');
    const afterCommit: Array<() => void> = [];
    await this.store.transaction(async (trx, store) => {
      for (const hook of this.deletingHooks) await hook(trx, projectId, userId);
      // Deleting first takes the row lock: of concurrent deletes one finds the row, the others 404.
      const row = await store.deleteInProject(projectId, userId);
      if (!row) throw notFoundError('user.not_found');
      const user = toUser(row);
      for (const hook of this.deletedHooks) {
        const then = await hook(trx, user, actor);
        if (then) afterCommit.push(then);
      }
      await this.events.record(trx, { type: 'user.deleted', projectId: user.projectId, actor, subjectId: user.id, data: {} });
    });
    for (const then of afterCommit) then();
    this.announce(userId);
  }

  /** A user of the project (any project when `projectId` is undefined: the admin token). */
  async get(projectId: string | undefined, userId: string, teamId?: string): Promise<User> {
    const row = looksLikeId(userId, 'usr') ? await this.store.find(projectId, userId) : undefined;
    if (!row || (teamId !== undefined && row.lifecycle_owner_team_id !== teamId)) throw notFoundError('user.not_found');
    return toUser(row);
  }

  /** Like `get`, but undefined instead of 404 (for flows and sessions); `trx` reads inside a transaction. */
  async find(projectId: string, userId: string, trx?: Kysely<Database>): Promise<User | undefined> {
    const store = trx ? this.store.with(trx) : this.store;
    const row = looksLikeId(userId, 'usr') ? await store.find(projectId, userId) : undefined;
    return row ? toUser(row) : undefined;
  }

  /**
   * The user whose x-unique identifier equals `value` after normalisation (login by e-mail or
   * username). With a schema reference, only users of that schema's objectType are considered.
   */
  async findByIdentifier(projectId: string, schemaIdOrUrl: string | undefined, value: string): Promise<User | undefined> {
    const normalised = normaliseIdentifier(value);
    if (normalised === undefined) return undefined;
    let objectType: string | undefined;
    if (schemaIdOrUrl !== undefined) {
      const schema = await this.schemas.resolve(projectId, schemaIdOrUrl);
      if (!schema) return undefined;
      objectType = schema.objectType;
    }
    const row = await this.store.findByIdentifier(projectId, normalised, objectType);
    return row ? toUser(row) : undefined;
  }

  async list(projectId: string, request: PageRequest): Promise<Page<User>> {
    const scope = `users:${projectId}`;
    const cursor = request.pageToken ? this.paginator.decode(request.pageToken, scope) : undefined;
    const limit = this.paginator.limitOf(request);
    const rows = await this.store.list(projectId, cursor, limit);
    return this.paginator.page(rows, limit, scope, (row) => ({ createdAt: row.created_at, id: row.id }), toUser);
  }

  /** The revision a user was validated against. */
  async schemaOf(user: User, trx?: Kysely<Database>): Promise<StoredSchema> {
    const schema = await this.schemas.resolve(user.projectId, user.schemaId, trx);
    if (!schema) throw new AppError('internal', `schema ${user.schemaId} of user ${user.id} is missing`);
    return schema;
  }

  /** OIDC claims from the schema's `x-claim` keywords (`sub` is the user id); used by userinfo. */
  async claims(user: User): Promise<UserClaims> {
    return claimsOf((await this.schemaOf(user)).model, user);
  }

  /** `{name?, email?}` for a session's display fields, from the user's claims. */
  async profile(user: User): Promise<{ name?: string; email?: string }> {
    return profileOf(await this.claims(user));
  }

  /**
   * Records a credential change in the change's transaction: the audit trail's row (`password set`,
   * `totp added`, `passkey removed`...) and its event (`credential.added`, `password.changed`,
   * `mfa.enabled`, `sso.unlinked`..., src/users/audit-events.ts).
   */
  async audit(trx: Kysely<Database>, user: { id: string; projectId: string }, change: { attribute: string; action: string; actor?: Actor; credentialId?: string | null }): Promise<void> {
    const actor = selfAs(change.actor ?? SYSTEM, user.id);
    await this.store.with(trx).insertAuditEvents(this.auditRows({ id: user.id, project_id: user.projectId }, [change], actor));
    const event = credentialEvent(change.attribute, change.action, change.credentialId ?? null);
    if (event) await this.events.record(trx, { ...event, projectId: user.projectId, actor, subjectId: user.id });
  }

  async auditTrail(projectId: string | undefined, userId: string, request: PageRequest): Promise<Page<AuditEvent>> {
    await this.get(projectId, userId);
    const scope = `user_audit:${userId}`;
    const cursor = request.pageToken ? this.paginator.decode(request.pageToken, scope) : undefined;
    const limit = this.paginator.limitOf(request);
    const rows = await this.store.listAuditEvents(userId, cursor, limit);
    return this.paginator.page(rows, limit, scope, (row) => ({ createdAt: row.created_at, id: row.id }), (row) => ({
      id: row.id,
      attribute: row.attribute,
      action: row.action,
      actor: row.actor,
      created_at: row.created_at.toISOString(),
    }));
  }

  /**
   * Inside a caller's transaction the team is checked on that transaction's connection (a read
   * through another connection would wait forever on the embedded engine).
   */
  private async teamBelongs(projectId: string, teamId: string, trx?: Kysely<Database>): Promise<boolean> {
    return trx ? this.store.with(trx).teamBelongs(projectId, teamId) : this.teams.exists(projectId, teamId);
  }

  private validate(schema: StoredSchema, attributes: Record<string, unknown>): void {
    if (depthOf(attributes) > MAX_ATTRIBUTE_DEPTH) {
      throw new AppError('user.invalid', 'The user does not match its schema.', {
        errors: [{ path: 'attributes', message: `must nest at most ${MAX_ATTRIBUTE_DEPTH} levels`, keyword: 'depth' }],
      });
    }
    const validate = this.schemas.validatorFor(schema);
    if (!validate(attributes)) {
      throw new AppError('user.invalid', 'The user does not match its schema.', { errors: attributeErrors(validate.errors ?? []), schema: schema.id });
    }
  }

  private auditRows(
    user: { id: string; project_id: string },
    changes: Array<{ attribute: string; action: string }>,
    actor: Actor,
    at = this.clock.now(),
  ): AuditEventRow[] {
    return changes.map((change) => ({
      id: this.ids.next('aud'),
      project_id: user.project_id,
      user_id: user.id,
      attribute: change.attribute,
      action: change.action,
      actor: actorName(actor),
      created_at: at,
    }));
  }
}

function alreadyExists(attributes: string[]): AppError {
  return new AppError('user.already_exists', 'A user with this identifier already exists.', { attributes });
}
