import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openPglite, openPostgres, type Engine } from '../../src/db/engine.js';
import { migrate } from '../../src/db/migrate.js';

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

export async function openTestEngine(): Promise<TestEngine> {
  const base = process.env.DATABASE_URL;
  if (!base) {
    const engine = await openPglite();
    await migrate(engine);
    return { engine, close: () => engine.close() };
  }
  const name = `gh_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(base);
  url.pathname = `/${name}`;
  const engine = await openPostgres(url.toString(), 10);
  await migrate(engine);
  return {
    engine,
    url: url.toString(),
    close: async () => {
      await engine.close();
      const dropper = new pg.Client({ connectionString: base });
      await dropper.connect();
      await dropper.query(`drop database if exists ${name} with (force)`);
      await dropper.end();
    },
  };
}
