import { sql, type Kysely, type Selectable } from 'kysely';
import type { Cursor } from '../core/pagination.js';
import type { Database } from '../db/schema.js';
import type { OperatorTables } from '../db/tables/operators.js';

export type OperatorRoleRow = Selectable<OperatorTables['operator_roles']>;

/** The instance singleton and `operator_roles`; nothing else touches these tables. */
export class OperatorStore {
  constructor(private readonly db: Kysely<Database>) {}

  with(db: Kysely<Database>): OperatorStore {
    return new OperatorStore(db);
  }

  async systemProjectId(): Promise<string | undefined> {
    const row = await this.db.selectFrom('instance').select('system_project_id').executeTakeFirst();
    return row?.system_project_id;
  }

  /** Names the system project unless one is named already; false when another call won. */
  async claimInstance(systemProjectId: string, at: Date): Promise<boolean> {
    const row = await this.db
      .insertInto('instance')
      .values({ id: true, system_project_id: systemProjectId, created_at: at })
      .onConflict((oc) => oc.column('id').doNothing())
      .returning('id')
      .executeTakeFirst();
    return row !== undefined;
  }

  /** Inserts the role unless the user holds it already; undefined means they did. */
  async insertRole(row: OperatorRoleRow): Promise<OperatorRoleRow | undefined> {
    return this.db
      .insertInto('operator_roles')
      .values(row)
      // The only unique rule besides the random id: one role per user and project (operator_roles_user_project).
      .onConflict((oc) => oc.doNothing())
      .returningAll()
      .executeTakeFirst();
  }

  async findRole(userId: string, projectId: string | null): Promise<OperatorRoleRow | undefined> {
    const query = this.db.selectFrom('operator_roles').selectAll().where('user_id', '=', userId);
    return (projectId === null ? query.where('project_id', 'is', null) : query.where('project_id', '=', projectId)).executeTakeFirst();
  }

  async rolesOf(userId: string): Promise<OperatorRoleRow[]> {
    return this.db.selectFrom('operator_roles').selectAll().where('user_id', '=', userId).orderBy('granted_at').orderBy('id').execute();
  }

  async isInstanceAdmin(userId: string): Promise<boolean> {
    const row = await this.db.selectFrom('operator_roles').select('id').where('user_id', '=', userId).where('role', '=', 'instance_admin').executeTakeFirst();
    return row !== undefined;
  }

  /** Every instance admin's row, locked until the transaction ends (the last one is never revoked). */
  async lockInstanceAdmins(): Promise<OperatorRoleRow[]> {
    return this.db.selectFrom('operator_roles').selectAll().where('role', '=', 'instance_admin').orderBy('id').forUpdate().execute();
  }

  async deleteRole(userId: string, projectId: string | null): Promise<boolean> {
    const query = this.db.deleteFrom('operator_roles').where('user_id', '=', userId);
    const deleted = await (projectId === null ? query.where('project_id', 'is', null) : query.where('project_id', '=', projectId)).returning('id').executeTakeFirst();
    return deleted !== undefined;
  }

  /** One page of every role, oldest grant first (`limit + 1` rows tell whether more follow). */
  async list(cursor: Cursor | undefined, limit: number): Promise<OperatorRoleRow[]> {
    let query = this.db.selectFrom('operator_roles').selectAll();
    if (cursor) query = query.where(sql<boolean>`(granted_at, id) > (${cursor.createdAt}, ${cursor.id})`);
    return query.orderBy('granted_at').orderBy('id').limit(limit + 1).execute();
  }
}
