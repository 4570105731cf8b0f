import { readdir, readFile } from 'node:fs/promises';
import type { Engine } from './engine.js';

/** Both `src/db` and `dist/db` sit two levels below the package root, where the .sql files live. */
const PACKAGE_ROOT = new URL('../../', import.meta.url);

/**
 * Where migrations live: the core's, then each sign-in method's own (`<method folder>/migrations/`),
 * so a method that keeps a table of its own ships it in its folder. A method's migration may use
 * the core's tables (a foreign key to `users`), never another method's.
 */
export interface MigrationRoots {
  core: URL;
  /** a folder of method folders; each may hold `migrations/` */
  methods: URL;
}

export const MIGRATION_ROOTS: MigrationRoots = {
  core: new URL('src/db/migrations/', PACKAGE_ROOT),
  methods: new URL('src/flows/methods/', PACKAGE_ROOT),
};

export interface MigrationResult {
  applied: string[];
}

/** One migration: its version as `schema_migrations` records it (`0001_x.sql`, `<method>/0001_x.sql`) and its file. */
export interface Migration {
  version: string;
  file: URL;
}

const MIGRATION_FILE = /^\d{4}_[a-z0-9_]+\.sql$/;
const METHOD_FOLDER = /^[a-z0-9][a-z0-9_-]*$/;

const sqlFiles = async (dir: URL): Promise<string[]> => (await readdir(dir).catch(() => [] as string[])).filter((file) => MIGRATION_FILE.test(file)).sort();

/** Every migration in the order it applies: the core's by number, then each method's, by method name and number. */
export async function listMigrations(roots: MigrationRoots = MIGRATION_ROOTS): Promise<Migration[]> {
  const core = (await sqlFiles(roots.core)).map((file) => ({ version: file, file: new URL(file, roots.core) }));
  const methods: Migration[] = [];
  const folders = (await readdir(roots.methods, { withFileTypes: true }).catch(() => [])).filter((entry) => entry.isDirectory() && METHOD_FOLDER.test(entry.name));
  for (const folder of folders.map((entry) => entry.name).sort()) {
    const dir = new URL(`${folder}/migrations/`, roots.methods);
    for (const file of await sqlFiles(dir)) methods.push({ version: `${folder}/${file}`, file: new URL(file, dir) });
  }
  return [...core, ...methods];
}

export async function migrate(engine: Engine, roots: MigrationRoots = MIGRATION_ROOTS): Promise<MigrationResult> {
  return engine.withLock(async () => {
    await engine.runScript(
      'create table if not exists schema_migrations (version text primary key, applied_at timestamptz not null default now());',
    );
    const done = new Set(
      (await engine.db.selectFrom('schema_migrations').select('version').execute()).map((row) => row.version),
    );
    const applied: string[] = [];
    for (const { version, file } of await listMigrations(roots)) {
      if (done.has(version)) continue;
      const body = await readFile(file, 'utf8');
      // One script per file: BEGIN..COMMIT makes each migration all-or-nothing.
      await engine.runScript(`begin;\n${body}\n;insert into schema_migrations (version) values ('${version}');\ncommit;`);
      applied.push(version);
    }
    return { applied };
  });
}
