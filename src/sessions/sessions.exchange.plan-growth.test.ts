import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/helpers/app.js';
import type { Database } from '../db/schema.js';
import { explainExecute, probeArgs } from './plan-test-kit.js';
import { projectWithUser, type Fixture } from './test-fixtures.js';

/**
 * A prepared statement keeps its generic plan until something invalidates it (DDL, or ANALYZE
 * and VACUUM updating the table's statistics). A brand-new deployment prepares its exchange
 * statements while `sessions`, `auth_attempts` and `handoff_tokens` hold a handful of rows, and
 * until autovacuum's next ANALYZE that plan serves a table that may have grown a thousandfold.
 * Each statement must therefore reach every row it touches by primary key in a plan made on near-
 * empty tables, so that it does not depend on statistics arriving in time. (A shell upgrade once
 * tried in the batch planned the shell's lookup through `sessions_project_created` on a small
 * table and scanned every session of the project per batch: docs/performance.md, ninth round.)
 */
describe('the exchange statements, planned on near-empty tables that then grow', () => {
  let t: TestApp;
  let f: Fixture;
  const grown = ['users', 'sessions', 'auth_attempts', 'handoff_tokens'];
  beforeAll(async () => {
    t = await createTestApp();
    f = await projectWithUser(t);
    // Autovacuum's ANALYZE would invalidate the plan and hide the case; DDL before the prepare.
    for (const table of grown) await sql`alter table ${sql.table(table)} set (autovacuum_enabled = off)`.execute(t.container.db);
  });
  afterAll(async () => t.close());

  /** Prepares `statement` on one connection, plans it generically now, grows the tables, and returns the plan it then runs with. */
  async function planAfterGrowth(name: string, statement: { sql: string; parameters: readonly unknown[] }, grow: (db: Kysely<Database>) => Promise<void>): Promise<{ early: string; late: string }> {
    return t.container.db.connection().execute(async (connection) => {
      const explain = () => explainExecute(connection, name, statement.parameters);
      await sql`set plan_cache_mode = force_generic_plan`.execute(connection);
      await sql.raw(`prepare ${name} as ${statement.sql}`).execute(connection);
      try {
        const early = await explain();
        await grow(connection);
        const late = await explain();
        return { early, late };
      } finally {
        await sql.raw(`deallocate ${name}`).execute(connection);
        await sql`reset plan_cache_mode`.execute(connection);
      }
    });
  }

  let batch = 0;
  async function growBy(db: Kysely<Database>, rows: number): Promise<void> {
    const prefix = `grow${++batch}_`;
    await sql`insert into users (id, project_id, schema_id, schema_ref, attributes, created_at, updated_at)
      select ${`usr_${prefix}`} || g, users.project_id, users.schema_id, users.schema_ref, '{}', now(), now()
      from users cross join generate_series(1, ${rows}) as g where users.id = ${f.userId}`.execute(db);
    await sql`insert into sessions (id, project_id, state, factors, metadata, user_agent, token_hash, created_at, updated_at, expires_at)
      select ${`sess_${prefix}`} || g, ${f.project.id}, 'building', '[]', '{}', '{}', ${prefix} || g, now(), now(), now() + interval '1 hour'
      from generate_series(1, ${rows}) as g`.execute(db);
    await sql`insert into auth_attempts (id, project_id, state, user_id, session_id, factors, created_at, updated_at, expires_at)
      select ${`att_${prefix}`} || g, ${f.project.id}, 'handed_off', ${f.userId}, ${`sess_${prefix}`} || g, '[]', now(), now(), now() + interval '1 hour'
      from generate_series(1, ${rows}) as g`.execute(db);
    await sql`insert into handoff_tokens (token_hash, project_id, attempt_id, created_at, expires_at)
      select ${prefix} || g, ${f.project.id}, ${`att_${prefix}`} || g, now(), now() + interval '1 minute' from generate_series(1, ${rows}) as g`.execute(db);
  }

  /** `plan` reads each of `tables`, and every scan of a grown table (aliased or not) goes through its primary key. */
  function expectPrimaryKeysOnly(plan: string, tables: string[]): void {
    for (const table of tables) expect(plan, table).toMatch(new RegExp(`\\bScan\\b.* on ${table}\\b`));
    for (const table of grown) {
      const scans = plan.split('\n').filter((line) => new RegExp(`\\bScan\\b.* on ${table}\\b`).test(line));
      for (const scan of scans) expect(scan, plan).toMatch(new RegExp(`Index (Only )?Scan using ${table}_pkey on ${table}\\b`));
    }
  }

  it('the one-statement exchange finds its token, its attempt, its user and the shell it names by primary key', async () => {
    const { early, late } = await planAfterGrowth(
      'exchange_growth_one',
      t.container.exchange.direct.statementFor(probeArgs(f.project.id, t.clock.now()).one),
      (db) => growBy(db, 20_000),
    );
    expect(late).toBe(early);
    expectPrimaryKeysOnly(late, grown);
  });

  it('the batched exchange finds each token, its attempt and its user by primary key', async () => {
    const { early, late } = await planAfterGrowth(
      'exchange_growth_batch',
      t.container.exchange.direct.batchStatementFor(probeArgs(f.project.id, t.clock.now()).batch),
      (db) => growBy(db, 20_000),
    );
    expect(late).toBe(early);
    // A batch writes new sessions only: it reads no session.
    expectPrimaryKeysOnly(late, ['users', 'auth_attempts', 'handoff_tokens']);
  });
});
