import { readdir, readFile } from 'node:fs/promises';
import type { Engine } from './engine.js';

/** Both `src/db` and `dist/db` sit two levels below the package root, where the .sql files live. */
const MIGRATIONS_DIR = new URL('../../src/db/migrations/', import.meta.url);

export interface MigrationResult {
  applied: string[];
}

export async function listMigrations(): Promise<string[]> {
  const files = await readdir(MIGRATIONS_DIR);
  return files.filter((file) => /^\d{4}_[a-z0-9_]+\.sql$/.test(file)).sort();
}

export async function migrate(engine: Engine): Promise<MigrationResult> {
  return engine.withLock(async () => {
    await engine.runScript(
      'create table if not exists schema_migrations (version text primary key, applied_at timestamptz not null default now());',
    );
    const done = new Set(
      (await engine.db.selectFrom('schema_migrations').select('version').execute()).map((row) => row.version),
    );
    const applied: string[] = [];
    for (const file of await listMigrations()) {
      if (done.has(file)) continue;
      const body = await readFile(new URL(file, MIGRATIONS_DIR), 'utf8');
      // One script per file: BEGIN..COMMIT makes each migration all-or-nothing.
      await engine.runScript(`begin;\n${body}\n;insert into schema_migrations (version) values ('${file}');\ncommit;`);
      applied.push(file);
    }
    return { applied };
  });
}
