import { sql, type Kysely, type Selectable } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { CodeTables } from '../../db/tables/flows.js';
import { valueEqualsAsFilter } from '../../db/sql.js';

export type CodeRow = Selectable<CodeTables['one_time_codes']>;

export class CodeStore {
  constructor(private readonly db: Kysely<Database>) {}

  /** Stores a new code and invalidates the user's previous unconsumed ones for the purpose. */
  /**
   * Stores a new code and supersedes the user's unused ones of the purpose, in one statement. A
   * code for nobody (user_id null) supersedes nothing, yet runs the same statement: a request for
   * an unknown address does the same work as one for a known address (DESIGN §4.6a).
   */
  async replace(row: CodeRow): Promise<void> {
    await this.db
      .with('superseded', (db) =>
        db
          .updateTable('one_time_codes')
          .set({ consumed_at: row.created_at })
          .where('project_id', '=', row.project_id)
          .where('user_id', '=', row.user_id)
          .where('purpose', '=', row.purpose)
          .where('consumed_at', 'is', null)
          .returning('id'),
      )
      .insertInto('one_time_codes')
      .values(row)
      .execute();
  }

  /** Spends the one grant a consumed code gives, in the caller's transaction; false when it was spent. */
  async useGrant(id: string, projectId: string, now: Date): Promise<boolean> {
    const row = await this.db
      .updateTable('one_time_codes')
      .set({ grant_used_at: now })
      .where('id', '=', id)
      .where(valueEqualsAsFilter('project_id', projectId))
      .where('consumed_at', 'is not', null)
      .where('grant_used_at', 'is', null)
      .returning('id')
      .executeTakeFirst();
    return row !== undefined;
  }

  /** Erases a user's codes (issued or spent) with the user. */
  async deleteForUser(projectId: string, userId: string): Promise<void> {
    await this.db.deleteFrom('one_time_codes').where('project_id', '=', projectId).where('user_id', '=', userId).execute();
  }

  /**
   * One guess in one statement (DESIGN §4.6a): the guess takes an attempt where fewer than
   * `maxAttempts` were used, and consumes the code when `codeHash` is its hash. Of any number of
   * concurrent guesses at most `maxAttempts` are compared, and at most one consumes. A magic-link
   * token is guessed against `link_hash` of the same row, so the code and its link are one use.
   * Undefined when the code is unknown, used, expired or its attempts are spent.
   */
  async guess(id: string, projectId: string, codeHash: string, now: Date, maxAttempts: number, linkHash = ''): Promise<{ consumed: boolean } | undefined> {
    const row = await this.db
      .updateTable('one_time_codes')
      .set({
        attempts: sql`attempts + 1`,
        consumed_at: sql`case when code_hash = ${codeHash} or link_hash = ${linkHash} then ${now}::timestamptz else null end`,
      })
      .where('id', '=', id)
      .where(valueEqualsAsFilter('project_id', projectId))
      .where('consumed_at', 'is', null)
      .where('expires_at', '>', now)
      .where('attempts', '<', maxAttempts)
      .returning('consumed_at')
      .executeTakeFirst();
    return row ? { consumed: row.consumed_at !== null } : undefined;
  }

  /** Whether a live, unconsumed code has spent its attempts (why a guess was not taken). */
  async exhausted(id: string, projectId: string, now: Date, maxAttempts: number): Promise<boolean> {
    const row = await this.db
      .selectFrom('one_time_codes')
      .select('id')
      .where('id', '=', id)
      .where(valueEqualsAsFilter('project_id', projectId))
      .where('consumed_at', 'is', null)
      .where('expires_at', '>', now)
      .where('attempts', '>=', maxAttempts)
      .executeTakeFirst();
    return row !== undefined;
  }
}
