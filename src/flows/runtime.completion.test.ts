import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, errorBody, type TestApp } from '../../test/helpers/app.js';
import { FlowClient, registerThroughFlow, STRONG_PASSWORD } from './flow-test-kit.js';

/** DESIGN §4.5 "Completion happens once" (issue 12, item 1). */
describe('a flow completes at most once', () => {
  let t: TestApp;
  let project: { id: string };

  beforeAll(async () => {
    t = await createTestApp();
    project = await t.createProject();
    await registerThroughFlow(t, project.id, 'once@example.com');
  });
  afterAll(async () => t.close());

  async function atPassword(ip = '203.0.113.20') {
    const client = new FlowClient(t, ip);
    const started = await client.start({ project_id: project.id, purpose: 'login' });
    const identified = await client.submit(started.json().id, 'continue', { email: 'once@example.com' });
    return { client, id: identified.json().id as string };
  }

  it('a _zflow captured before completion and replayed after it answers 410 and mints no second handoff token', async () => {
    const { client, id } = await atPassword();
    const captured = client.cookie;
    const done = await client.submit(id, 'sign_in', { password: STRONG_PASSWORD });
    expect(done.json().handoff_token).toMatch(/^gh_ho_/);
    client.cookie = captured;
    const replay = await client.submit(id, 'sign_in', { password: STRONG_PASSWORD });
    expect(replay.statusCode).toBe(410);
    expect(errorBody(replay).code).toBe('flow.completed');
    expect(replay.body).not.toContain('gh_ho_');
  });

  it('a replayed registration creates no second account', async () => {
    const client = new FlowClient(t);
    const started = await client.start({ project_id: project.id, purpose: 'register' });
    const captured = client.cookie;
    const done = await client.submit(started.json().id, 'create', { email: 'first@example.com', 'name.given': 'A', password: STRONG_PASSWORD });
    expect(done.statusCode, done.body).toBe(200);
    client.cookie = captured;
    const replay = await client.submit(started.json().id, 'create', { email: 'second@example.com', 'name.given': 'B', password: STRONG_PASSWORD });
    expect(replay.statusCode).toBe(410);
    expect(errorBody(replay).code).toBe('flow.completed');
    expect(await t.container.users.findByIdentifier(project.id, undefined, 'second@example.com')).toBeUndefined();
  });

  it('of 20 concurrent final submits of one flow exactly one completes', async () => {
    const { client, id } = await atPassword('203.0.113.21');
    const answers = await Promise.all(Array.from({ length: 20 }, () => client.submit(id, 'sign_in', { password: STRONG_PASSWORD })));
    const completed = answers.filter((a) => a.statusCode === 200);
    expect(completed).toHaveLength(1);
    expect(completed[0].json().handoff_token).toMatch(/^gh_ho_/);
    // The losers either finished verifying after the winner (410), or were not compared at all
    // because the burst locked the account first (400, like a wrong password; DESIGN 4.6a).
    for (const other of answers.filter((a) => a.statusCode !== 200)) expect(['flow.completed', 'flow.invalid_credentials', 'auth.rate_limited']).toContain(errorBody(other).code);
  });

  it('10 concurrent registrations through one flow with different addresses create one account', async () => {
    const client = new FlowClient(t, '203.0.113.22');
    const started = await client.start({ project_id: project.id, purpose: 'register' });
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) => client.submit(started.json().id, 'create', { email: `burst${i}@example.com`, 'name.given': 'B', password: STRONG_PASSWORD })),
    );
    expect(answers.filter((a) => a.statusCode === 200)).toHaveLength(1);
    for (const other of answers.filter((a) => a.statusCode !== 200)) expect(errorBody(other).code).toBe('flow.completed');
    let created = 0;
    for (let i = 0; i < 10; i++) if (await t.container.users.findByIdentifier(project.id, undefined, `burst${i}@example.com`)) created++;
    expect(created).toBe(1);
  });
});
