import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FlowClient, registerThroughFlow, STRONG_PASSWORD } from '../src/flows/flow-test-kit.js';
import { ORIGIN, PasskeyClient } from '../src/flows/methods/passkey/passkey-flow-test-kit.js';
import { sessionCookie } from '../src/sessions/test-fixtures.js';
import { bearer, createTestApp, type TestApp } from './helpers/app.js';
import { testEngineKind } from './helpers/engine.js';
import { SoftwareAuthenticator } from './helpers/webauthn-authenticator.js';

/**
 * Every statement a sign-in prepares (src/db/prepared.ts) keeps the generic plan PostgreSQL made
 * the first time, until ANALYZE invalidates it; on a new deployment that plan is made on near-
 * empty tables. A row found by its id must then be found by primary key, not through another
 * index such as `(project_id, ..., id)` with the id as a later column: that reads every row of
 * the project once the table has grown (src/sessions/sessions.exchange.plan-growth.test.ts shows the growth).
 * The statements are the ones the journeys below actually run (password and passkey sign-ins,
 * exchanges, session checks, common management calls) at least three times, which is when
 * src/db/prepared.ts names them; a new one is checked as soon as a journey runs it.
 */
describe.skipIf(testEngineKind() === 'pglite')('generic plans of the sign-in statements, made on near-empty tables (PostgreSQL: PGlite prepares nothing)', () => {
  let t: TestApp;
  let project: { id: string; project_secret: string };
  beforeAll(async () => {
    // Served at the origin passkey ceremonies are bound to.
    t = await createTestApp(
      { publicUrl: ORIGIN },
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
    project = await t.createProject();
  });
  afterAll(async () => t.close());

  /** What a person does most: sign in with a password, hand the session off, use it; the sessions made. */
  async function journeys(count: number): Promise<Array<{ id: string; token: string; userId: string }>> {
    const sessions = [];
    for (let i = 0; i < count; i++) {
      const client = new FlowClient(t, `203.0.113.${20 + i}`);
      const started = await client.start({ project_id: project.id, purpose: 'login' });
      expect(started.statusCode, started.body).toBe(200);
      const identified = await client.submit(started.json().id, 'continue', { email: `plans${i % 2}@example.com` });
      const done = await client.submit(identified.json().id, 'sign_in', { password: STRONG_PASSWORD });
      expect(done.statusCode, done.body).toBe(200);
      const exchanged = await t.app.inject({ method: 'POST', url: `/sessions/exchange?project_id=${project.id}`, headers: bearer(project.project_secret), payload: { handoff_token: done.json().handoff_token } });
      expect(exchanged.statusCode, exchanged.body).toBe(200);
      const session = exchanged.json();
      expect((await t.app.inject({ method: 'GET', url: '/sessions/me', headers: sessionCookie(session.session_token) })).statusCode).toBe(200);
      expect((await t.app.inject({ method: 'GET', url: `/users/${session.session.user_id}`, headers: bearer(project.project_secret) })).statusCode).toBe(200);
      sessions.push({ id: session.session.session_id, token: session.session_token, userId: session.session.user_id });
    }
    return sessions;
  }

  /** What a backend does with them: read, query and revoke sessions, create, read and list users. */
  async function management(sessions: Array<{ id: string; token: string; userId: string }>): Promise<void> {
    const headers = bearer(project.project_secret);
    const schema = (await t.container.schemas.defaultFor(project.id))!;
    for (const [i, session] of sessions.entries()) {
      expect((await t.app.inject({ method: 'GET', url: `/sessions/${session.id}`, headers })).statusCode).toBe(200);
      expect((await t.app.inject({ method: 'POST', url: `/sessions/query?project_id=${project.id}`, headers, payload: { user_id: session.userId } })).statusCode).toBe(200);
      const created = await t.app.inject({ method: 'POST', url: '/users', headers, payload: { schema: schema.uri, attributes: { email: `managed${i}@example.com` } } });
      expect(created.statusCode, created.body).toBe(201);
      expect((await t.app.inject({ method: 'GET', url: `/users/${created.json().id}`, headers })).statusCode).toBe(200);
      expect((await t.app.inject({ method: 'GET', url: '/users', headers })).statusCode).toBe(200);
      expect((await t.app.inject({ method: 'POST', url: '/sessions', headers, payload: { project_id: project.id } })).statusCode).toBe(201);
      const revoked = i % 2 === 0 ? await t.app.inject({ method: 'DELETE', url: `/sessions/${session.id}`, headers }) : await t.app.inject({ method: 'DELETE', url: '/sessions/me', headers: sessionCookie(session.token) });
      expect(revoked.statusCode, revoked.body).toBeLessThan(300);
    }
  }

  /** A passkey-only account through the default register flow, then usernameless sign-ins with it, exchanged. */
  async function passkeyJourneys(count: number): Promise<void> {
    const authenticator = new SoftwareAuthenticator();
    const registering = new PasskeyClient(t);
    const started = await registering.begin(project.id, 'register');
    const challenged = await registering.act(started.json().id, 'passkey', { email: 'passkey@example.com', 'name.given': 'Pat' });
    expect(challenged.statusCode, challenged.body).toBe(200);
    const registered = await registering.answer(challenged, 'passkey', await authenticator.create(challenged.json().step.challenge.options, { origin: ORIGIN }));
    expect(registered.statusCode, registered.body).toBe(200);
    for (let i = 0; i < count; i++) {
      const client = new PasskeyClient(t, `203.0.113.${40 + i}`);
      const begun = await client.begin(project.id, 'login');
      const answered = await client.answer(begun, 'passkey', await authenticator.get(begun.json().step.challenge.options, { origin: ORIGIN }));
      expect(answered.statusCode, answered.body).toBe(200);
      const exchanged = await t.app.inject({ method: 'POST', url: `/sessions/exchange?project_id=${project.id}`, headers: bearer(project.project_secret), payload: { handoff_token: answered.json().handoff_token } });
      expect(exchanged.statusCode, exchanged.body).toBe(200);
    }
  }

  it('find every row they name by id through its primary key', async () => {
    for (const email of ['plans0@example.com', 'plans1@example.com']) expect((await registerThroughFlow(t, project.id, email)).statusCode).toBe(200);
    await management(await journeys(6));
    await passkeyJourneys(5);

    const prepared = await sql<{ name: string; statement: string; parameters: number }>`
      select name, statement, cardinality(parameter_types) as parameters from pg_prepared_statements where name like 'gh\\_%'`.execute(t.container.db);
    expect(prepared.rows.length).toBeGreaterThan(10);
    const trapped: string[] = [];
    // The generic plan each statement has or would get now, on the tables as the journeys left them.
    await sql`set plan_cache_mode = force_generic_plan`.execute(t.container.db);
    for (const statement of prepared.rows) {
      const nulls = sql.join(Array.from({ length: statement.parameters }, () => sql`null`));
      const plan = (await sql<{ 'QUERY PLAN': string }>`explain (costs off) execute ${sql.raw(statement.name)}(${nulls})`.execute(t.container.db)).rows.map((row) => row['QUERY PLAN']);
      plan.forEach((line, index) => {
        const scan = /(?:Bitmap Index|Index(?: Only)?) Scan (?:using|on) (\w+)/.exec(line);
        if (!scan || scan[1].endsWith('_pkey')) return;
        // The node's own conditions: the lines up to the next plan node.
        const own: string[] = [];
        for (let next = index + 1; next < plan.length && !plan[next].includes('->'); next++) own.push(plan[next].trim());
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
