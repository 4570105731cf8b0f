import { sql, type Kysely, type Selectable } from 'kysely';
import { reusableStatement } from '../db/reusable.js';
import type { Database } from '../db/schema.js';
import type { CredentialTables } from '../db/tables/passwords.js';

export type CredentialRow = Selectable<CredentialTables['credentials']>;

/**
 * The sign-in's password read, compiled once (src/db/reusable.ts): building it with Kysely on
 * every password step cost more CPU than running it. The methods of all the user's credentials
 * come along, so a sign-in learns with the password whether a second factor is due.
 */
function passwordLookups(db: Kysely<Database>) {
  return {
    withMethods: reusableStatement(db, (a: { projectId: string; userId: string }) =>
      db
        .selectFrom('credentials')
        .selectAll('credentials')
        .select(sql<string[]>`(select coalesce(jsonb_agg(other.method), '[]'::jsonb) from credentials as other where other.user_id = credentials.user_id)`.as('methods'))
        .where('project_id', '=', a.projectId)
        .where('user_id', '=', a.userId)
        .where('method', '=', sql.lit('password')),
    ),
  };
}

export class PasswordStore {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly lookups = passwordLookups(db),
  ) {}

  with(db: Kysely<Database>): PasswordStore {
    return new PasswordStore(db, this.lookups);
  }

  transaction<T>(fn: (trx: Kysely<Database>) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(fn);
  }

  async find(projectId: string, userId: string): Promise<CredentialRow | undefined> {
    return this.db
      .selectFrom('credentials')
      .selectAll()
      .where('project_id', '=', projectId)
      .where('user_id', '=', userId)
      .where('method', '=', 'password')
      .executeTakeFirst();
  }

  /** The password row plus the methods of all the user's credentials, in one statement (`passwordLookups`). */
  async findWithMethods(projectId: string, userId: string): Promise<(CredentialRow & { methods: string[] }) | undefined> {
    return (await this.db.executeQuery(this.lookups.withMethods({ projectId, userId }))).rows[0];
  }

  /** Sets the user's password hash; returns true when one existed before (a change, not a first set). */
  async upsert(row: CredentialRow): Promise<boolean> {
    const result = await this.db
      .insertInto('credentials')
      .values(row)
      .onConflict((oc) =>
        oc
          .column('user_id')
          .where('method', '=', 'password')
          .doUpdateSet({ secret: row.secret, updated_at: row.updated_at }),
      )
      .returning('id')
      .executeTakeFirstOrThrow();
    return result.id !== row.id;
  }

  /** Replaces a hash only if it is still the one that was verified, so a concurrent change wins. */
  async replaceSecret(id: string, expected: string, secret: string, at: Date): Promise<void> {
    await this.db.updateTable('credentials').set({ secret, updated_at: at }).where('id', '=', id).where('secret', '=', expected).execute();
  }
}
