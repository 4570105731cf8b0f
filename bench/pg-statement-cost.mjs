// PostgreSQL's own CPU per statement for a few plain statements, at 8 connections, counted the
// way the benchmark counts it (utime + stime of every `postgres` process in /proc): a yardstick
// for the per-operation PostgreSQL CPU that `npm run bench` reports. Linux only.
// Usage: node bench/pg-statement-cost.mjs   (DATABASE_URL, default postgres://postgres@127.0.0.1:5432/postgres)
import { readdirSync, readFileSync } from 'node:fs';
import pg from 'pg';

const CONNECTIONS = 8;
const STATEMENTS = 4000;
const TICKS_PER_SECOND = 100;
const table = `gh_cost_${process.pid}`;

function postgresCpuMs() {
  let ms = 0;
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      if (!readFileSync(`/proc/${pid}/comm`, 'utf8').startsWith('postgres')) continue;
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
      ms += ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
    } catch {
      // The process ended between the listing and the read.
    }
  }
  return ms;
}

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres', max: CONNECTIONS });

async function measure(label, statement) {
  const before = postgresCpuMs();
  const start = performance.now();
  await Promise.all(Array.from({ length: CONNECTIONS }, async (_, worker) => {
    for (let i = worker; i < STATEMENTS; i += CONNECTIONS) await statement(i);
  }));
  const cpu = (postgresCpuMs() - before) / STATEMENTS;
  const latency = ((performance.now() - start) / STATEMENTS) * CONNECTIONS;
  console.log(`${label}: ${cpu.toFixed(3)} ms of PostgreSQL CPU per statement, ${latency.toFixed(2)} ms per statement and connection`);
}

try {
  await pool.query(`create table ${table} (id text primary key, token_hash text not null unique, v int)`);
  await measure('select 1', () => pool.query('select 1'));
  await measure('select by primary key', (i) => pool.query(`select * from ${table} where id = $1`, [`k${i}`]));
  await measure('insert, sequential key (autocommit, durable)', (i) => pool.query(`insert into ${table} values ($1, $2, 1)`, [`s${String(i).padStart(8, '0')}`, `s${i}`]));
  // A random unique key, as a session's token hash: each insert lands on another index page.
  await measure('insert, random unique key (autocommit, durable)', (i) => pool.query(`insert into ${table} values ($1, md5($1 || random()::text), 1)`, [`r${i}`]));
  // A foreign key to one parent row, as every session, attempt and event has to its project: the
  // check locks that row FOR KEY SHARE, and concurrent lockers share it through a MultiXact.
  await pool.query(`create table ${table}_parent (id text primary key)`);
  await pool.query(`insert into ${table}_parent values ('p')`);
  await pool.query(`create table ${table}_child (id text primary key, token_hash text not null unique, parent_id text not null references ${table}_parent (id) on delete cascade)`);
  await measure('insert, random unique key, foreign key to one parent row', (i) => pool.query(`insert into ${table}_child values ($1, md5($1 || random()::text), 'p')`, [`f${i}`]));
} finally {
  await pool.query(`drop table if exists ${table}_child, ${table}_parent, ${table}`);
  await pool.end();
}
