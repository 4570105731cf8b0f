import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createListeningTestApp, createTestApp, type TestApp } from '../../test/helpers/app.js';
import { FlowClient } from './flow-test-kit.js';

/**
 * DESIGN §4.6a "Unauthenticated writes are budgeted": every POST /flow stores a shell session and
 * a run row, so one client IP may start at most `ip_flow_starts_per_minute` flows per project and
 * minute; the budget is taken in the statement that writes them.
 */

const setRule = async (t: TestApp, project: { id: string; project_secret: string }, value: number) => {
  const response = await t.app.inject({ method: 'PUT', url: `/projects/${project.id}/flow_settings`, headers: bearer(project.project_secret), payload: { risk: { ip_flow_starts_per_minute: value } } });
  expect(response.statusCode, response.body).toBe(200);
};

const rowsOf = async (t: TestApp, projectId: string) => {
  const count = async (table: 'sessions' | 'flow_runs' | 'flow_start_budget') =>
    Number((await t.container.db.selectFrom(table).where('project_id', '=', projectId).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
  return { sessions: await count('sessions'), runs: await count('flow_runs'), windows: await count('flow_start_budget') };
};

describe('POST /flow per client IP, project and minute (real HTTP)', () => {
  let t: TestApp & { base: string };
  let a: { id: string; project_secret: string };
  let b: { id: string; project_secret: string };

  beforeAll(async () => {
    t = await createListeningTestApp();
    // 45 s before the minute's window ends: Retry-After is known.
    t.clock.set('2030-01-01T00:00:15.000Z');
    a = await t.createProject();
    b = await t.createProject();
    await setRule(t, a, 5);
    await setRule(t, b, 5);
  });
  afterAll(async () => t.close());

  const start = (projectId: string, extra: Record<string, unknown> = {}) =>
    fetch(`${t.base}/flow`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ project_id: projectId, purpose: 'login', ...extra }) });

  it('lets 5 of 30 concurrent starts from one IP through; the rest get 429 with Retry-After and write nothing', async () => {
    const before = await rowsOf(t, a.id);
    const responses = await Promise.all(Array.from({ length: 30 }, () => start(a.id)));
    const ok = responses.filter((r) => r.status === 200);
    const refused = responses.filter((r) => r.status === 429);
    expect(ok).toHaveLength(5);
    expect(refused).toHaveLength(25);
    for (const response of refused) {
      expect(response.headers.get('retry-after')).toBe('45');
      const body = (await response.json()) as { code: string; message: string; details: Record<string, unknown> };
      expect(body.code).toBe('auth.rate_limited');
      expect(typeof body.message).toBe('string');
      expect(body.details).toEqual({ retry_after_seconds: 45 });
    }
    const after = await rowsOf(t, a.id);
    expect(after.sessions - before.sessions).toBe(5);
    expect(after.runs - before.runs).toBe(5);
  });

  it('also refuses a start on an existing session (it writes a run row) once the budget is spent', async () => {
    const shell = await t.container.sessions.createAnonymous(a.id);
    const before = await rowsOf(t, a.id);
    const response = await start(a.id, { session_id: shell.session.session_id });
    expect(response.status).toBe(429);
    expect((await rowsOf(t, a.id)).runs).toBe(before.runs);
  });

  it('leaves other projects and other IPs alone', async () => {
    expect((await start(b.id)).status).toBe(200);
    const other = await new FlowClient(t, '198.51.100.9').start({ project_id: a.id, purpose: 'login' });
    expect(other.statusCode, other.body).toBe(200);
  });

  it('starts again in the next minute', async () => {
    expect((await start(a.id)).status).toBe(429);
    t.clock.advance(44_000);
    expect((await start(a.id)).status).toBe(429);
    t.clock.advance(1_000);
    expect((await start(a.id)).status).toBe(200);
  });
});

describe('flow-start budget: default, 0, sweeper and the hosted pages', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
    t.clock.set('2030-01-01T00:00:00.000Z');
  });
  afterAll(async () => t.close());

  it('allows 300 starts a minute without settings, then answers 429', async () => {
    const project = await t.createProject();
    const client = new FlowClient(t, '198.51.100.20');
    for (let batch = 0; batch < 6; batch++) {
      const statuses = await Promise.all(Array.from({ length: 50 }, () => client.start({ project_id: project.id, purpose: 'login' }).then((r) => r.statusCode)));
      expect(statuses.every((status) => status === 200)).toBe(true);
    }
    const refused = await client.start({ project_id: project.id, purpose: 'login' });
    expect(refused.statusCode).toBe(429);
    expect(refused.json().code).toBe('auth.rate_limited');
    expect((await rowsOf(t, project.id)).sessions).toBe(300);
  });

  it('lifts the limit with 0 and then counts nothing', async () => {
    const project = await t.createProject();
    await setRule(t, project, 2);
    const client = new FlowClient(t, '198.51.100.21');
    for (let i = 0; i < 2; i++) expect((await client.start({ project_id: project.id, purpose: 'login' })).statusCode).toBe(200);
    expect((await client.start({ project_id: project.id, purpose: 'login' })).statusCode).toBe(429);
    await setRule(t, project, 0);
    for (let i = 0; i < 5; i++) expect((await client.start({ project_id: project.id, purpose: 'login' })).statusCode).toBe(200);
    expect((await rowsOf(t, project.id)).windows).toBe(1);
  });

  it('sweeps windows a few minutes after they ended', async () => {
    const project = await t.createProject();
    expect((await new FlowClient(t, '198.51.100.22').start({ project_id: project.id, purpose: 'login' })).statusCode).toBe(200);
    t.clock.advance(2 * 60_000);
    await t.container.flows.sweeper.sweep();
    expect((await rowsOf(t, project.id)).windows).toBe(1);
    t.clock.advance(4 * 60_000);
    expect((await t.container.flows.sweeper.sweep()).flow_start_budget).toBeGreaterThanOrEqual(1);
    expect((await rowsOf(t, project.id)).windows).toBe(0);
  });

  it('counts a switch to another definition like a start: one cookie cannot grow flow_runs by switching back and forth', async () => {
    const project = await t.createProject();
    await setRule(t, project, 3);
    const client = new FlowClient(t, '198.51.100.24');
    const started = await client.start({ project_id: project.id, purpose: 'login' });
    expect(started.statusCode, started.body).toBe(200);
    const toRegister = await client.submit(started.json().id, 'sign_up');
    expect(toRegister.statusCode, toRegister.body).toBe(200);
    const toLogin = await client.submit(toRegister.json().id, 'sign_in');
    expect(toLogin.statusCode, toLogin.body).toBe(200);
    const before = await rowsOf(t, project.id);
    const refused = await client.submit(toLogin.json().id, 'sign_up');
    expect(refused.statusCode, refused.body).toBe(429);
    expect(refused.json()).toMatchObject({ code: 'auth.rate_limited', details: { retry_after_seconds: expect.any(Number) } });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect((await rowsOf(t, project.id)).runs).toBe(before.runs);
  });

  it('answers a hosted page that would start a flow past the budget with a 429 page', async () => {
    const project = await t.createProject();
    await setRule(t, project, 1);
    const page = () => t.app.inject({ method: 'GET', url: `/ui/login?project_id=${project.id}`, remoteAddress: '198.51.100.23' });
    // A started flow is shown at its own address (?flow=...).
    expect((await page()).statusCode).toBe(303);
    const refused = await page();
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['content-type']).toMatch(/text\/html/);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect((await rowsOf(t, project.id)).sessions).toBe(1);
  });
});
