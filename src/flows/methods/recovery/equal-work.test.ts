import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { statementsOf, watchStatements } from '../../../../test/helpers/statements.js';
import { createTestApp, type TestApp } from '../../../../test/helpers/app.js';
import { FlowClient, registerThroughFlow } from '../../flow-test-kit.js';

/**
 * Enumeration by timing (issue 20 item 6, DESIGN §4.6a): a recovery request for an address that
 * has an account and one that has none must do the same database work, statement for statement
 * (a code is issued and stored for nobody, and the send limit is taken for both).
 * `npm run bench -- --only recovery_known,recovery_unknown` measures the two medians side by side.
 */
describe('recovery requests do the same database work for known and unknown addresses', () => {
  let t: TestApp;
  let project: { id: string };

  beforeAll(async () => {
    await watchStatements();
    t = await createTestApp();
    project = await t.createProject();
    await registerThroughFlow(t, project.id, 'known@example.com');
    // Warm the per-process caches as a running service has them.
    await request('warm-1@example.com');
    await request('known@example.com');
  });
  afterAll(async () => t.close());

  async function request(email: string) {
    const client = new FlowClient(t, '203.0.113.120');
    const started = await client.start({ project_id: project.id, purpose: 'recovery' });
    const { result, statements } = await statementsOf(async () => {
      const answer = await client.submit(started.json().id, 'send_code', { email });
      // The mail (known addresses only) is composed once the answer is out; wait for it too.
      await t.container.flows.courier.flush();
      return answer;
    });
    return { status: result.statusCode, step: result.json().step?.name, statements };
  }

  /** Statement texts with their literal values masked, in order. */
  const shape = (statements: string[]) => statements.map((text) => text.replace(/'[^']*'/g, "'?'").replace(/\b\d+\b/g, 'N'));

  it('the same statements, in the same order, and the same answer', async () => {
    const known = await request('known@example.com');
    const unknown = await request('nobody-here@example.com');
    expect(known.status).toBe(200);
    expect(unknown.status).toBe(200);
    expect(unknown.step).toBe(known.step);
    const shown = JSON.stringify({ known: known.statements, unknown: unknown.statements }, null, 1);
    // Until the answer: the same statements. After it, only for the known address, the mail is
    // composed and kept (RequestContext.afterAnswer): that work starts once the answer is out.
    expect(shape(known.statements.slice(0, unknown.statements.length)), shown).toEqual(shape(unknown.statements));
    const afterAnswer = known.statements.slice(unknown.statements.length);
    expect(afterAnswer.length, shown).toBeGreaterThan(0);
    expect(afterAnswer.every((text) => /"(mail_templates|outbox)"/.test(text)), shown).toBe(true);
    // A code is stored for nobody as well (and supersedes nothing).
    const stored = await t.container.db.selectFrom('one_time_codes').select(['user_id']).where('project_id', '=', project.id).where('purpose', '=', 'recovery').execute();
    expect(stored.filter((row) => row.user_id === null).length).toBeGreaterThanOrEqual(2);
  });
});
