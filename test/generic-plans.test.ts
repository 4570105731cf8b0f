import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSmtpServer } from '../src/courier/test-smtp-server.js';
import { registerThroughFlow } from '../src/flows/flow-test-kit.js';
import { ORIGIN } from '../src/flows/methods/passkey/passkey-flow-test-kit.js';
import { createTestApp } from './helpers/app.js';
import { testEngineKind } from './helpers/engine.js';
import { management, oauthCodeGrants, oneTimeCodeSignIns, passkeyJourneys, passwordJourneys, recoveries, settingsAndSecondFactors, ssoSignIns, type PlanApp } from './helpers/plan-workloads.js';
import { startUpstreamIdp, type UpstreamIdp } from './helpers/upstream-idp.js';

/**
 * Every statement a sign-in prepares (src/db/prepared.ts) keeps the generic plan PostgreSQL made
 * the first time, until ANALYZE invalidates it; on a new deployment that plan is made on near-
 * empty tables. A row found by its id must then be found by primary key, not through another
 * index such as `(project_id, ..., id)` with the id as a later column: that reads every row of
 * the project once the table has grown (src/sessions/sessions.exchange.plan-growth.test.ts shows the growth).
 * The statements are the ones the journeys of test/helpers/plan-workloads.ts actually run (sign-ins
 * by password, passkey, e-mail code and link, TOTP and recovery code, upstream SSO; recovery by
 * mail; settings flows; the OAuth2 code grant with PKCE and refresh; exchanges, session checks,
 * common management calls) at least three times, which is when src/db/prepared.ts names them; a
 * new one is checked as soon as a journey runs it.
 */
describe.skipIf(testEngineKind() === 'pglite')('generic plans of the sign-in statements, made on near-empty tables (PostgreSQL: PGlite prepares nothing)', () => {
  let plan: PlanApp;
  let mail: Awaited<ReturnType<typeof startSmtpServer>>;
  let upstream: UpstreamIdp;
  beforeAll(async () => {
    mail = await startSmtpServer();
    // The upstream sends browsers back to the app's public URL, which inject serves.
    upstream = await startUpstreamIdp(`${ORIGIN}/flow/sso/callback`);
    // Served at the origin passkey ceremonies are bound to; mail goes to a real SMTP server.
    const t = await createTestApp(
      { publicUrl: ORIGIN, smtpUrl: mail.url },
      {
        // One connection: every statement is prepared on it, where pg_prepared_statements shows it.
        poolSize: 1,
        beforeBuild: async (engine) => {
          // No statistics arrive while the journeys run: a new deployment's first minutes.
          const tables = await sql<{ name: string }>`select tablename as name from pg_tables where schemaname = current_schema()`.execute(engine.db);
          for (const table of tables.rows) await sql`alter table ${sql.table(table.name)} set (autovacuum_enabled = off)`.execute(engine.db);
        },
      },
    );
    plan = { t, project: await t.createProject(), mail };
  });
  afterAll(async () => {
    await plan?.t.close();
    await upstream?.close();
    await mail?.close();
  });

  it('find every row they name by id through its primary key', async () => {
    const { t } = plan;
    const emails = ['plans0@example.com', 'plans1@example.com'];
    for (const email of emails) expect((await registerThroughFlow(t, plan.project.id, email)).statusCode).toBe(200);
    await management(plan, await passwordJourneys(plan, emails, 6));
    await passkeyJourneys(plan, 5);
    await settingsAndSecondFactors(plan, 3);
    await recoveries(plan, 3);
    await oneTimeCodeSignIns(plan, 3);
    await oauthCodeGrants(plan, emails[0], 3);
    await ssoSignIns(plan, upstream, 3);

    const prepared = await sql<{ name: string; statement: string; parameters: number }>`
      select name, statement, cardinality(parameter_types) as parameters from pg_prepared_statements where name like 'gh\\_%'`.execute(t.container.db);
    // The journeys above prepare over 60 statements: far fewer means a workload stopped reaching the database.
    expect(prepared.rows.length).toBeGreaterThan(40);
    const trapped: string[] = [];
    // The generic plan each statement has or would get now, on the tables as the journeys left them.
    await sql`set plan_cache_mode = force_generic_plan`.execute(t.container.db);
    for (const statement of prepared.rows) {
      const nulls = sql.join(Array.from({ length: statement.parameters }, () => sql`null`));
      const lines = (await sql<{ 'QUERY PLAN': string }>`explain (costs off) execute ${sql.raw(statement.name)}(${nulls})`.execute(t.container.db)).rows.map((row) => row['QUERY PLAN']);
      lines.forEach((line, index) => {
        const scan = /(?:Bitmap Index|Index(?: Only)?) Scan (?:using|on) (\w+)/.exec(line);
        if (!scan || scan[1].endsWith('_pkey')) return;
        // The node's own conditions: the lines up to the next plan node.
        const own: string[] = [];
        for (let next = index + 1; next < lines.length && !lines[next].includes('->'); next++) own.push(lines[next].trim());
        // A row named by its id, reached through another index (a project's, say): its id is
        // compared inside that index or after it, never looked up in the primary key.
        if (own.some((condition) => /(?:^|[^\w.])(?:\w+\.)?id = /.test(condition.replace(/^(Index Cond|Filter|Recheck Cond): /, ' ')))) {
          trapped.push(`${statement.statement.replace(/\s+/g, ' ').slice(0, 160)}\n  ${line.trim()}\n  ${own.join('\n  ')}`);
        }
      });
    }
    await sql`reset plan_cache_mode`.execute(t.container.db);
    expect(trapped, trapped.join('\n\n')).toEqual([]);
  });
});
