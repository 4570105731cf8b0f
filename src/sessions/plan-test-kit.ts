import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { BatchArgs, ExchangeArgs } from './service.exchange.direct.js';

/**
 * For the exchange's plan tests: the arguments of a statement that matches nothing (so EXPLAIN
 * shows the plan without a row to write), and `EXPLAIN EXECUTE` of a statement prepared by name.
 */
export function probeArgs(projectId: string, now: Date): { one: ExchangeArgs; batch: BatchArgs } {
  return {
    one: { projectId, hash: 'no-such-handoff-token-hash', now, id: 'sess_plan', tokenHash: 'plan', expiresAt: now, createdEventId: 'evt_plan_created', loginEventId: 'evt_plan_login' },
    batch: {
      projectIds: [projectId, projectId],
      hashes: ['no-such-hash-1', 'no-such-hash-2'],
      ids: ['sess_plan_1', 'sess_plan_2'],
      tokenHashes: ['plan-1', 'plan-2'],
      expiresAt: [now.toISOString(), now.toISOString()],
      createdEventIds: ['evt_plan_c1', 'evt_plan_c2'],
      loginEventIds: ['evt_plan_l1', 'evt_plan_l2'],
      now,
    },
  };
}

/** EXPLAIN EXECUTE takes no bound parameters: the values go in as literals. */
const literal = (value: unknown): string => (value instanceof Date ? value.toISOString() : Array.isArray(value) ? `{${value.map((v) => JSON.stringify(literal(v))).join(',')}}` : (value as string));

/** The plan `name` (prepared on `db`'s connection) runs with `parameters`, as EXPLAIN prints it. */
export async function explainExecute(db: Kysely<Database>, name: string, parameters: readonly unknown[]): Promise<string> {
  const values = parameters.map((value) => sql.lit(literal(value)));
  const explained = await sql<{ 'QUERY PLAN': string }>`explain (costs off) execute ${sql.raw(name)}(${sql.join(values)})`.execute(db);
  return explained.rows.map((row) => row['QUERY PLAN']).join('\n');
}
