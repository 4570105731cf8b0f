import type { Kysely, Selectable } from 'kysely';
import type { Cursor } from '../core/pagination.js';
import type { Database } from '../db/schema.js';
import type { ServiceKeyTables } from '../db/tables/service-keys.js';
import { afterCursor, jsonb, valueEqualsAsFilter } from '../db/sql.js';

export type ServiceKeyRow = Selectable<ServiceKeyTables['service_keys']>;

export class ServiceKeyStore {
  constructor(private readonly db: Kysely<Database>) {}

  with(db: Kysely<Database>): ServiceKeyStore {
    return new ServiceKeyStore(db);
  }

  async insert(row: ServiceKeyRow): Promise<void> {
    await this.db.insertInto('service_keys').values({ ...row, scopes: jsonb(row.scopes) }).execute();
  }

  async list(projectId: string, cursor: Cursor | undefined, limit: number): Promise<ServiceKeyRow[]> {
    const query = this.db.selectFrom('service_keys').selectAll().where('project_id', '=', projectId);
    return afterCursor(query, 'service_keys', cursor).limit(limit + 1).execute();
  }

  async findByClientId(clientId: string): Promise<ServiceKeyRow | undefined> {
    return this.db.selectFrom('service_keys').selectAll().where('client_id', '=', clientId).executeTakeFirst();
  }

  /** The deleted key's client id, or undefined when there was nothing to delete. */
  async delete(projectId: string, id: string): Promise<string | undefined> {
    const row = await this.db
      .deleteFrom('service_keys')
      .where(valueEqualsAsFilter('project_id', projectId))
      .where('id', '=', id)
      .returning('client_id')
      .executeTakeFirst();
    return row?.client_id;
  }
}
