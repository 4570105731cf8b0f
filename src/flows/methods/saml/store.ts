import { sql, type Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';

/** What a link is written from: the identity, its user and the credential's display name. */
export interface NewSamlLink {
  projectId: string;
  providerId: string;
  nameId: string;
  userId: string;
  credentialId: string;
  name: string;
  at: Date;
}

/** SQL for SAML links and used assertion ids (migration 0104); nothing else touches these tables. */
export class SamlLinkStore {
  constructor(private readonly db: Kysely<Database>) {}

  async find(projectId: string, providerId: string, nameId: string, db: Kysely<Database> = this.db): Promise<{ userId: string; credentialId: string } | undefined> {
    const row = await db
      .selectFrom('saml_links')
      .select(['user_id', 'credential_row_id'])
      .where('project_id', '=', projectId)
      .where('provider_id', '=', providerId)
      .where('name_id', '=', nameId)
      .executeTakeFirst();
    return row ? { userId: row.user_id, credentialId: row.credential_row_id } : undefined;
  }

  /** Writes the link and its `credentials` row (method `saml`) in one statement; a link that exists already wins. */
  async insert(link: NewSamlLink, trx: Kysely<Database> = this.db): Promise<{ inserted: boolean; userId: string }> {
    const result = await sql<{ inserted: boolean }>`
      with link as (
        insert into saml_links (credential_row_id, project_id, user_id, provider_id, name_id)
        values (${link.credentialId}, ${link.projectId}, ${link.userId}, ${link.providerId}, ${link.nameId})
        on conflict (project_id, provider_id, name_id) do nothing
        returning credential_row_id
      ), credential as (
        insert into credentials (id, project_id, user_id, method, secret, name, created_at, updated_at)
        select credential_row_id, ${link.projectId}, ${link.userId}, 'saml', '', ${link.name}, ${link.at}, ${link.at} from link
        returning id
      )
      select exists (select 1 from credential) as inserted
    `.execute(trx);
    if (result.rows[0]?.inserted) return { inserted: true, userId: link.userId };
    const winner = await this.find(link.projectId, link.providerId, link.nameId, trx);
    return { inserted: false, userId: winner?.userId ?? '' };
  }

  async touch(credentialId: string, at: Date): Promise<void> {
    await this.db.updateTable('credentials').set({ last_used_at: at }).where('id', '=', credentialId).execute();
  }

  /** Takes an assertion id: true once per (provider, id), false for a replay — one statement, so concurrent posts take it once. */
  async takeAssertion(projectId: string, providerId: string, assertionId: string, expiresAt: Date): Promise<boolean> {
    const row = await this.db
      .insertInto('saml_used_assertions')
      .values({ project_id: projectId, provider_id: providerId, assertion_id: assertionId, expires_at: expiresAt })
      .onConflict((oc) => oc.columns(['project_id', 'provider_id', 'assertion_id']).doNothing())
      .returning('assertion_id')
      .executeTakeFirst();
    return row !== undefined;
  }
}
