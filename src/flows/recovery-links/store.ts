import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { RecoveryLinkTables } from '../../db/tables/recovery-links.js';

export type RecoveryLinkRow = RecoveryLinkTables['recovery_links'];

export class RecoveryLinkStore {
  constructor(private readonly db: Kysely<Database>) {}

  /** A new link replaces the user's unused ones: only the latest mail works. In the caller's transaction (with its event). */
  async replace(trx: Kysely<Database>, row: RecoveryLinkRow): Promise<void> {
    await trx.deleteFrom('recovery_links').where('user_id', '=', row.user_id).where('used_at', 'is', null).execute();
    await trx.insertInto('recovery_links').values(row).execute();
  }

  /** The user a live link names (not taken: `take` decides). */
  async peek(projectId: string, tokenHash: string, now: Date): Promise<string | undefined> {
    const row = await this.db
      .selectFrom('recovery_links')
      .select('user_id')
      .where('token_hash', '=', tokenHash)
      .where('project_id', '=', projectId)
      .where('used_at', 'is', null)
      .where('expires_at', '>', now)
      .executeTakeFirst();
    return row?.user_id;
  }

  /** Takes a live link in one statement: of concurrent takers exactly one gets the user. */
  async take(db: Kysely<Database>, projectId: string, tokenHash: string, now: Date): Promise<string | undefined> {
    const row = await db
      .updateTable('recovery_links')
      .set({ used_at: now })
      .where('token_hash', '=', tokenHash)
      .where('project_id', '=', projectId)
      .where('used_at', 'is', null)
      .where('expires_at', '>', now)
      .returning('user_id')
      .executeTakeFirst();
    return row?.user_id;
  }
}
