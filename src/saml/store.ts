import { sql, type Kysely, type Selectable } from 'kysely';
import type { Cursor } from '../core/pagination.js';
import type { Database } from '../db/schema.js';
import type { SamlTables } from '../db/tables/saml.js';
import { afterCursor, jsonb } from '../db/sql.js';

export type SamlProviderRow = Selectable<SamlTables['saml_providers']>;
export type SamlProviderWithDomains = SamlProviderRow & { domains: string[] };

/** SQL for SAML providers and their home-realm domains; nothing else touches these tables. */
export class SamlProviderStore {
  constructor(private readonly db: Kysely<Database>) {}

  private withDomains(db: Kysely<Database>) {
    return db
      .selectFrom('saml_providers as p')
      .selectAll('p')
      .select(sql<string[]>`coalesce((select array_agg(d.domain order by d.domain) from saml_domains d where d.project_id = p.project_id and d.provider_id = p.id), '{}')`.as('domains'));
  }

  async find(projectId: string, id: string, db: Kysely<Database> = this.db): Promise<SamlProviderWithDomains | undefined> {
    return this.withDomains(db).where('p.project_id', '=', projectId).where('p.id', '=', id).executeTakeFirst();
  }

  async list(projectId: string, cursor: Cursor | undefined, limit: number): Promise<SamlProviderWithDomains[]> {
    return afterCursor(this.withDomains(this.db).where('p.project_id', '=', projectId), 'p', cursor).limit(limit + 1).execute();
  }

  /** Every enabled provider of the project, oldest first (bounded: a sign-in page shows no more). */
  async listEnabled(projectId: string): Promise<Array<Pick<SamlProviderRow, 'id' | 'name'>>> {
    return this.db.selectFrom('saml_providers').select(['id', 'name']).where('project_id', '=', projectId).where('enabled', '=', true).orderBy('created_at').orderBy('id').limit(200).execute();
  }

  /** The enabled provider a domain belongs to (home-realm discovery). */
  async providerOfDomain(projectId: string, domain: string): Promise<string | undefined> {
    const row = await this.db
      .selectFrom('saml_domains as d')
      .innerJoin('saml_providers as p', (join) => join.onRef('p.project_id', '=', 'd.project_id').onRef('p.id', '=', 'd.provider_id'))
      .select('p.id')
      .where('d.project_id', '=', projectId)
      .where('d.domain', '=', domain)
      .where('p.enabled', '=', true)
      .executeTakeFirst();
    return row?.id;
  }

  /**
   * Creates or replaces a provider (`created_at` and the SP key survive a replacement); with
   * `createOnly`, a taken id writes nothing and answers undefined.
   */
  async upsert(trx: Kysely<Database>, row: SamlProviderRow, createOnly: boolean): Promise<{ row: SamlProviderRow; created: boolean } | undefined> {
    const insert = trx.insertInto('saml_providers').values({ ...row, attributes: jsonb(row.attributes) });
    const written = await (createOnly
      ? insert.onConflict((oc) => oc.columns(['project_id', 'id']).doNothing())
      : insert.onConflict((oc) =>
          oc.columns(['project_id', 'id']).doUpdateSet((eb) => ({
            name: eb.ref('excluded.name'),
            idp_metadata_xml: eb.ref('excluded.idp_metadata_xml'),
            idp_metadata_url: eb.ref('excluded.idp_metadata_url'),
            metadata_cached: eb.ref('excluded.metadata_cached'),
            metadata_fetched_at: eb.ref('excluded.metadata_fetched_at'),
            attributes: eb.ref('excluded.attributes'),
            link: eb.ref('excluded.link'),
            enabled: eb.ref('excluded.enabled'),
            updated_at: eb.ref('excluded.updated_at'),
          })),
        )
    )
      .returningAll()
      .returning(sql<boolean>`(xmax = 0)`.as('inserted'))
      .executeTakeFirst();
    if (!written) return undefined;
    const { inserted, ...stored } = written;
    return { row: stored, created: inserted };
  }

  /**
   * Makes `domains` the provider's, in `trx`: the ones another provider of the project holds are
   * answered (nothing of theirs changes) and the caller rolls back.
   */
  async replaceDomains(trx: Kysely<Database>, projectId: string, providerId: string, domains: readonly string[]): Promise<string[]> {
    await trx.deleteFrom('saml_domains').where('project_id', '=', projectId).where('provider_id', '=', providerId).execute();
    if (domains.length === 0) return [];
    const inserted = await trx
      .insertInto('saml_domains')
      .values(domains.map((domain) => ({ project_id: projectId, domain, provider_id: providerId })))
      .onConflict((oc) => oc.columns(['project_id', 'domain']).doNothing())
      .returning('domain')
      .execute();
    const taken = new Set(inserted.map((row) => row.domain));
    return domains.filter((domain) => !taken.has(domain));
  }

  async saveFetched(projectId: string, id: string, xml: string, at: Date): Promise<void> {
    await this.db.updateTable('saml_providers').set({ metadata_cached: xml, metadata_fetched_at: at }).where('project_id', '=', projectId).where('id', '=', id).where('idp_metadata_url', 'is not', null).execute();
  }

  /** Whether a provider went (the caller's transaction when given). */
  async delete(projectId: string, id: string, db: Kysely<Database> = this.db): Promise<boolean> {
    const result = await db.deleteFrom('saml_providers').where('project_id', '=', projectId).where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }
}
