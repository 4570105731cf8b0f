/** The benchmark's own PostgreSQL database, created fresh for a run and dropped after it. */
import { randomBytes } from 'node:crypto';
import pg from 'pg';

export async function freshDatabase(): Promise<{ url: string; name: string; serverUrl: string; drop: () => Promise<void> }> {
  const base = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const name = `gh_bench_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    name,
    serverUrl: base,
    drop: async () => {
      const client = new pg.Client({ connectionString: base });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    },
  };
}
