import { sql, type Kysely, type Selectable } from 'kysely';
import type { Database } from '../../db/schema.js';

export interface CodeTables {
  one_time_codes: {
    id: string;
    project_id: string;
    user_id: string | null;
    purpose: string;
    code_hash: string;
    attempts: number;
    created_at: Date;
    expires_at: Date;
    consumed_at: Date | null;
  };
}

export type CodeRow = Selectable<CodeTables['one_time_codes']>;

export class CodeStore {
  constructor(private readonly db: Kysely<Database>) {}

  /** Stores a new code and invalidates the user's previous unconsumed ones for the purpose. */
  async replace(row: CodeRow): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      if (row.user_id !== null) {
        await trx
          .updateTable('one_time_codes')
          .set({ consumed_at: row.created_at })
          .where('project_id', '=', row.project_id)
          .where('user_id', '=', row.user_id)
          .where('purpose', '=', row.purpose)
          .where('consumed_at', 'is', null)
          .execute();
      }
      await trx.insertInto('one_time_codes').values(row).execute();
    });
  }

  /** Erases a user's codes (issued or spent) with the user. */
  async deleteForUser(projectId: string, userId: string): Promise<void> {
    await this.db.deleteFrom('one_time_codes').where('project_id', '=', projectId).where('user_id', '=', userId).execute();
  }

  /** Consumes the code in one statement when the hash matches; only one of concurrent submits wins. */
  async consume(id: string, projectId: string, codeHash: string, now: Date, maxAttempts: number): Promise<CodeRow | undefined> {
    return this.db
      .updateTable('one_time_codes')
      .set({ consumed_at: now })
      .where('id', '=', id)
      .where('project_id', '=', projectId)
      .where('code_hash', '=', codeHash)
      .where('consumed_at', 'is', null)
      .where('expires_at', '>', now)
      .where('attempts', '<', maxAttempts)
      .returningAll()
      .executeTakeFirst();
  }

  /** Counts a wrong guess; returns the attempts used (undefined when the code is gone). */
  async addAttempt(id: string, projectId: string): Promise<number | undefined> {
    const row = await this.db
      .updateTable('one_time_codes')
      .set({ attempts: sql`attempts + 1` })
      .where('id', '=', id)
      .where('project_id', '=', projectId)
      .where('consumed_at', 'is', null)
      .returning('attempts')
      .executeTakeFirst();
    return row?.attempts;
  }
}
