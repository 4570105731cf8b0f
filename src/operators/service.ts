import type { Kysely } from 'kysely';
import type { Clock } from '../core/clock.js';
import { AppError, notFoundError } from '../core/errors.js';
import type { IdGenerator } from '../core/ids.js';
import type { Page, PageRequest, Paginator } from '../core/pagination.js';
import type { Principal } from '../core/principal.js';
import type { SealedBox } from '../core/sealed-box.js';
import type { Database } from '../db/schema.js';
import type { EventLog } from '../events/service.js';
import { SYSTEM, type Actor } from '../events/types.js';
import type { ProjectService } from '../projects/service.js';
import { ProjectTokens } from './project-tokens.js';
import type { OperatorRoleRow, OperatorStore } from './store.js';

export type OperatorRole = 'instance_admin' | 'project_admin';

/** One role of one operator, as the API shows it. */
export interface RoleGrant {
  user_id: string;
  role: OperatorRole;
  /** null for `instance_admin` (every project). */
  project_id: string | null;
  granted_at: string;
}

export function toGrant(row: OperatorRoleRow): RoleGrant {
  return { user_id: row.user_id, role: row.role, project_id: row.project_id, granted_at: row.granted_at.toISOString() };
}

/** The name of the project whose users are the operators. */
export const SYSTEM_PROJECT_NAME = 'system';

/** What the operators domain asks of the users domain: is this a user of that project? */
export interface OperatorUsers {
  find(projectId: string, userId: string): Promise<unknown>;
}

export interface OperatorServiceDeps {
  db: Kysely<Database>;
  store: OperatorStore;
  projects: ProjectService;
  users: OperatorUsers;
  clock: Clock;
  ids: IdGenerator;
  paginator: Paginator;
  /** Seals project tokens (purpose `operator.project-token`). */
  box: SealedBox;
  /** Role changes are events of the system project's log. */
  events: EventLog;
}

/** Another call named the system project first: this one's project is rolled back. */
class InstanceClaimed extends Error {}

/**
 * Whether `userId` holds the instance admin role, refusing (409) when they are the last one. The
 * instance admin rows are locked while counting, so two admins removed at once leave one.
 */
async function keepsAnotherInstanceAdmin(store: OperatorStore, userId: string): Promise<boolean> {
  const admins = await store.lockInstanceAdmins();
  if (!admins.some((row) => row.user_id === userId)) return false;
  if (admins.length === 1) throw new AppError('operator.last_instance_admin', 'This is the last instance admin: grant the role to another operator first.', { user_id: userId });
  return true;
}

/** PostgreSQL's foreign_key_violation: the user or project went away between the check and the write. */
const isForeignKeyViolation = (error: unknown) => (error as { code?: unknown } | undefined)?.code === '23503';

/**
 * Operators (docs/operators.md): users of the instance's `system` project, with roles. Their
 * access tokens become the admin principal (instance admins) or an `operator` principal (project
 * admins), and project admins work through short-lived project tokens (./project-tokens.ts).
 */
export class OperatorService {
  /** The system project's id once known: the singleton row never changes. */
  private systemId?: string;
  private readonly tokens: ProjectTokens;

  constructor(private readonly deps: OperatorServiceDeps) {
    this.tokens = new ProjectTokens(this, deps.box, deps.clock);
  }

  /** A 5-minute project token for a project the operator administers (else 404 `proj.not_found`). */
  mintProjectToken(userId: string, projectId: string): Promise<{ token: string; expires_at: string }> {
    return this.tokens.mint(userId, projectId);
  }

  /** The bearer resolver of project tokens: `{kind: 'project', via: 'operator'}` while the role holds. */
  resolveProjectToken(token: string): Promise<Principal | undefined> {
    return this.tokens.resolve(token);
  }

  /** The system project's id, without creating it. */
  async knownSystemProject(): Promise<string | undefined> {
    this.systemId ??= await this.deps.store.systemProjectId();
    return this.systemId;
  }

  /**
   * The system project's id, created on first need with the default user schema (password,
   * passkeys, TOTP, recovery codes). The project and the singleton row that names it are written
   * in one transaction; of concurrent first calls one names its project and the others roll theirs back.
   */
  async systemProject(): Promise<string> {
    const known = await this.knownSystemProject();
    if (known) return known;
    try {
      await this.deps.projects.create({ name: SYSTEM_PROJECT_NAME }, {
        within: async (trx, project) => {
          if (!(await this.deps.store.with(trx).claimInstance(project.id, this.deps.clock.now()))) throw new InstanceClaimed();
        },
      });
    } catch (error) {
      if (!(error instanceof InstanceClaimed)) throw error;
    }
    const id = await this.knownSystemProject();
    if (!id) throw new Error('the system project was neither found nor created');
    return id;
  }

  /** Refuses to delete the system project (a `ProjectService.onDeleting` hook). */
  async refuseSystemProjectDeletion(trx: Kysely<Database>, projectId: string): Promise<void> {
    if ((await this.deps.store.with(trx).systemProjectId()) === projectId) {
      throw new AppError('proj.system_project', 'The system project holds the instance\'s operators and cannot be deleted.', { project_id: projectId });
    }
  }

  /** 404 `user.not_found` unless the user is a user of the system project. */
  private async requireSystemUser(userId: string): Promise<void> {
    const system = await this.knownSystemProject();
    if (!system || !(await this.deps.users.find(system, userId))) throw notFoundError('user.not_found');
  }

  /** A project an operator may administer: it exists and is not the system project. */
  async isManagedProject(projectId: string): Promise<boolean> {
    if (projectId === (await this.knownSystemProject())) return false;
    return (await this.deps.projects.row(projectId)) !== undefined;
  }

  /** Grants a role; granting one the user holds already answers the existing grant. */
  async grant(userId: string, role: OperatorRole, projectId: string | undefined, actor: Actor = SYSTEM): Promise<RoleGrant> {
    if (role === 'instance_admin' && projectId !== undefined) {
      throw new AppError('req.invalid', 'An instance admin holds every project: name no project.', { errors: [{ path: 'body/project_id', message: 'must be absent for instance_admin' }] });
    }
    if (role === 'project_admin' && projectId === undefined) {
      throw new AppError('req.invalid', 'A project admin role names its project.', { errors: [{ path: 'body/project_id', message: 'is required for project_admin' }] });
    }
    await this.requireSystemUser(userId);
    if (projectId !== undefined && !(await this.isManagedProject(projectId))) throw notFoundError('proj.not_found');
    const row: OperatorRoleRow = { id: this.deps.ids.next('oprole'), user_id: userId, project_id: projectId ?? null, role, granted_at: this.deps.clock.now() };
    // requireSystemUser found the user in it: the system project exists.
    const systemProjectId = (await this.knownSystemProject())!;
    const { events } = this.deps;
    try {
      return await events.transaction(async (trx) => {
        const store = this.deps.store.with(trx);
        const inserted = await store.insertRole(row);
        const held = inserted ?? (await store.findRole(userId, row.project_id));
        if (!held) throw notFoundError('user.not_found');
        if (inserted) await events.record(trx, { type: 'operator.role_granted', projectId: systemProjectId, actor, subjectId: userId, data: { user_id: userId, role, project_id: row.project_id } });
        return toGrant(held);
      });
    } catch (error) {
      if (isForeignKeyViolation(error)) throw notFoundError(projectId === undefined ? 'user.not_found' : 'proj.not_found');
      throw error;
    }
  }

  /**
   * Revokes the instance admin role (no project) or the project admin role of a project. The last
   * instance admin keeps theirs: the instance admin rows are locked while counting, so two admins
   * revoking each other at once leave one.
   */
  async revoke(userId: string, projectId: string | undefined, actor: Actor = SYSTEM): Promise<void> {
    await this.requireSystemUser(userId);
    // requireSystemUser found the user in it: the system project exists.
    const systemProjectId = (await this.knownSystemProject())!;
    await this.deps.db.transaction().execute(async (trx) => {
      const store = this.deps.store.with(trx);
      if (projectId === undefined && !(await keepsAnotherInstanceAdmin(store, userId))) throw notFoundError('operator.role_not_found');
      if (!(await store.deleteRole(userId, projectId ?? null))) throw notFoundError('operator.role_not_found');
      await this.deps.events.record(trx, { type: 'operator.role_revoked', projectId: systemProjectId, actor, subjectId: userId, data: { user_id: userId, project_id: projectId ?? null } });
    });
  }

  /**
   * Erasing a user takes their roles with them (`on delete cascade`), so the last instance admin is
   * refused there too (a `UserService.onDeleting` hook, in the erasing transaction): the same
   * locked count as `revoke`. Only for a caller who sees the system project's users.
   */
  async keepLastInstanceAdmin(trx: Kysely<Database>, scope: string | undefined, userId: string): Promise<void> {
    const store = this.deps.store.with(trx);
    // Read through the transaction: on the embedded database a second connection would wait for this one.
    this.systemId ??= await store.systemProjectId();
    const system = this.systemId;
    if (system === undefined || (scope !== undefined && scope !== system)) return;
    // Most erased users are no instance admin: they lock nothing.
    if (await store.isInstanceAdmin(userId)) await keepsAnotherInstanceAdmin(store, userId);
  }

  async list(request: PageRequest): Promise<Page<RoleGrant>> {
    const scope = 'operator_roles';
    const cursor = request.pageToken ? this.deps.paginator.decode(request.pageToken, scope) : undefined;
    const limit = this.deps.paginator.limitOf(request);
    const rows = await this.deps.store.list(cursor, limit);
    return this.deps.paginator.page(rows, limit, scope, (row) => ({ createdAt: row.granted_at, id: row.id }), toGrant);
  }

  async rolesOf(userId: string): Promise<RoleGrant[]> {
    return (await this.deps.store.rolesOf(userId)).map(toGrant);
  }

  /**
   * The management principal of an end user's access token: a system-project user with a role is
   * an operator (instance admin: the admin principal; project admin: the `operator` principal);
   * anyone else's token is no management credential.
   */
  async principalOfUser(projectId: string, userId: string): Promise<Principal | undefined> {
    if (projectId !== (await this.knownSystemProject())) return undefined;
    const roles = await this.deps.store.rolesOf(userId);
    if (roles.some((row) => row.role === 'instance_admin')) return { kind: 'admin', operator: userId };
    const projects = new Set(roles.flatMap((row) => (row.role === 'project_admin' && row.project_id !== null ? [row.project_id] : [])));
    return projects.size > 0 ? { kind: 'operator', userId, projects } : undefined;
  }

  /** Whether the user may act on the project right now: instance admin, or its project admin. */
  async mayAdminister(userId: string, projectId: string): Promise<boolean> {
    const roles = await this.deps.store.rolesOf(userId);
    if (roles.some((row) => row.role === 'project_admin' && row.project_id === projectId)) return true;
    return roles.some((row) => row.role === 'instance_admin') && (await this.isManagedProject(projectId));
  }
}
