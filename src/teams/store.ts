import type { Kysely, Selectable } from 'kysely';
import type { Cursor } from '../core/pagination.js';
import type { Database } from '../db/schema.js';
import type { TeamTables } from '../db/tables/teams.js';
import { afterCursor, valueEqualsAsFilter } from '../db/sql.js';

export type TeamRow = Selectable<TeamTables['teams']>;

export class TeamStore {
  constructor(private readonly db: Kysely<Database>) {}

  /** Inserts unless the name is taken in the project; undefined means it was taken. */
  async insertUnique(row: TeamRow): Promise<TeamRow | undefined> {
    return this.db
      .insertInto('teams')
      .values(row)
      .onConflict((oc) => oc.constraint('teams_project_name_key').doNothing())
      .returningAll()
      .executeTakeFirst();
  }

  async find(id: string): Promise<TeamRow | undefined> {
    return this.db.selectFrom('teams').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** One page of the project's teams, oldest first (`limit + 1` rows tell whether more follow). */
  async list(projectId: string, cursor: Cursor | undefined, limit: number): Promise<TeamRow[]> {
    const query = this.db.selectFrom('teams').selectAll().where('project_id', '=', projectId);
    return afterCursor(query, 'teams', cursor).limit(limit + 1).execute();
  }

  /**
   * Deletes the team in one statement, only while no user schema and no user names it (their
   * references would otherwise fall to null and change what they mean); its project, or undefined
   * when it did not.
   */
  async deleteUnused(projectId: string | undefined, id: string): Promise<string | undefined> {
    let query = this.db
      .deleteFrom('teams')
      .where('id', '=', id)
      .where(({ not, exists, selectFrom }) => not(exists(selectFrom('user_schemas').select('id').where('team_id', '=', id))))
      .where(({ not, exists, selectFrom }) => not(exists(selectFrom('users').select('id').where('lifecycle_owner_team_id', '=', id))));
    if (projectId !== undefined) query = query.where(valueEqualsAsFilter('project_id', projectId));
    return (await query.returning('project_id').executeTakeFirst())?.project_id;
  }
}
