import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createListeningTestApp, type TestApp } from '../../test/helpers/app.js';
import { FLOW_COOKIE } from './cookie.js';
import { RiskStore } from './risk/store.js';

/**
 * DESIGN §4.6a "Unauthenticated writes are budgeted": POST /flow/{id}/event stores a row of up to
 * 8 KiB, so one flow stores at most 50 events (FLOW_EVENT_CAP, documented in docs/flows.md), each taking one of its run's in
 * the statement that stores it; past the cap 429 `auth.rate_limited` without Retry-After (the cap
 * never resets) and nothing is stored.
 */
describe('POST /flow/{id}/event: at most 50 events per flow (real HTTP)', () => {
  let t: TestApp & { base: string };
  let projectId: string;

  beforeAll(async () => {
    t = await createListeningTestApp();
    projectId = (await t.createProject()).id;
  });
  afterAll(async () => t.close());

  /** A started flow: its id, session and the cookie that carries it. */
  const start = async () => {
    const response = await fetch(`${t.base}/flow`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ project_id: projectId, purpose: 'login' }) });
    expect(response.status).toBe(200);
    const cookie = response.headers.getSetCookie().find((c) => c.startsWith(`${FLOW_COOKIE}=`))!.split(';')[0];
    const body = (await response.json()) as { id: string; session_id: string };
    return { ...body, cookie };
  };
  const send = (flow: { id: string; cookie: string }, body: Record<string, unknown>) =>
    fetch(`${t.base}/flow/${flow.id}/event`, { method: 'POST', headers: { 'content-type': 'application/json', cookie: flow.cookie }, body: JSON.stringify(body) });
  const eventsOf = async (flowId: string) =>
    Number((await t.container.db.selectFrom('flow_events').where('flow_id', '=', flowId).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);

  it('stores exactly 50 of 80 concurrent events of one flow; the rest get 429 without Retry-After and store nothing', async () => {
    const flow = await start();
    const payload = { blob: 'x'.repeat(8000) };
    const responses = await Promise.all(Array.from({ length: 80 }, (_, i) => send(flow, i % 2 ? { type: 'telemetry', payload } : { type: 'fingerprint', payload: { fingerprint: `fp-${i}` } })));
    expect(responses.filter((r) => r.status === 204)).toHaveLength(50);
    const refused = responses.filter((r) => r.status !== 204);
    expect(refused).toHaveLength(30);
    for (const response of refused) {
      expect(response.status).toBe(429);
      expect(response.headers.get('retry-after')).toBeNull();
      const body = (await response.json()) as { code: string; message: string; details: Record<string, unknown> };
      expect(body.code).toBe('auth.rate_limited');
      expect(body.message).toMatch(/50 events/);
      expect(body.details).toEqual({ flow_id: flow.id, limit: 50 });
    }
    expect(await eventsOf(flow.id)).toBe(50);
    // Later events of the flow are refused too: the cap does not reset with time.
    t.clock.advance(5 * 60_000);
    expect((await send(flow, { type: 'telemetry' })).status).toBe(429);
    expect(await eventsOf(flow.id)).toBe(50);
  });

  it('leaves other flows alone, and the flow itself still works', async () => {
    const spent = await start();
    await Promise.all(Array.from({ length: 50 }, () => send(spent, { type: 'telemetry' })));
    expect((await send(spent, { type: 'telemetry' })).status).toBe(429);
    const other = await start();
    expect((await send(other, { type: 'fingerprint', payload: { fingerprint: 'laptop' } })).status).toBe(204);
    expect(await eventsOf(other.id)).toBe(1);
    // What the risk rules read: the session's latest fingerprint, stored as sent.
    expect(await new RiskStore(t.container.db).latestFingerprint(other.session_id)).toBe('laptop');
    // Events never advance a flow, and a refused one does not end it.
    const submit = await fetch(`${t.base}/flow/${spent.id}/submit`, { method: 'POST', headers: { 'content-type': 'application/json', cookie: spent.cookie }, body: JSON.stringify({ action: 'continue', fields: { email: 'nobody@example.com' } }) });
    expect(submit.status).toBe(200);
  });

  it('answers 410 flow.expired when the run record is gone, storing nothing', async () => {
    const flow = await start();
    await t.container.db.deleteFrom('flow_runs').where('id', '=', flow.id).execute();
    const response = await send(flow, { type: 'telemetry' });
    expect(response.status).toBe(410);
    expect(((await response.json()) as { code: string }).code).toBe('flow.expired');
    expect(await eventsOf(flow.id)).toBe(0);
  });
});
