import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openPostgres } from '../../src/db/engine.js';
import { migrate } from '../../src/db/migrate.js';

/** The name of the run's migrated PostgreSQL template database; test/helpers/engine.ts copies it. */
export const POSTGRES_TEMPLATE_ENV = 'GATEHOUSE_TEST_POSTGRES_TEMPLATE';

/** Runs one statement on its own connection to `base` (CREATE/DROP DATABASE cannot run in a pool's transaction). */
export async function runOn(base: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: base });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/**
 * Vitest global setup: with DATABASE_URL set, one database is created and migrated per run, and
 * every test database is a copy of it (`create database … template …`) instead of an empty one
 * that runs every migration again (about 0.4 s less per test app on this 2-core machine).
 * Nothing to do on PGlite, which has its own template (./pglite-template.ts).
 */
export default async function setup(): Promise<() => Promise<void>> {
  const base = process.env.DATABASE_URL;
  if (!base) return async () => {};
  const name = `gh_tpl_${randomBytes(6).toString('hex')}`;
  await runOn(base, `create database ${name}`);
  const url = new URL(base);
  url.pathname = `/${name}`;
  // A copy needs a template nobody is connected to: the engine is closed before any test starts.
  const engine = await openPostgres(url.toString(), 2);
  try {
    await migrate(engine);
  } finally {
    await engine.close();
  }
  process.env[POSTGRES_TEMPLATE_ENV] = name;
  return () => runOn(base, `drop database if exists ${name} with (force)`);
}
