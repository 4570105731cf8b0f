import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { openTestEngine } from '../../test/helpers/engine.js';
import { listMigrations, migrate, MIGRATION_ROOTS, type MigrationRoots } from './migrate.js';

/**
 * A sign-in method that keeps a table of its own ships its migration in its folder
 * (`<method>/migrations/NNNN_name.sql`): applied after the core's, recorded as `<method>/<file>`,
 * once. Real migrations (the core's) run first on a real database.
 */
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function methodsFolder(files: Record<string, string>): URL {
  const root = mkdtempSync(join(tmpdir(), 'gh-methods-'));
  dirs.push(root);
  for (const [path, body] of Object.entries(files)) {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), body);
  }
  return pathToFileURL(`${root}/`);
}

describe('migrations of a method of its own', () => {
  it('lists the core first, then each method folder by name; other files and folders are ignored', async () => {
    const methods = methodsFolder({
      'pin/migrations/0002_pin_hint.sql': 'select 1;',
      'pin/migrations/0001_pins.sql': 'select 1;',
      'badge/migrations/0001_badges.sql': 'select 1;',
      'badge/migrations/notes.txt': 'not a migration',
      'plain/index.ts': '',
    });
    const listed = await listMigrations({ core: MIGRATION_ROOTS.core, methods });
    const core = (await listMigrations({ core: MIGRATION_ROOTS.core, methods: new URL('file:///nonexistent/') })).map((m) => m.version);
    expect(core.length).toBeGreaterThan(10);
    expect(listed.map((m) => m.version)).toEqual([...core, 'badge/0001_badges.sql', 'pin/0001_pins.sql', 'pin/0002_pin_hint.sql']);
  });

  it('applies a method table after the core tables, once, and records it under the method', async () => {
    const methods = methodsFolder({
      'pin/migrations/0001_pins.sql': 'create table pin_secrets (user_id text primary key references users(id) on delete cascade, hash text not null);',
    });
    const roots: MigrationRoots = { core: MIGRATION_ROOTS.core, methods };
    const t = await openTestEngine();
    try {
      const first = await migrate(t.engine, roots);
      expect(first.applied).toEqual(['pin/0001_pins.sql']);
      const again = await migrate(t.engine, roots);
      expect(again.applied).toEqual([]);
      const table = await sql<{ n: number }>`select count(*)::int as n from information_schema.tables where table_name = 'pin_secrets'`.execute(t.engine.db);
      expect(table.rows[0].n).toBe(1);
      const recorded = await t.engine.db.selectFrom('schema_migrations').select('version').where('version', '=', 'pin/0001_pins.sql').execute();
      expect(recorded).toHaveLength(1);
    } finally {
      await t.close();
    }
  });

  it('rolls a failing method migration back whole: nothing of it stays, and it is not recorded', async () => {
    const methods = methodsFolder({
      'pin/migrations/0001_pins.sql': 'create table pin_half (id text primary key);\ncreate table pin_broken (id text references no_such_table(id));',
    });
    const t = await openTestEngine();
    try {
      await expect(migrate(t.engine, { core: MIGRATION_ROOTS.core, methods })).rejects.toThrow();
      const half = await sql<{ n: number }>`select count(*)::int as n from information_schema.tables where table_name = 'pin_half'`.execute(t.engine.db);
      expect(half.rows[0].n).toBe(0);
      const recorded = await t.engine.db.selectFrom('schema_migrations').select('version').where('version', 'like', 'pin/%').execute();
      expect(recorded).toEqual([]);
    } finally {
      await t.close();
    }
  });
});
