import { sql, type Kysely, type Selectable } from 'kysely';
import type { Database } from '../db/schema.js';
import type { CourierTables } from '../db/tables/courier.js';

export type OutboxRow = Selectable<CourierTables['outbox']>;

export class CourierStore {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(row: OutboxRow): Promise<void> {
    await this.db.insertInto('outbox').values(row).execute();
  }

  async mark(id: string, status: OutboxRow['status'], at: Date, attempts: number, error: string | null = null): Promise<void> {
    await this.db.updateTable('outbox').set({ status, sent_at: status === 'sent' ? at : null, error, attempts }).where('id', '=', id).execute();
  }

  /** Newest first: what the embedded courier wrote for a recipient (development and tests). */
  async forRecipient(recipient: string, limit = 20): Promise<OutboxRow[]> {
    return this.db.selectFrom('outbox').selectAll().where('recipient', '=', recipient).orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
  }

  /** Newest first: a project's messages, or one recipient's of them (the outbox API). */
  async forProject(projectId: string, options: { recipient?: string; limit: number }): Promise<OutboxRow[]> {
    let query = this.db.selectFrom('outbox').selectAll().where('project_id', '=', projectId);
    if (options.recipient !== undefined) query = query.where('recipient', '=', options.recipient);
    return query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(options.limit).execute();
  }

  /** Newest first, across projects unless one is named (`gatehouse mail list`). */
  async latest(options: { projectId?: string; recipient?: string; limit: number }): Promise<OutboxRow[]> {
    let query = this.db.selectFrom('outbox').selectAll();
    if (options.projectId !== undefined) query = query.where('project_id', '=', options.projectId);
    if (options.recipient !== undefined) query = query.where('recipient', '=', options.recipient);
    return query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(options.limit).execute();
  }

  /**
   * Takes one message of a recipient's budget in one statement (DESIGN §4.6a): a window starts
   * with its first message; within it at most `limit` are taken; an elapsed window starts again.
   * True when taken, false when the budget is spent.
   */
  async takeRecipientBudget(projectId: string, recipientKey: string, now: Date, windowMs: number, limit: number): Promise<boolean> {
    const cutoff = new Date(now.getTime() - windowMs);
    const row = await this.db
      .insertInto('mail_recipient_budget')
      .values({ project_id: projectId, recipient_key: recipientKey, window_start: now, count: 1 })
      .onConflict((oc) =>
        oc
          .columns(['project_id', 'recipient_key'])
          .doUpdateSet({
            window_start: sql`case when mail_recipient_budget.window_start <= ${cutoff}::timestamptz then ${now}::timestamptz else mail_recipient_budget.window_start end`,
            count: sql`case when mail_recipient_budget.window_start <= ${cutoff}::timestamptz then 1 else mail_recipient_budget.count + 1 end`,
          })
          .where((eb) => eb.or([eb('mail_recipient_budget.window_start', '<=', cutoff), eb('mail_recipient_budget.count', '<', limit)])),
      )
      .returning('count')
      .executeTakeFirst();
    return row !== undefined;
  }

  /** When a spent budget's window started (to say when to retry). */
  async recipientWindowStart(projectId: string, recipientKey: string): Promise<Date | undefined> {
    const row = await this.db.selectFrom('mail_recipient_budget').select('window_start').where('project_id', '=', projectId).where('recipient_key', '=', recipientKey).executeTakeFirst();
    return row?.window_start;
  }
}
