import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, errorBody, type TestApp } from '../../test/helpers/app.js';
import { FlowClient } from './flow-test-kit.js';

/** Issue 12 item 3: `POST /flow/{id}/event` takes any known type with `payload` optional. */
describe('flow events without a payload', () => {
  let t: TestApp;
  let projectId: string;
  beforeAll(async () => {
    t = await createTestApp();
    projectId = (await t.createProject()).id;
  });
  afterAll(async () => t.close());

  const eventsOf = (sessionId: string) =>
    t.container.db.selectFrom('flow_events').select(['type', 'payload']).where('session_id', '=', sessionId).orderBy('type').execute();

  it('accepts fingerprint and telemetry with no payload and stores none in its place', async () => {
    const client = new FlowClient(t, '192.0.2.80');
    const started = (await client.start({ project_id: projectId, purpose: 'login' })).json();
    const send = (body: unknown) => t.app.inject({ method: 'POST', url: `/flow/${started.id}/event`, payload: body as object, headers: { cookie: `_zflow=${client.cookie}` } });
    for (const type of ['fingerprint', 'telemetry']) {
      const response = await send({ type });
      expect(response.statusCode, response.body).toBe(204);
    }
    expect(await eventsOf(started.session_id)).toEqual([
      { type: 'fingerprint', payload: null },
      { type: 'telemetry', payload: null },
    ]);
    // A payload that is sent is still checked, and an unknown type is still refused.
    expect(errorBody(await send({ type: 'fingerprint', payload: { nope: true } })).code).toBe('req.invalid');
    expect(errorBody(await send({ type: 'dance' })).code).toBe('req.invalid');
    expect(await eventsOf(started.session_id)).toHaveLength(2);
    // The risk rules read the session's latest fingerprint event; one without a payload is no fingerprint.
    const next = await client.submit(started.id, 'continue', { email: 'nobody@example.com' });
    expect(next.statusCode, next.body).toBe(200);
  });
});
