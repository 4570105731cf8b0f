import { sql, type Kysely, type RawBuilder, type Selectable } from 'kysely';
import type { Cursor } from '../core/pagination.js';
import type { Database } from '../db/schema.js';
import type { IdentifierRow, UserTables } from '../db/tables/users.js';
import { reusableStatement } from '../db/reusable.js';
import { afterCursor, equalsAsFilter, jsonb, valueEqualsAsFilter } from '../db/sql.js';

export type UserRow = Selectable<UserTables['users']>;
export type AuditEventRow = Selectable<UserTables['user_audit_events']>;

/**
 * For another domain's single-statement write (the exchange's session insert): a lateral row
 * source with the `lifecycle_owner_team_id` of the user that `userIdColumn` names in the project
 * `projectIdColumn` names; no row when there is no such user. The user is found by primary key
 * only, whatever the statistics when the statement was planned (`equalsAsFilter`).
 */
export function userOwnerTeamLateral(projectIdColumn: string, userIdColumn: string): RawBuilder<unknown> {
  return sql`lateral (select users.lifecycle_owner_team_id from users where users.id = ${sql.ref(userIdColumn)} and ${equalsAsFilter('users.project_id', projectIdColumn)})`;
}

/**
 * The sign-in's user lookup by identifier, compiled once (src/db/reusable.ts): building it with
 * Kysely on every password step cost more CPU than any other query of the login journey.
 */
function identifierLookups(db: Kysely<Database>) {
  const byValue = (a: { projectId: string; value: string }) =>
    db
      .selectFrom('user_identifiers')
      .innerJoin('users', 'users.id', 'user_identifiers.user_id')
      .selectAll('users')
      .where('user_identifiers.project_id', '=', a.projectId)
      .where('user_identifiers.value', '=', a.value);
  const ordered = <Q extends ReturnType<typeof byValue>>(query: Q) => query.orderBy('user_identifiers.scope').orderBy('users.created_at').orderBy('users.id').limit(sql.lit(1));
  return {
    any: reusableStatement(db, (a: { projectId: string; value: string }) => ordered(byValue(a))),
    ofType: reusableStatement(db, (a: { projectId: string; value: string; objectType: string }) => ordered(byValue(a).where('user_identifiers.object_type', '=', a.objectType))),
  };
}

export class UserStore {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly identifiers = identifierLookups(db),
  ) {}

  with(db: Kysely<Database>): UserStore {
    return new UserStore(db, this.identifiers);
  }

  /** Runs `fn` in a new transaction, or in the caller's when one is given. */
  async inTransaction<T>(trx: Kysely<Database> | undefined, fn: (store: UserStore) => Promise<T>): Promise<T> {
    if (trx) return fn(this.with(trx));
    return this.db.transaction().execute((inner) => fn(this.with(inner)));
  }

  /** Runs `fn` in a new transaction with its handle, for hooks of other domains that join it. */
  async transaction<T>(fn: (trx: Kysely<Database>, store: UserStore) => Promise<T>): Promise<T> {
    return this.db.transaction().execute((trx) => fn(trx, this.with(trx)));
  }

  async insert(row: UserRow): Promise<void> {
    await this.db.insertInto('users').values({ ...row, attributes: jsonb(row.attributes), verified: jsonb(row.verified) }).execute();
  }

  /** Removes a user row (its identifiers, credentials and audit events go with it by cascade). */
  async delete(id: string): Promise<void> {
    await this.db.deleteFrom('users').where('id', '=', id).execute();
  }

  /** Deletes the user (of `projectId` unless undefined) and returns its row; cascades as `delete`. */
  async deleteInProject(projectId: string | undefined, id: string): Promise<UserRow | undefined> {
    let query = this.db.deleteFrom('users').where('id', '=', id);
    if (projectId !== undefined) query = query.where(valueEqualsAsFilter('project_id', projectId));
    return query.returningAll().executeTakeFirst();
  }

  /** Replaces the attributes; `unverified` lists verified paths whose value changed (they are forgotten). */
  async updateAttributes(id: string, attributes: Record<string, unknown>, at: Date, unverified: string[] = []): Promise<void> {
    const verified = unverified.length > 0 ? { verified: sql<Record<string, string>>`verified - ${sql.val(unverified)}::text[]` } : {};
    await this.db.updateTable('users').set({ attributes: jsonb(attributes), updated_at: at, ...verified }).where('id', '=', id).execute();
  }

  /** Marks an attribute path verified at `at` (one statement); false when the user is gone. */
  async markVerified(projectId: string, id: string, path: string, at: Date): Promise<boolean> {
    const row = await this.db
      .updateTable('users')
      .set({ verified: sql<Record<string, string>>`verified || jsonb_build_object(${path}::text, ${at.toISOString()}::text)` })
      .where('id', '=', id)
      .where(valueEqualsAsFilter('project_id', projectId))
      .returning('id')
      .executeTakeFirst();
    return row !== undefined;
  }

  /**
   * Claims identifiers; returns the attributes that someone else already holds. ON CONFLICT DO
   * NOTHING waits for a concurrent claim to commit and then reports it, without aborting the
   * surrounding transaction.
   */
  async claimIdentifiers(rows: IdentifierRow[]): Promise<string[]> {
    if (rows.length === 0) return [];
    const inserted = await this.db
      .insertInto('user_identifiers')
      .values(rows)
      .onConflict((oc) => oc.constraint('user_identifiers_unique').doNothing())
      .returning('attribute')
      .execute();
    const won = new Set(inserted.map((row) => row.attribute));
    return rows.filter((row) => !won.has(row.attribute)).map((row) => row.attribute);
  }

  async releaseIdentifiers(userId: string): Promise<void> {
    await this.db.deleteFrom('user_identifiers').where('user_id', '=', userId).execute();
  }

  /** By primary key whatever the statistics: the project is only a filter (`valueEqualsAsFilter`). */
  async find(projectId: string | undefined, id: string): Promise<UserRow | undefined> {
    let query = this.db.selectFrom('users').selectAll().where('id', '=', id);
    if (projectId !== undefined) query = query.where(valueEqualsAsFilter('project_id', projectId));
    return query.executeTakeFirst();
  }

  /** Project-wide identifiers before team-scoped ones, then the oldest user: a stable answer. */
  async findByIdentifier(projectId: string, value: string, objectType?: string): Promise<UserRow | undefined> {
    const statement = objectType === undefined ? this.identifiers.any({ projectId, value }) : this.identifiers.ofType({ projectId, value, objectType });
    return (await this.db.executeQuery(statement)).rows[0];
  }

  /** Read-only check of the teams table, for callers that must stay on one transaction's connection. */
  async teamBelongs(projectId: string, teamId: string): Promise<boolean> {
    const row = await this.db.selectFrom('teams').select('id').where('id', '=', teamId).where(valueEqualsAsFilter('project_id', projectId)).executeTakeFirst();
    return row !== undefined;
  }

  async list(projectId: string, cursor: Cursor | undefined, limit: number): Promise<UserRow[]> {
    const query = this.db.selectFrom('users').selectAll().where('project_id', '=', projectId);
    return afterCursor(query, 'users', cursor).limit(limit + 1).execute();
  }

  async insertAuditEvents(rows: AuditEventRow[]): Promise<void> {
    if (rows.length > 0) await this.db.insertInto('user_audit_events').values(rows).execute();
  }

  async listAuditEvents(userId: string, cursor: Cursor | undefined, limit: number): Promise<AuditEventRow[]> {
    const query = this.db.selectFrom('user_audit_events').selectAll().where('user_id', '=', userId);
    return afterCursor(query, 'user_audit_events', cursor).limit(limit + 1).execute();
  }
}
