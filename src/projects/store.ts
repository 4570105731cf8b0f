import { sql, type Kysely, type Selectable } from 'kysely';
import type { Database } from '../db/schema.js';
import type { ProjectTables } from '../db/tables/projects.js';
import type { Cursor } from '../core/pagination.js';
import { afterCursor, jsonb } from '../db/sql.js';

export type ProjectRow = Selectable<ProjectTables['projects']>;

export class ProjectStore {
  constructor(private readonly db: Kysely<Database>) {}

  with(db: Kysely<Database>): ProjectStore {
    return new ProjectStore(db);
  }

  async insert(row: ProjectRow): Promise<void> {
    await this.db
      .insertInto('projects')
      .values({ ...row, preview_origins: jsonb(row.preview_origins), settings: jsonb(row.settings) })
      .execute();
  }

  async find(id: string): Promise<ProjectRow | undefined> {
    return this.db.selectFrom('projects').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async findBySecretHash(hash: string): Promise<Pick<ProjectRow, 'id'> | undefined> {
    return this.db.selectFrom('projects').select('id').where('secret_hash', '=', hash).executeTakeFirst();
  }

  /** Whether some project lists `origin` among its preview origins (a CORS preflight names no project). */
  async anyListsPreviewOrigin(origin: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('projects')
      .select('id')
      .where(sql<boolean>`preview_origins @> jsonb_build_array(${origin}::text)`)
      .limit(1)
      .executeTakeFirst();
    return row !== undefined;
  }

  async findByPreviewSecretHash(hash: string): Promise<Pick<ProjectRow, 'id'> | undefined> {
    return this.db.selectFrom('projects').select('id').where('preview_secret_hash', '=', hash).executeTakeFirst();
  }

  async updateSettings(id: string, settings: Record<string, unknown>, at: Date): Promise<ProjectRow | undefined> {
    return this.db
      .updateTable('projects')
      .set({ settings: jsonb(settings), updated_at: at })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
  }

  /** A replaced secret inside its grace period (`now` before its end). */
  async findByPreviousSecretHash(hash: string, now: Date): Promise<Pick<ProjectRow, 'id'> | undefined> {
    return this.db
      .selectFrom('projects')
      .select('id')
      .where('previous_secret_hash', '=', hash)
      .where('previous_secret_valid_until', '>', now)
      .executeTakeFirst();
  }

  /** One page of the projects (of `only`, when given), oldest first. */
  async list(cursor: Cursor | undefined, limit: number, only?: readonly string[]): Promise<ProjectRow[]> {
    const query = only === undefined ? this.db.selectFrom('projects').selectAll() : this.db.selectFrom('projects').selectAll().where('id', 'in', only);
    return afterCursor(query, 'projects', cursor).limit(limit + 1).execute();
  }

  async update(id: string, patch: { name?: string; preview_origins?: string[] }, at: Date): Promise<ProjectRow | undefined> {
    return this.db
      .updateTable('projects')
      .set({
        ...(patch.name !== undefined ? { name: patch.name } : {}),
        ...(patch.preview_origins !== undefined ? { preview_origins: jsonb(patch.preview_origins) } : {}),
        updated_at: at,
      })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
  }

  /** One statement: the current hash becomes the previous one (valid until `until`), `hash` the current. */
  async rotateSecret(id: string, hash: string, at: Date, until: Date): Promise<ProjectRow | undefined> {
    return this.db
      .updateTable('projects')
      .set((eb) => ({ previous_secret_hash: eb.ref('secret_hash'), previous_secret_valid_until: until, secret_hash: hash, updated_at: at }))
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
  }

  /** Deletes the project; every table that names it cascades in the same statement. */
  /** The deleted project's name, or undefined when there was none. */
  async delete(id: string): Promise<string | undefined> {
    const deleted = await this.db.deleteFrom('projects').where('id', '=', id).returning('name').executeTakeFirst();
    return deleted?.name;
  }

  /** The instance's system project (the operators' one), where instance-level events are logged. */
  async systemProjectId(): Promise<string | undefined> {
    return (await this.db.selectFrom('instance').select('system_project_id').executeTakeFirst())?.system_project_id;
  }
}
