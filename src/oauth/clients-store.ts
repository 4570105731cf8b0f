import type { Kysely, Selectable, SqlBool } from 'kysely';
import { insertWhen } from '../db/gate.js';
import type { SqlPart } from '../db/reusable.js';
import type { Cursor } from '../core/pagination.js';
import type { Database } from '../db/schema.js';
import type { OAuthClientTables } from '../db/tables/oauth.js';
import { afterCursor, jsonb, valueEqualsAsFilter } from '../db/sql.js';

export type { TokenEndpointAuthMethod } from '../db/tables/oauth.js';

export type OAuthClientRow = Selectable<OAuthClientTables['oauth_clients']>;
export type AuthorizationRow = Selectable<OAuthClientTables['oauth_authorizations']>;

/** SQL for registered OIDC clients and their authorization requests. */
export class OAuthClientStore {
  private readonly insertAuthorizationWhen: ReturnType<typeof insertWhen>;

  constructor(private readonly db: Kysely<Database>) {
    this.insertAuthorizationWhen = insertWhen(db, 'oauth_authorizations', { json: ['scopes'] });
  }

  async insert(row: OAuthClientRow): Promise<void> {
    await this.db
      .insertInto('oauth_clients')
      .values({ ...row, redirect_uris: jsonb(row.redirect_uris), post_logout_redirect_uris: jsonb(row.post_logout_redirect_uris), grant_types: jsonb(row.grant_types) })
      .execute();
  }

  /** Forgets a user's pending and redeemed authorization requests (user deletion). */
  async deleteAuthorizationsOfUser(projectId: string, userId: string): Promise<void> {
    await this.db.deleteFrom('oauth_authorizations').where('project_id', '=', projectId).where('user_id', '=', userId).execute();
  }

  async find(id: string): Promise<OAuthClientRow | undefined> {
    return this.db.selectFrom('oauth_clients').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async list(projectId: string, cursor: Cursor | undefined, limit: number): Promise<OAuthClientRow[]> {
    const query = this.db.selectFrom('oauth_clients').selectAll().where('project_id', '=', projectId);
    return afterCursor(query, 'oauth_clients', cursor).limit(limit + 1).execute();
  }

  /** True when the client was there to delete. */
  async delete(projectId: string, id: string): Promise<boolean> {
    const result = await this.db.deleteFrom('oauth_clients').where(valueEqualsAsFilter('project_id', projectId)).where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  async insertAuthorization(row: AuthorizationRow): Promise<void> {
    await this.db.insertInto('oauth_authorizations').values({ ...row, scopes: jsonb(row.scopes) }).execute();
  }

  /** The INSERT of `insertAuthorization`, written only where `when` holds (a budget its statement takes, `WriteGate`). */
  insertAuthorizationQuery(row: AuthorizationRow, when: SqlPart<SqlBool>): SqlPart {
    return this.insertAuthorizationWhen({ ...row, scopes: JSON.stringify(row.scopes) }, when);
  }

  async findAuthorization(id: string): Promise<AuthorizationRow | undefined> {
    return this.db.selectFrom('oauth_authorizations').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** Binds the signed-in session and the code to a pending request, exactly once. */
  async attachCode(
    id: string,
    grant: { sessionId: string; userId: string; authTime: Date | null; codeHash: string; codeExpiresAt: Date },
    now: Date,
  ): Promise<AuthorizationRow | undefined> {
    return this.db
      .updateTable('oauth_authorizations')
      .set({ session_id: grant.sessionId, user_id: grant.userId, auth_time: grant.authTime, code_hash: grant.codeHash, code_expires_at: grant.codeExpiresAt })
      .where('id', '=', id)
      .where('code_hash', 'is', null)
      .where('expires_at', '>', now)
      .returningAll()
      .executeTakeFirst();
  }

  async findByCode(codeHash: string): Promise<AuthorizationRow | undefined> {
    return this.db.selectFrom('oauth_authorizations').selectAll().where('code_hash', '=', codeHash).executeTakeFirst();
  }

  /** Consumes a code once; the loser of a race (or a replay) gets undefined. */
  async consume(id: string, now: Date): Promise<AuthorizationRow | undefined> {
    return this.db
      .updateTable('oauth_authorizations')
      .set({ consumed_at: now })
      .where('id', '=', id)
      .where('consumed_at', 'is', null)
      .where('code_expires_at', '>', now)
      .returningAll()
      .executeTakeFirst();
  }

  async deleteExpiredAuthorizations(before: Date): Promise<number> {
    const result = await this.db.deleteFrom('oauth_authorizations').where('expires_at', '<', before).executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
