import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/helpers/app.js';
import { sent, watchStatements } from '../../test/helpers/statements.js';
import { FlowClient, registerThroughFlow, STRONG_PASSWORD } from './flow-test-kit.js';

/**
 * What one login journey costs the database (docs/performance.md, "What the hot paths cost"):
 * definitions come from the per-process cache, the risk signals are one read per request,
 * and nothing is read twice. Counted on a warm process, every statement including BEGIN/COMMIT.
 */
describe('database statements of the default login journey', () => {
  let t: TestApp;
  let project: { id: string; project_secret: string };

  beforeAll(async () => {
    await watchStatements();
    t = await createTestApp();
    for (let i = 0; i < 1000 && !t.container.changes.healthy; i++) await new Promise((resolve) => setTimeout(resolve, 5));
    project = await t.createProject();
    await registerThroughFlow(t, project.id, 'counted@example.com');
  });
  afterAll(async () => t.close());

  it('reads no definition, reads the risk signals once per request and stays within 9 statements', async () => {
    const client = new FlowClient(t);
    const steps: Record<string, string[]> = {};
    const measure = async <T>(name: string, fn: () => Promise<T>): Promise<T> => {
      sent.length = 0;
      const result = await fn();
      steps[name] = sent.map((text) => text.replace(/\s+/g, ' '));
      return result;
    };
    const started = await measure('start', () => client.start({ project_id: project.id, purpose: 'login' }));
    expect(started.statusCode, started.body).toBe(200);
    const identified = await measure('identify', () => client.submit(started.json().id, 'continue', { email: 'counted@example.com' }));
    expect(identified.statusCode, identified.body).toBe(200);
    const done = await measure('password', () => client.submit(identified.json().id, 'sign_in', { password: STRONG_PASSWORD }));
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json().handoff_token).toBeDefined();

    const all = Object.values(steps).flat();
    const shown = JSON.stringify(steps, null, 1);
    expect(all.filter((text) => text.includes('flow_definitions')), shown).toEqual([]);
    for (const texts of Object.values(steps)) {
      for (const table of ['ip_failures', 'flow_events', 'known_fingerprints']) {
        expect(texts.filter((text) => text.includes(table)).length, `${table} in ${shown}`).toBeLessThanOrEqual(1);
      }
    }
    // The password step reads the account's counter with the risk signals, takes the guess before
    // comparing (DESIGN 4.6a: one write that counts it and sets any lock), and resets it on success.
    expect(steps.identify.filter((text) => text.includes('login_failures')).length, shown).toBeLessThanOrEqual(1);
    expect(steps.password.filter((text) => text.includes('login_failures')).length, shown).toBeLessThanOrEqual(3);
    expect(steps.start.length, shown).toBeLessThanOrEqual(1);
    expect(steps.identify.length, shown).toBeLessThanOrEqual(3);
    // The attempt is written handed off with its token, in the statement that ends the run (src/attempts/drafts.ts).
    expect(steps.password.filter((text) => /auth_attempts|handoff_tokens|flow_runs|sessions/.test(text)), shown).toHaveLength(1);
    expect(steps.password.length, shown).toBeLessThanOrEqual(5);
    expect(all.length, shown).toBeLessThanOrEqual(9);
  });

  it('takes a guess at the account before comparing it, then counts the failure against the IP and logs it', async () => {
    const client = new FlowClient(t, '198.51.100.77');
    const started = await client.start({ project_id: project.id, purpose: 'login' });
    const identified = await client.submit(started.json().id, 'continue', { email: 'counted@example.com' });
    sent.length = 0;
    const refused = await client.submit(identified.json().id, 'sign_in', { password: 'not the password at all' });
    expect(refused.json().code).toBe('flow.invalid_credentials');
    const writes = sent.filter((text) => /^\s*(with|insert|update|delete)/i.test(text));
    expect(writes, JSON.stringify(sent, null, 1)).toHaveLength(3);
    expect(writes[0]).toMatch(/insert into "login_failures"[\s\S]*on conflict[\s\S]*locked_until/);
    // The IP's failure and the event login.failed commit together (docs/events.md).
    expect(writes[1]).toMatch(/insert into "ip_failures"/);
    expect(writes[2]).toMatch(/insert into "events"/);
  });
});
