import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../db/schema.js';
import type { MailTemplateTables } from '../db/tables/courier.js';

export type MailTemplateRow = Selectable<MailTemplateTables['mail_templates']>;

/** A project's overrides of the mail templates (SQL only). */
export class MailTemplateStore {
  constructor(private readonly db: Kysely<Database>) {}

  async find(projectId: string, template: string, language: string): Promise<MailTemplateRow | undefined> {
    return this.db.selectFrom('mail_templates').selectAll().where('project_id', '=', projectId).where('template', '=', template).where('language', '=', language).executeTakeFirst();
  }

  async list(projectId: string): Promise<MailTemplateRow[]> {
    return this.db.selectFrom('mail_templates').selectAll().where('project_id', '=', projectId).orderBy('template').orderBy('language').execute();
  }

  /** In the caller's transaction (`trx`), with the change's event. */
  async upsert(trx: Kysely<Database>, row: MailTemplateRow): Promise<void> {
    await trx
      .insertInto('mail_templates')
      .values(row)
      .onConflict((oc) => oc.columns(['project_id', 'template', 'language']).doUpdateSet({ subject: row.subject, text_body: row.text_body, html_body: row.html_body, updated_at: row.updated_at }))
      .execute();
  }

  /** Whether there was an override to delete; in the caller's transaction (`trx`). */
  async delete(trx: Kysely<Database>, projectId: string, template: string, language: string): Promise<boolean> {
    const result = await trx.deleteFrom('mail_templates').where('project_id', '=', projectId).where('template', '=', template).where('language', '=', language).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }
}
