import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, type TestApp } from '../../test/helpers/app.js';
import { explainExecute, probeArgs } from './plan-test-kit.js';
import { projectWithUser, type Fixture } from './test-fixtures.js';

/**
 * The one-statement exchange runs as a prepared statement (src/db/prepared.ts), so PostgreSQL
 * plans it once, generically, with whatever statistics it has then. Its check that the attempt's
 * target is a live shell must find that shell by primary key whatever those statistics say: a
 * plan that hashes "every live shell of the project" instead costs a read of each of them per
 * exchange, and a project gains a shell with every flow started (seen in the passkey benchmark:
 * 3,600 rows filtered per exchange, 2.4 ms of database CPU, growing).
 */
describe('the one-statement exchange and its batch, planned generically', () => {
  let t: TestApp;
  let f: Fixture;
  beforeAll(async () => {
    t = await createTestApp();
    f = await projectWithUser(t);
  });
  afterAll(async () => t.close());

  /** The generic plan PostgreSQL keeps for a prepared statement, as EXPLAIN prints it. */
  async function planOf(statement: { sql: string; parameters: readonly unknown[] }): Promise<string> {
    return t.container.db.transaction().execute(async (trx) => {
      await sql`set local plan_cache_mode = force_generic_plan`.execute(trx);
      await sql.raw(`prepare exchange_plan as ${statement.sql}`).execute(trx);
      const plan = await explainExecute(trx, 'exchange_plan', statement.parameters);
      await sql`deallocate exchange_plan`.execute(trx);
      return plan;
    });
  }

  const genericPlan = () => planOf(t.container.exchange.direct.statementFor(probeArgs(f.project.id, t.clock.now()).one));

  it("checks the target shell per attempt, never by hashing the project's shells, and by primary key once the table is large", async () => {
    // Statistics of a small table holding a live shell, as a process that prepared the statement
    // early had them (without the shell in them the old EXISTS was not hashed either).
    const shell = await t.app.inject({ method: 'POST', url: '/sessions', headers: bearer(f.project.project_secret), payload: { project_id: f.project.id } });
    expect(shell.json().session.state).toBe('building');
    await sql`analyze sessions`.execute(t.container.db);
    const early = await genericPlan();
    expect(early).not.toMatch(/hashed SubPlan/);

    await sql`insert into sessions (id, project_id, state, factors, metadata, user_agent, token_hash, created_at, updated_at, expires_at)
      select 'sess_bulk' || g, ${f.project.id}, 'building', '[]', '{}', '{}', 'bulk' || g, now(), now(), now() + interval '1 hour'
      from generate_series(1, 3000) as g`.execute(t.container.db);
    await sql`analyze sessions`.execute(t.container.db);
    const late = await genericPlan();
    expect(late).not.toMatch(/hashed SubPlan/);
    const shellScans = late.split('\n').filter((line) => /\bScan\b.*\bon sessions shell\b/.test(line));
    expect(shellScans.length, late).toBeGreaterThan(0);
    for (const scan of shellScans) expect(scan, late).toMatch(/using sessions_pkey/);
  });

  it('finds each token of a batch, and its attempt, by primary key once the table is large', async () => {
    await sql`insert into auth_attempts (id, project_id, state, factors, created_at, updated_at, expires_at)
      select 'att_bulk' || g, ${f.project.id}, 'handed_off', '[]', now(), now(), now() + interval '1 hour' from generate_series(1, 30000) as g`.execute(t.container.db);
    await sql`insert into handoff_tokens (token_hash, project_id, attempt_id, created_at, expires_at)
      select 'bulk' || g, ${f.project.id}, 'att_bulk' || g, now(), now() + interval '1 minute' from generate_series(1, 30000) as g`.execute(t.container.db);
    await sql`analyze handoff_tokens`.execute(t.container.db);
    await sql`analyze auth_attempts`.execute(t.container.db);
    const plan = await planOf(t.container.exchange.direct.batchStatementFor(probeArgs(f.project.id, t.clock.now()).batch));
    expect(plan).not.toMatch(/Seq Scan on (handoff_tokens|auth_attempts)\b/);
    expect(plan).toMatch(/Index Scan using handoff_tokens_pkey on handoff_tokens\s+Index Cond: \(token_hash = input\w*\.hash\)/);
    expect(plan).toMatch(/Index Scan using auth_attempts_pkey on auth_attempts/);
  });
});
