import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.js';

/** An upstream identity as a provider names it. */
export interface UpstreamIdentity {
  providerId: string;
  subject: string;
}

/** What a link is written from: the identity, its user and the credential's display name. */
export interface NewLink extends UpstreamIdentity {
  projectId: string;
  userId: string;
  credentialId: string;
  /** shown in credential lists (the provider's name and the upstream e-mail) */
  name: string;
  at: Date;
}

/** SQL for SSO links and used callback states; nothing else touches these tables. */
export class SsoLinkStore {
  constructor(private readonly db: Kysely<Database>) {}

  /** The user an identity is linked to, with the link's credential id. */
  async find(projectId: string, identity: UpstreamIdentity): Promise<{ userId: string; credentialId: string } | undefined> {
    const row = await this.db
      .selectFrom('sso_links')
      .select(['user_id', 'credential_row_id'])
      .where('project_id', '=', projectId)
      .where('provider_id', '=', identity.providerId)
      .where('subject', '=', identity.subject)
      .executeTakeFirst();
    return row ? { userId: row.user_id, credentialId: row.credential_row_id } : undefined;
  }

  /**
   * Writes the link and its `credentials` row in one statement. An identity linked already (a
   * concurrent link won the race) writes nothing; the user it is linked to is answered.
   */
  async insert(link: NewLink, trx: Kysely<Database> = this.db): Promise<{ inserted: boolean; userId: string }> {
    const result = await sql<{ inserted: boolean }>`
      with link as (
        insert into sso_links (credential_row_id, project_id, user_id, provider_id, subject)
        values (${link.credentialId}, ${link.projectId}, ${link.userId}, ${link.providerId}, ${link.subject})
        on conflict (project_id, provider_id, subject) do nothing
        returning credential_row_id
      ), credential as (
        insert into credentials (id, project_id, user_id, method, secret, name, created_at, updated_at)
        select credential_row_id, ${link.projectId}, ${link.userId}, 'sso', '', ${link.name}, ${link.at}, ${link.at} from link
        returning id
      )
      select exists (select 1 from credential) as inserted
    `.execute(trx);
    if (result.rows[0]?.inserted) return { inserted: true, userId: link.userId };
    // Linked already: read by a new statement, since a link a concurrent transaction committed may
    // postdate this statement's snapshot.
    const winner = await new SsoLinkStore(trx).find(link.projectId, link);
    return { inserted: false, userId: winner?.userId ?? '' };
  }

  /** Marks the link's credential used (credential lists show `last_used_at`). */
  async touch(credentialId: string, at: Date): Promise<void> {
    await this.db.updateTable('credentials').set({ last_used_at: at }).where('id', '=', credentialId).execute();
  }

  /** Takes a callback's state: true once per state, false for a replay. */
  async takeState(projectId: string, stateHash: string, expiresAt: Date): Promise<boolean> {
    const row = await this.db
      .insertInto('sso_used_states')
      .values({ state_hash: stateHash, project_id: projectId, expires_at: expiresAt })
      .onConflict((oc) => oc.column('state_hash').doNothing())
      .returning('state_hash')
      .executeTakeFirst();
    return row !== undefined;
  }
}
