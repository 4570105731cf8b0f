import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { valueEqualsAsFilter } from '../db/sql.js';

export interface CredentialSummary {
  id: string;
  method: string;
  name: string | null;
  created_at: Date;
  last_used_at: Date | null;
}

/** Lists and removes a user's credentials of any method; never reads secrets or key material. */
export class CredentialListStore {
  constructor(private readonly db: Kysely<Database>) {}

  with(db: Kysely<Database>): CredentialListStore {
    return new CredentialListStore(db);
  }

  transaction<T>(fn: (trx: Kysely<Database>) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(fn);
  }

  async list(projectId: string, userId: string): Promise<CredentialSummary[]> {
    return this.db
      .selectFrom('credentials')
      .select(['id', 'method', 'name', 'created_at', 'last_used_at'])
      .where('project_id', '=', projectId)
      .where('user_id', '=', userId)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
  }

  /** Deletes one credential of the user (method-specific rows go by cascade); its method, or undefined. */
  async delete(projectId: string, userId: string, credentialId: string): Promise<string | undefined> {
    const row = await this.db
      .deleteFrom('credentials')
      .where('id', '=', credentialId)
      .where(valueEqualsAsFilter('project_id', projectId))
      .where('user_id', '=', userId)
      .returning('method')
      .executeTakeFirst();
    return row?.method;
  }
}
