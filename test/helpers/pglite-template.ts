import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dumpPgliteTemplate, openPglite } from '../../src/db/engine.js';
import { migrate } from '../../src/db/migrate.js';

/** Where the migrated template lies during a run; test/helpers/engine.ts starts each embedded engine from it. */
export const PGLITE_TEMPLATE_ENV = 'GATEHOUSE_TEST_PGLITE_TEMPLATE';

/**
 * Vitest global setup: one embedded cluster is created and migrated per run, and every test's
 * in-memory engine loads its image instead of creating a cluster of its own (about a second less
 * per test app). Nothing to do on PostgreSQL, where each test gets a fresh database.
 */
export default async function setup(): Promise<() => void> {
  if (process.env.DATABASE_URL) return () => {};
  const engine = await openPglite();
  try {
    await migrate(engine);
    const image = await dumpPgliteTemplate(engine);
    const dir = mkdtempSync(join(tmpdir(), 'gatehouse-template-'));
    const file = join(dir, 'migrated.tar');
    writeFileSync(file, Buffer.from(await image.arrayBuffer()), { mode: 0o600 });
    process.env[PGLITE_TEMPLATE_ENV] = file;
    return () => rmSync(dir, { recursive: true, force: true });
  } finally {
    await engine.close();
  }
}
