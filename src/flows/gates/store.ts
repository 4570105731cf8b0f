import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

export class GateStore {
  constructor(private readonly db: Kysely<Database>) {}

  /** Records a proof as spent; false when it was spent before (a replay). */
  async spend(projectId: string, signature: string, expiresAt: Date): Promise<boolean> {
    const row = await this.db
      .insertInto('captcha_spent')
      .values({ signature, project_id: projectId, expires_at: expiresAt })
      .onConflict((oc) => oc.column('signature').doNothing())
      .returning('signature')
      .executeTakeFirst();
    return row !== undefined;
  }

  async sweep(now: Date): Promise<void> {
    await this.db.deleteFrom('captcha_spent').where('expires_at', '<', now).execute();
  }
}
