import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../db/schema.js';
import { jsonb } from '../db/sql.js';

export interface ProjectTables {
  projects: {
    id: string;
    name: string;
    secret_hash: string;
    preview_secret_hash: string;
    preview_origins: string[];
    settings: Record<string, unknown>;
    created_at: Date;
    updated_at: Date;
  };
}

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
}
