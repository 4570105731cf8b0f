import { sql, type Kysely, type Selectable } from 'kysely';
import type { Database } from '../db/schema.js';
import type { OAuthTokenTables } from '../db/tables/oauth.js';
import { isUniqueViolation, jsonb } from '../db/sql.js';

export type SigningKeyRow = Selectable<OAuthTokenTables['oauth_signing_keys']>;
export type TokenRow = Selectable<OAuthTokenTables['oauth_tokens']>;

/** SQL for signing keys and issued tokens; nothing else touches these tables. */
export class OAuthStore {
  constructor(private readonly db: Kysely<Database>) {}

  with(db: Kysely<Database>): OAuthStore {
    return new OAuthStore(db);
  }

  transaction<T>(work: (store: OAuthStore) => Promise<T>): Promise<T> {
    return this.db.transaction().execute((trx) => work(this.with(trx)));
  }

  // --- signing keys ---

  async currentKey(): Promise<SigningKeyRow | undefined> {
    return this.db.selectFrom('oauth_signing_keys').selectAll().where('status', '=', 'current').executeTakeFirst();
  }

  /** The current key and every retired key still inside its publication window, newest first. */
  async publishedKeys(now: Date): Promise<SigningKeyRow[]> {
    return this.db
      .selectFrom('oauth_signing_keys')
      .selectAll()
      .where((eb) => eb.or([eb('status', '=', 'current'), eb('publish_until', '>', now)]))
      .orderBy(sql`status = 'current'`, 'desc')
      .orderBy('created_at', 'desc')
      .execute();
  }

  /** Inserts a current key unless another process won the race (the partial unique index). */
  async insertCurrentKey(row: SigningKeyRow): Promise<boolean> {
    try {
      await this.db.insertInto('oauth_signing_keys').values({ ...row, public_jwk: jsonb(row.public_jwk) }).execute();
      return true;
    } catch (error) {
      if (isUniqueViolation(error)) return false;
      throw error;
    }
  }

  async retireKey(kid: string, at: Date, publishUntil: Date): Promise<boolean> {
    const updated = await this.db
      .updateTable('oauth_signing_keys')
      .set({ status: 'retired', retired_at: at, publish_until: publishUntil })
      .where('kid', '=', kid)
      .where('status', '=', 'current')
      .returning('kid')
      .executeTakeFirst();
    return updated !== undefined;
  }

  // --- tokens ---

  async insertToken(row: TokenRow): Promise<void> {
    await this.db.insertInto('oauth_tokens').values({ ...row, scopes: jsonb(row.scopes) }).execute();
  }

  async findToken(hash: string): Promise<TokenRow | undefined> {
    return this.db.selectFrom('oauth_tokens').selectAll().where('token_hash', '=', hash).executeTakeFirst();
  }

  /** Marks a refresh token used exactly once; the loser of a race gets undefined. */
  async useRefresh(id: string, at: Date): Promise<TokenRow | undefined> {
    return this.db
      .updateTable('oauth_tokens')
      .set({ used_at: at })
      .where('id', '=', id)
      .where('kind', '=', 'refresh')
      .where('used_at', 'is', null)
      .where('revoked_at', 'is', null)
      .returningAll()
      .executeTakeFirst();
  }

  /** 1 when the token was live, 0 when it was revoked already. */
  async revokeToken(id: string, at: Date): Promise<number> {
    const result = await this.db.updateTable('oauth_tokens').set({ revoked_at: at }).where('id', '=', id).where('revoked_at', 'is', null).executeTakeFirst();
    return Number(result.numUpdatedRows);
  }

  async revokeFamily(familyId: string, at: Date): Promise<number> {
    const result = await this.db
      .updateTable('oauth_tokens')
      .set({ revoked_at: at })
      .where('family_id', '=', familyId)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  }

  async revokeSession(sessionId: string, at: Date): Promise<number> {
    const result = await this.db
      .updateTable('oauth_tokens')
      .set({ revoked_at: at })
      .where('session_id', '=', sessionId)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  }

  /** Forgets every token of a user (user deletion): an unknown token is an inactive one. */
  async deleteUserTokens(projectId: string, userId: string): Promise<number> {
    const result = await this.db.deleteFrom('oauth_tokens').where('project_id', '=', projectId).where('user_id', '=', userId).executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  async revokeClient(projectId: string, clientId: string, at: Date): Promise<number> {
    const result = await this.db
      .updateTable('oauth_tokens')
      .set({ revoked_at: at })
      .where('project_id', '=', projectId)
      .where('client_id', '=', clientId)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  }

  /** Forgets tokens that expired before `before`; returns how many. */
  async deleteExpired(before: Date): Promise<number> {
    const result = await this.db.deleteFrom('oauth_tokens').where('expires_at', '<', before).executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
