import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { MfaTables } from '../db/tables/mfa.js';

export class MfaStore {
  constructor(private readonly db: Kysely<Database>) {}

  with(db: Kysely<Database>): MfaStore {
    return new MfaStore(db);
  }

  transaction<T>(fn: (trx: Kysely<Database>) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(fn);
  }

  /** The user's credential row of a method (one per user for `totp` and `recovery_code`). */
  async credential(projectId: string, userId: string, method: 'totp' | 'recovery_code'): Promise<{ id: string; secret: string } | undefined> {
    return this.db
      .selectFrom('credentials')
      .select(['id', 'secret'])
      .where('project_id', '=', projectId)
      .where('user_id', '=', userId)
      .where('method', '=', method)
      .executeTakeFirst();
  }

  /** Which of `methods` the user has a credential of. */
  async methodsOf(projectId: string, userId: string): Promise<Set<string>> {
    const rows = await this.db.selectFrom('credentials').select('method').where('project_id', '=', projectId).where('user_id', '=', userId).execute();
    return new Set(rows.map((row) => row.method));
  }

  /** Replaces the user's credential row of `method` (its dependent rows go by cascade); the new row's id. */
  async replaceCredential(input: { id: string; projectId: string; userId: string; method: 'totp' | 'recovery_code'; secret: string; at: Date }): Promise<void> {
    await this.db.deleteFrom('credentials').where('project_id', '=', input.projectId).where('user_id', '=', input.userId).where('method', '=', input.method).execute();
    await this.db
      .insertInto('credentials')
      .values({ id: input.id, project_id: input.projectId, user_id: input.userId, method: input.method, secret: input.secret, created_at: input.at, updated_at: input.at, name: null, last_used_at: null })
      .execute();
  }

  /**
   * Spends a TOTP time step for the user in one statement: true for the one submit that inserted
   * it, false for a replay (the step was used before, or a concurrent submit won).
   */
  async spendTimeStep(projectId: string, userId: string, timeStep: number, at: Date): Promise<boolean> {
    const row = await this.db
      .insertInto('totp_used_steps')
      .values({ project_id: projectId, user_id: userId, time_step: timeStep, used_at: at })
      .onConflict((oc) => oc.columns(['user_id', 'time_step']).doNothing())
      .returning('user_id')
      .executeTakeFirst();
    return row !== undefined;
  }

  /** Steps older than the drift window can never match again: forget them. */
  async forgetTimeStepsBefore(userId: string, timeStep: number): Promise<void> {
    await this.db.deleteFrom('totp_used_steps').where('user_id', '=', userId).where('time_step', '<', timeStep).execute();
  }

  async touch(credentialId: string, at: Date): Promise<void> {
    await this.db.updateTable('credentials').set({ last_used_at: at }).where('id', '=', credentialId).execute();
  }

  async insertCodes(rows: MfaTables['recovery_codes'][]): Promise<void> {
    await this.db.insertInto('recovery_codes').values(rows).execute();
  }

  /**
   * Uses one recovery code in one statement (the `used_at is null` condition decides which of
   * concurrent submits wins) and answers how many unused codes the set still has, or undefined
   * when the code is not an unused code of the user's current set.
   */
  async useCode(projectId: string, userId: string, codeHash: string, at: Date): Promise<{ remaining: number; credentialId: string } | undefined> {
    const result = await sql<{ credential_row_id: string; remaining: string | number }>`
      with used as (
        update recovery_codes set used_at = ${at}
        where project_id = ${projectId} and user_id = ${userId} and code_hash = ${codeHash} and used_at is null
        returning credential_row_id
      )
      select used.credential_row_id,
        (select count(*) from recovery_codes r where r.credential_row_id = used.credential_row_id and r.used_at is null) - 1 as remaining
      from used`.execute(this.db);
    const row = result.rows[0];
    return row ? { credentialId: row.credential_row_id, remaining: Number(row.remaining) } : undefined;
  }

  async remainingCodes(projectId: string, userId: string): Promise<number> {
    const row = await this.db
      .selectFrom('recovery_codes')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('project_id', '=', projectId)
      .where('user_id', '=', userId)
      .where('used_at', 'is', null)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }
}
