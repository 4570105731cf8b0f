import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../db/schema.js';

export interface CourierTables {
  outbox: {
    id: string;
    project_id: string | null;
    recipient: string;
    subject: string;
    template: string;
    body: string | null;
    status: 'logged' | 'sent' | 'failed';
    error: string | null;
    created_at: Date;
    sent_at: Date | null;
  };
}

export type OutboxRow = Selectable<CourierTables['outbox']>;

export class CourierStore {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(row: OutboxRow): Promise<void> {
    await this.db.insertInto('outbox').values(row).execute();
  }

  async mark(id: string, status: OutboxRow['status'], at: Date, error: string | null = null): Promise<void> {
    await this.db.updateTable('outbox').set({ status, sent_at: status === 'sent' ? at : null, error }).where('id', '=', id).execute();
  }

  /** Newest first: what the embedded courier wrote for a recipient (development and tests). */
  async forRecipient(recipient: string, limit = 20): Promise<OutboxRow[]> {
    return this.db.selectFrom('outbox').selectAll().where('recipient', '=', recipient).orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
  }
}
