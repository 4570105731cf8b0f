import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { openPglite, openPostgres, type Engine } from '../../src/db/engine.js';
import { migrate } from '../../src/db/migrate.js';
import { PGLITE_TEMPLATE_ENV } from './pglite-template.js';
import { POSTGRES_TEMPLATE_ENV, runOn } from './postgres-template.js';

/**
 * The engine tests run on: embedded PGlite (in memory) by default; with DATABASE_URL set, a fresh
 * PostgreSQL database per call, dropped again on close. The same test files run on both.
 */
export function testEngineKind(): 'pglite' | 'postgres' {
  return process.env.DATABASE_URL ? 'postgres' : 'pglite';
}

export interface TestEngine {
  engine: Engine;
  /** Connection string of the fresh database (PostgreSQL only). */
  url?: string;
  close(): Promise<void>;
}

/** A new, empty PostgreSQL database next to `base` (same server and user), dropped by `drop`. */
export async function createEmptyDatabase(base: string, prefix = 'gh_test', template?: string): Promise<{ name: string; url: string; drop(): Promise<void> }> {
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  const run = (statement: string) => runOn(base, statement);
  await run(template ? `create database ${name} template ${template}` : `create database ${name}`);
  const url = new URL(base);
  url.pathname = `/${name}`;
  return { name, url: url.toString(), drop: () => run(`drop database if exists ${name} with (force)`) };
}

// Read once per test process: files that open several engines load the same image.
let image: Promise<Blob | undefined> | undefined;
function templateImage(): Promise<Blob | undefined> {
  const path = process.env[PGLITE_TEMPLATE_ENV];
  image ??= path ? readFile(path).then((bytes) => new Blob([bytes])) : Promise.resolve(undefined);
  return image;
}

/** `poolSize`: PostgreSQL connections (one makes every prepared statement visible to the next query). */
export async function openTestEngine(options: { poolSize?: number } = {}): Promise<TestEngine> {
  const base = process.env.DATABASE_URL;
  if (!base) {
    // The run's migrated template (./pglite-template.ts) when there is one; migrate still runs and
    // finds nothing to do, so a stale or missing template changes only the speed.
    const engine = await openPglite(undefined, await templateImage());
    await migrate(engine);
    return { engine, close: () => engine.close() };
  }
  // A copy of the run's migrated template (./postgres-template.ts) when there is one; migrate still
  // runs and finds nothing to do.
  const database = await createEmptyDatabase(base, 'gh_test', process.env[POSTGRES_TEMPLATE_ENV]);
  // Migrations hold one connection for their lock and run on another: a smaller pool starts migrated.
  const migrator = await openPostgres(database.url, 10);
  await migrate(migrator);
  if (options.poolSize !== undefined) await migrator.close();
  const engine = options.poolSize === undefined ? migrator : await openPostgres(database.url, options.poolSize);
  return {
    engine,
    url: database.url,
    close: async () => {
      await engine.close();
      await database.drop();
    },
  };
}
