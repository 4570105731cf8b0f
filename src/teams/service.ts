import type { Clock } from '../core/clock.js';
import { AppError, notFoundError } from '../core/errors.js';
import type { IdGenerator } from '../core/ids.js';
import type { Page, PageRequest, Paginator } from '../core/pagination.js';
import type { EventLog } from '../events/service.js';
import { SYSTEM, type Actor } from '../events/types.js';
import { TeamStore, type TeamRow } from './store.js';

export interface Team {
  id: string;
  project_id: string;
  name: string;
  status: string;
  created_at: string;
  updated_at: string;
}

function toTeam(row: TeamRow): Team {
  return {
    id: row.id,
    project_id: row.project_id,
    name: row.name,
    status: row.status,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

/** Names compare ignoring case and surrounding space, so "Ops" and " ops " are one team. */
export function teamNameKey(name: string): string {
  return name.normalize('NFKC').trim().toLocaleLowerCase('en-US');
}

export class TeamService {
  constructor(
    private readonly store: TeamStore,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
    private readonly paginator: Paginator,
    private readonly events: EventLog,
  ) {}

  async list(projectId: string, request: PageRequest): Promise<Page<Team>> {
    const scope = `teams:${projectId}`;
    const cursor = request.pageToken ? this.paginator.decode(request.pageToken, scope) : undefined;
    const limit = this.paginator.limitOf(request);
    const rows = await this.store.list(projectId, cursor, limit);
    return this.paginator.page(rows, limit, scope, (row) => ({ createdAt: row.created_at, id: row.id }), toTeam);
  }

  async create(projectId: string, name: string, actor: Actor = SYSTEM): Promise<Team> {
    const trimmed = name.normalize('NFKC').trim();
    if (trimmed.length === 0) {
      throw new AppError('req.invalid', 'The team name is empty.', { errors: [{ path: 'body/name', message: 'must not be blank' }] });
    }
    const now = this.clock.now();
    const row = await this.events.transaction(async (trx) => {
      const inserted = await new TeamStore(trx).insertUnique({
        id: this.ids.next('team'),
        project_id: projectId,
        name: trimmed,
        name_key: teamNameKey(trimmed),
        status: 'active',
        created_at: now,
        updated_at: now,
      });
      if (inserted) await this.events.record(trx, { type: 'team.created', projectId, actor, subjectId: inserted.id, data: { name: inserted.name } });
      return inserted;
    });
    if (!row) throw new AppError('team.already_exists', 'A team with this name already exists in the project.', { name: trimmed });
    return toTeam(row);
  }

  /** A team of the given project; another project's team is reported as not found. */
  async get(projectId: string | undefined, id: string): Promise<Team> {
    const row = await this.store.find(id);
    if (!row || (projectId !== undefined && row.project_id !== projectId)) throw notFoundError('team.not_found');
    return toTeam(row);
  }

  /**
   * Deletes a team that nothing names: a team that owns user schemas or users answers 409
   * `team.in_use` (move or erase them first); another project's team is not found.
   */
  async delete(projectId: string | undefined, id: string, actor: Actor = SYSTEM): Promise<void> {
    const deleted = await this.events.transaction(async (trx) => {
      const project = await new TeamStore(trx).deleteUnused(projectId, id);
      if (project !== undefined) await this.events.record(trx, { type: 'team.deleted', projectId: project, actor, subjectId: id, data: {} });
      return project !== undefined;
    });
    if (deleted) return;
    const row = await this.store.find(id);
    if (!row || (projectId !== undefined && row.project_id !== projectId)) throw notFoundError('team.not_found');
    throw new AppError('team.in_use', 'The team owns user schemas or users: move or erase them first.', { team_id: id });
  }

  async exists(projectId: string, id: string): Promise<boolean> {
    const row = await this.store.find(id);
    return row !== undefined && row.project_id === projectId;
  }
}
