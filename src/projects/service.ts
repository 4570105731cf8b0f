import type { Kysely } from 'kysely';
import { ChangeCache } from '../cache/cache.js';
import type { ChangeFeed } from '../cache/feed.js';
import type { Clock } from '../core/clock.js';
import { randomSecret, sha256Hex } from '../core/crypto.js';
import { notFoundError } from '../core/errors.js';
import { deepFreeze } from '../core/freeze.js';
import type { IdGenerator } from '../core/ids.js';
import type { Page, PageRequest, Paginator } from '../core/pagination.js';
import { assertProjectAccess, type Principal } from '../core/principal.js';
import type { Database } from '../db/schema.js';
import type { EventLog } from '../events/service.js';
import { SYSTEM, type Actor } from '../events/types.js';
import type { ProjectRow, ProjectStore } from './store.js';

export interface Project {
  id: string;
  name: string;
  preview_origins: string[];
  created_at: string;
  updated_at: string;
}

export interface CreatedProject extends Project {
  project_secret: string;
  preview_secret: string;
}

/**
 * Work that every new project needs (default schema, default flows...). Hooks run inside the
 * transaction that creates the project, so a project never exists half-seeded.
 */
export type ProjectCreatedHook = (trx: Kysely<Database>, project: ProjectRow) => Promise<void>;

/**
 * A check before a project is deleted, in the deleting transaction: it throws to refuse (the
 * instance's system project holds the operators, docs/operators.md).
 */
export type ProjectDeletingHook = (trx: Kysely<Database>, projectId: string) => Promise<void>;

export const PROJECT_SECRET_PREFIX = 'gh_ps_';
/** How long a rotated-out project secret keeps working (DESIGN §4.17). */
export const PREVIOUS_SECRET_GRACE_MS = 24 * 60 * 60 * 1000;
export const PREVIEW_SECRET_PREFIX = 'gh_pv_';

export function toProject(row: ProjectRow): Project {
  return {
    id: row.id,
    name: row.name,
    preview_origins: row.preview_origins,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

export class ProjectService {
  private readonly createdHooks: ProjectCreatedHook[] = [];
  private readonly deletingHooks: ProjectDeletingHook[] = [];
  /** Project rows by id, per process, dropped on every change of the row (src/cache; docs/performance.md). */
  private readonly rows?: ChangeCache<ProjectRow | undefined>;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly store: ProjectStore,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
    private readonly events: EventLog,
    private readonly changes?: ChangeFeed,
    private readonly paginator?: Paginator,
  ) {
    if (changes) this.rows = new ChangeCache(changes, { kind: 'proj', max: 10_000 });
  }

  /**
   * The stored row, read through the cache. Frozen, settings included: one row serves every
   * request of the process (a copy per read cost about 2 % of a passkey journey's CPU).
   */
  private async cachedRow(id: string): Promise<ProjectRow | undefined> {
    if (!this.rows) return this.store.find(id);
    return this.rows.get(id, async () => deepFreeze(await this.store.find(id)), (found) => found !== undefined);
  }

  onCreated(hook: ProjectCreatedHook): void {
    this.createdHooks.push(hook);
  }

  onDeleting(hook: ProjectDeletingHook): void {
    this.deletingHooks.push(hook);
  }

  /**
   * Creates the project and seeds it (the `onCreated` hooks) in one transaction; `within` runs last
   * in that transaction, so a caller can write its own rows with the project, or throw to undo it.
   */
  async create(input: { name: string; preview_origins?: string[] }, options: { within?: ProjectCreatedHook; actor?: Actor } = {}): Promise<CreatedProject> {
    const now = this.clock.now();
    const projectSecret = randomSecret(PROJECT_SECRET_PREFIX);
    const previewSecret = randomSecret(PREVIEW_SECRET_PREFIX);
    const row: ProjectRow = {
      id: this.ids.next('proj'),
      name: input.name,
      secret_hash: sha256Hex(projectSecret),
      preview_secret_hash: sha256Hex(previewSecret),
      preview_origins: input.preview_origins ?? [],
      settings: {},
      previous_secret_hash: null,
      previous_secret_valid_until: null,
      created_at: now,
      updated_at: now,
    };
    await this.db.transaction().execute(async (trx) => {
      await this.store.with(trx).insert(row);
      for (const hook of this.createdHooks) await hook(trx, row);
      if (options.within) await options.within(trx, row);
      await this.events.record(trx, { type: 'project.created', projectId: row.id, actor: options.actor ?? SYSTEM, subjectId: row.id, data: { name: row.name } });
    });
    return { ...toProject(row), project_secret: projectSecret, preview_secret: previewSecret };
  }

  async get(id: string): Promise<Project> {
    const row = await this.cachedRow(id);
    if (!row) throw notFoundError('proj.not_found');
    return toProject(row);
  }

  /**
   * The gate for every `project_id` a client names: another project's id and an unknown id
   * both answer 404 `proj.not_found`.
   */
  async requireAccess(principal: Principal, projectId: string): Promise<void> {
    assertProjectAccess(principal, projectId);
    if (principal.kind === 'admin' && !(await this.store.find(projectId))) throw notFoundError('proj.not_found');
  }

  async row(id: string): Promise<ProjectRow | undefined> {
    return this.cachedRow(id);
  }

  /** Whether some project lists `origin` among its preview origins (the CORS preflight's question). */
  anyListsPreviewOrigin(origin: string): Promise<boolean> {
    return this.store.anyListsPreviewOrigin(origin);
  }

  async idForSecret(secret: string, secretSha256?: string): Promise<string | undefined> {
    if (!secret.startsWith(PROJECT_SECRET_PREFIX)) return undefined;
    return (await this.store.findBySecretHash(secretSha256 ?? sha256Hex(secret)))?.id;
  }

  /** The project whose rotated-out secret this is, while its grace period lasts (never cached: it ends by time). */
  async idForPreviousSecret(secret: string, secretSha256?: string): Promise<string | undefined> {
    if (!secret.startsWith(PROJECT_SECRET_PREFIX)) return undefined;
    return (await this.store.findByPreviousSecretHash(secretSha256 ?? sha256Hex(secret), this.clock.now()))?.id;
  }

  /** Every project, or (`only`) those an operator administers: their page tokens are their own. */
  async list(request: PageRequest, only?: { holder: string; ids: ReadonlySet<string> }): Promise<Page<Project>> {
    if (!this.paginator) throw new Error('ProjectService.list needs a paginator');
    const scope = only ? `projects:${only.holder}` : 'projects';
    const cursor = request.pageToken ? this.paginator.decode(request.pageToken, scope) : undefined;
    const limit = this.paginator.limitOf(request);
    if (only && only.ids.size === 0) return { items: [] };
    const rows = await this.store.list(cursor, limit, only ? [...only.ids] : undefined);
    return this.paginator.page(rows, limit, scope, (row) => ({ createdAt: row.created_at, id: row.id }), toProject);
  }

  async update(id: string, patch: { name?: string; preview_origins?: string[] }, actor: Actor = SYSTEM): Promise<Project> {
    const row = await this.events.transaction(async (trx) => {
      const updated = await this.store.with(trx).update(id, patch, this.clock.now());
      const changed = Object.entries(patch).filter(([, value]) => value !== undefined).map(([key]) => key);
      if (updated) await this.events.record(trx, { type: 'project.updated', projectId: id, actor, subjectId: id, data: { changed } });
      return updated;
    });
    if (!row) throw notFoundError('proj.not_found');
    this.announce(id);
    return toProject(row);
  }

  /**
   * A new project secret, shown once; the replaced one keeps working until `previous_valid_until`.
   * Only one previous secret is kept: rotating again ends the older one at once (a leaked secret
   * is dropped by rotating twice).
   */
  async rotateSecret(id: string, actor: Actor = SYSTEM): Promise<{ project_secret: string; previous_valid_until: string }> {
    const secret = randomSecret(PROJECT_SECRET_PREFIX);
    const now = this.clock.now();
    const until = new Date(now.getTime() + PREVIOUS_SECRET_GRACE_MS);
    const row = await this.events.transaction(async (trx) => {
      const rotated = await this.store.with(trx).rotateSecret(id, sha256Hex(secret), now, until);
      if (rotated) await this.events.record(trx, { type: 'project.secret_rotated', projectId: id, actor, subjectId: id, data: { previous_valid_until: until.toISOString() } });
      return rotated;
    });
    if (!row) throw notFoundError('proj.not_found');
    this.announce(id);
    return { project_secret: secret, previous_valid_until: until.toISOString() };
  }

  /**
   * Deletes the project and, by cascade in the same statement, everything that belongs to it, its
   * event log too: `project.deleted` goes to the system project's log, in the same transaction.
   */
  async delete(id: string, actor: Actor = SYSTEM): Promise<void> {
    const deleted = await this.events.transaction(async (trx) => {
      for (const hook of this.deletingHooks) await hook(trx, id);
      const store = this.store.with(trx);
      const name = await store.delete(id);
      const systemProjectId = name === undefined ? undefined : await store.systemProjectId();
      if (systemProjectId !== undefined && systemProjectId !== id) await this.events.record(trx, { type: 'project.deleted', projectId: systemProjectId, actor, subjectId: id, data: { name: name! } });
      return name !== undefined;
    });
    if (!deleted) throw notFoundError('proj.not_found');
    this.announce(id);
  }

  async idForPreviewSecret(secret: string, secretSha256?: string): Promise<string | undefined> {
    if (!secret.startsWith(PREVIEW_SECRET_PREFIX)) return undefined;
    return (await this.store.findByPreviewSecretHash(secretSha256 ?? sha256Hex(secret)))?.id;
  }

  /** Per-project settings (session TTLs, freshness windows, abuse limits...), merged over defaults by their owners. */
  async settings(id: string): Promise<Record<string, unknown>> {
    const row = await this.cachedRow(id);
    if (!row) throw notFoundError('proj.not_found');
    return row.settings;
  }

  /** Merges `patch` over the stored sections; the event `project.settings_updated` names the sections. */
  async updateSettings(id: string, patch: Record<string, unknown>, actor: Actor = SYSTEM): Promise<Record<string, unknown>> {
    const current = await this.settings(id);
    const next = { ...current, ...patch };
    // The flow settings are stored as `flows`; the API and the event call them `flow_settings`.
    const sections = Object.keys(patch).map((key) => (key === 'flows' ? 'flow_settings' : key));
    await this.events.transaction(async (trx) => {
      await this.store.with(trx).updateSettings(id, next, this.clock.now());
      await this.events.record(trx, { type: 'project.settings_updated', projectId: id, actor, subjectId: id, data: { sections } });
    });
    this.announce(id);
    return next;
  }

  /**
   * Called after a commit that changed the project's row: every cache of this process keyed by it
   * drops it at once (this service's rows, the session settings, the secret-to-project map), so
   * this process answers its own next request from the change; the row's notification follows for
   * the others. Forgetting only this service's own cache left the others stale until then.
   */
  private announce(id: string): void {
    this.changes?.publishLocal(`proj:${id}`);
  }
}
