import { sql, type Kysely, type Selectable } from 'kysely';
import type { Cursor } from '../core/pagination.js';
import type { Database } from '../db/schema.js';
import type { SchemaTables } from '../db/tables/schemas.js';
import { afterCursor, valueEqualsAsFilter } from '../db/sql.js';

export type SchemaRow = Selectable<SchemaTables['user_schemas']>;

export class SchemaStore {
  constructor(private readonly db: Kysely<Database>) {}

  with(db: Kysely<Database>): SchemaStore {
    return new SchemaStore(db);
  }

  /** Inserts a revision unless its `$id` is taken in the project; undefined means it was taken. */
  async insertUnique(row: SchemaRow): Promise<SchemaRow | undefined> {
    return this.db
      .insertInto('user_schemas')
      .values(row)
      .onConflict((oc) => oc.constraint('user_schemas_project_uri_key').doNothing())
      .returningAll()
      .executeTakeFirst();
  }

  async find(projectId: string | undefined, id: string): Promise<SchemaRow | undefined> {
    let query = this.db.selectFrom('user_schemas').selectAll().where('id', '=', id);
    if (projectId !== undefined) query = query.where(valueEqualsAsFilter('project_id', projectId));
    return query.executeTakeFirst();
  }

  async findByUri(projectId: string, uri: string): Promise<SchemaRow | undefined> {
    return this.db.selectFrom('user_schemas').selectAll().where('project_id', '=', projectId).where('uri', '=', uri).executeTakeFirst();
  }

  async findDefault(projectId: string): Promise<SchemaRow | undefined> {
    return this.db
      .selectFrom('user_schemas')
      .selectAll()
      .where('project_id', '=', projectId)
      .where('is_default', '=', true)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .executeTakeFirst();
  }

  /**
   * Revisions oldest first. `latest` keeps, per objectType, only the revision no other revision of
   * that type is newer than (ties on created_at broken by id, like the cursor).
   */
  async list(projectId: string, revisions: 'latest' | 'all', cursor: Cursor | undefined, limit: number): Promise<SchemaRow[]> {
    let query = this.db.selectFrom('user_schemas').selectAll().where('user_schemas.project_id', '=', projectId);
    if (revisions === 'latest') {
      query = query.where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('user_schemas as newer')
              .select(sql<number>`1`.as('one'))
              .whereRef('newer.project_id', '=', 'user_schemas.project_id')
              .whereRef('newer.object_type', '=', 'user_schemas.object_type')
              .where(sql<boolean>`(newer.created_at, newer.id) > (user_schemas.created_at, user_schemas.id)`),
          ),
        ),
      );
    }
    return afterCursor(query, 'user_schemas', cursor).limit(limit + 1).execute();
  }
}
