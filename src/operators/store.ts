import { sql, type ExpressionBuilder, type Kysely, type Selectable } from 'kysely';
import type { Cursor } from '../core/pagination.js';
import type { Database } from '../db/schema.js';
import type { OperatorTables } from '../db/tables/operators.js';

export type OperatorRoleRow = Selectable<OperatorTables['operator_roles']>;

/** The condition of a set-up token that still makes the first operator (unused, unexpired, no instance admin yet). */
const liveSetupToken = (tokenHash: string, now: Date) => (eb: ExpressionBuilder<Database, 'console_setup_tokens'>) =>
  eb.and([
    eb('token_hash', '=', tokenHash),
    eb('used_at', 'is', null),
    eb('expires_at', '>', now),
    eb.not(eb.exists(eb.selectFrom('operator_roles').select('id').where('role', '=', 'instance_admin'))),
  ]);

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

  async consoleClientId(): Promise<string | null | undefined> {
    const row = await this.db.selectFrom('instance').select('console_client_id').executeTakeFirst();
    return row?.console_client_id;
  }

  /** Names `clientId` the console's client unless another call named a different one first (`expected` is the one it replaces). */
  async swapConsoleClient(expected: string | null, clientId: string): Promise<boolean> {
    let query = this.db.updateTable('instance').set({ console_client_id: clientId });
    query = expected === null ? query.where('console_client_id', 'is', null) : query.where('console_client_id', '=', expected);
    return (await query.returning('id').executeTakeFirst()) !== undefined;
  }

  async cliClientId(): Promise<string | null | undefined> {
    const row = await this.db.selectFrom('instance').select('cli_client_id').executeTakeFirst();
    return row?.cli_client_id;
  }

  /** Names `clientId` the CLI's client unless one is named already; false when another call won. */
  async claimCliClient(clientId: string): Promise<boolean> {
    const row = await this.db.updateTable('instance').set({ cli_client_id: clientId }).where('cli_client_id', 'is', null).returning('id').executeTakeFirst();
    return row !== undefined;
  }

  async hasInstanceAdmin(): Promise<boolean> {
    return (await this.db.selectFrom('operator_roles').select('id').where('role', '=', 'instance_admin').limit(1).executeTakeFirst()) !== undefined;
  }

  /** Stores a new set-up token, and drops the expired ones (each start without an operator makes one). */
  async insertSetupToken(tokenHash: string, at: Date, expiresAt: Date): Promise<void> {
    await this.db.deleteFrom('console_setup_tokens').where('expires_at', '<=', at).execute();
    await this.db.insertInto('console_setup_tokens').values({ token_hash: tokenHash, created_at: at, expires_at: expiresAt }).execute();
  }

  /** Whether the set-up token is live: unused, unexpired, and no instance admin exists yet. */
  async setupTokenLive(tokenHash: string, now: Date): Promise<boolean> {
    const row = await this.db.selectFrom('console_setup_tokens').select('token_hash').where(liveSetupToken(tokenHash, now)).executeTakeFirst();
    return row !== undefined;
  }

  /**
   * Takes the set-up token for `userId` in one statement: only a live one, and only while no
   * instance admin exists, so one link makes one operator however many browsers use it.
   */
  async takeSetupToken(tokenHash: string, userId: string, now: Date): Promise<boolean> {
    const row = await this.db.updateTable('console_setup_tokens').set({ used_at: now, used_by: userId }).where(liveSetupToken(tokenHash, now)).returning('token_hash').executeTakeFirst();
    return row !== undefined;
  }

  /**
   * Locks the instance row until the transaction ends: set-ups taking different tokens at once
   * queue here, so the second one's "no instance admin yet" sees the first one's grant.
   */
  async lockInstance(): Promise<void> {
    await this.db.selectFrom('instance').select('id').forUpdate().execute();
  }
}
