import { sql, type Kysely, type Selectable } from 'kysely';
import type { Cursor } from '../core/pagination.js';
import type { Database } from '../db/schema.js';
import type { SsoTables } from '../db/tables/sso.js';
import { afterCursor, jsonb } from '../db/sql.js';

export type SsoProviderRow = Selectable<SsoTables['sso_providers']>;

/** SQL for upstream identity providers; nothing else touches the table. */
export class SsoProviderStore {
  constructor(private readonly db: Kysely<Database>) {}

  async find(projectId: string, id: string): Promise<SsoProviderRow | undefined> {
    return this.db.selectFrom('sso_providers').selectAll().where('project_id', '=', projectId).where('id', '=', id).executeTakeFirst();
  }

  /** Every enabled provider of the project, oldest first (bounded: a sign-in page shows no more). */
  async listEnabled(projectId: string): Promise<Array<Pick<SsoProviderRow, 'id' | 'name' | 'template'>>> {
    return this.db.selectFrom('sso_providers').select(['id', 'name', 'template']).where('project_id', '=', projectId).where('enabled', '=', true).orderBy('created_at').orderBy('id').limit(200).execute();
  }

  /** Creates the provider unless the id is taken, in one statement; undefined when it was. */
  async insertNew(row: SsoProviderRow): Promise<SsoProviderRow | undefined> {
    return this.db
      .insertInto('sso_providers')
      .values({ ...row, scopes: jsonb(row.scopes), claims: jsonb(row.claims) })
      .onConflict((oc) => oc.columns(['project_id', 'id']).doNothing())
      .returningAll()
      .executeTakeFirst();
  }

  /**
   * Creates or replaces a provider in one statement; `created_at` survives a replacement, and so
   * does the sealed secret when `keepSecret` (the operator sent none). True when it was created.
   */
  async upsert(row: SsoProviderRow, keepSecret: boolean): Promise<{ row: SsoProviderRow; created: boolean }> {
    const values = { ...row, scopes: jsonb(row.scopes), claims: jsonb(row.claims) };
    const written = await this.db
      .insertInto('sso_providers')
      .values(values)
      .onConflict((oc) =>
        oc.columns(['project_id', 'id']).doUpdateSet((eb) => ({
          name: eb.ref('excluded.name'),
          template: eb.ref('excluded.template'),
          issuer: eb.ref('excluded.issuer'),
          client_id: eb.ref('excluded.client_id'),
          client_secret_sealed: keepSecret ? eb.ref('sso_providers.client_secret_sealed') : eb.ref('excluded.client_secret_sealed'),
          scopes: eb.ref('excluded.scopes'),
          claims: eb.ref('excluded.claims'),
          link: eb.ref('excluded.link'),
          enabled: eb.ref('excluded.enabled'),
          updated_at: eb.ref('excluded.updated_at'),
        })),
      )
      .returningAll()
      // xmax is 0 on a row version this statement inserted, and set on one it updated.
      .returning(sql<boolean>`(xmax = 0)`.as('inserted'))
      .executeTakeFirstOrThrow();
    const { inserted, ...stored } = written;
    return { row: stored, created: inserted };
  }

  async list(projectId: string, cursor: Cursor | undefined, limit: number): Promise<SsoProviderRow[]> {
    const query = this.db.selectFrom('sso_providers').selectAll().where('project_id', '=', projectId);
    return afterCursor(query, 'sso_providers', cursor).limit(limit + 1).execute();
  }

  async delete(projectId: string, id: string): Promise<boolean> {
    const result = await this.db.deleteFrom('sso_providers').where('project_id', '=', projectId).where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }
}
