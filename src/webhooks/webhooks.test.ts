import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyWebhook } from '../../packages/node/src/webhook.js';
import { bearer, createTestApp, errorBody, type TestApp } from '../../test/helpers/app.js';
import { receiver } from './webhooks-test-kit.js';

let t: TestApp;
let project: { id: string; project_secret: string };
const hooks: Array<{ close(): Promise<void> }> = [];

beforeAll(async () => {
  t = await createTestApp({ outboundAllowPrivate: true });
  project = await t.createProject('Hooks');
});
afterAll(async () => {
  for (const hook of hooks) await hook.close();
  await t.close();
});

const api = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: bearer(project.project_secret), ...(payload ? { payload } : {}) });
const register = async (url: string, events: string[] = ['team.created']) => {
  const created = await api('POST', `/projects/${project.id}/webhooks`, { url, events });
  expect(created.statusCode, created.body).toBe(201);
  return created.json() as { id: string; secret: string };
};
const makeTeam = async (name: string) => expect((await t.app.inject({ method: 'POST', url: `/teams?project_id=${project.id}`, headers: bearer(project.project_secret), payload: { name } })).statusCode).toBe(201);
const worker = () => t.container.webhooks.worker;

describe('webhooks: registered, signed, retried, ordered', () => {
  it('signs each delivery so that the standardwebhooks package and verifyWebhook accept it; the secret is shown once', async () => {
    const hook = await receiver();
    hooks.push(hook);
    const created = await register(hook.url);
    expect(created.secret).toMatch(/^whsec_/);
    const read = await api('GET', `/projects/${project.id}/webhooks/${created.id}`);
    expect(read.body).not.toContain('whsec_');
    await makeTeam('Signed');
    expect(await worker().drain()).toBe(1);
    expect(hook.received).toHaveLength(1);
    const [delivery] = hook.received;
    const headers = delivery.headers as Record<string, string>;
    const theirs = new Webhook(created.secret).verify(delivery.body, headers) as { type: string; timestamp: string; data: { id: string; type: string; project_id: string } };
    expect(theirs.type).toBe('team.created');
    expect(theirs.data).toMatchObject({ type: 'team.created', project_id: project.id, actor: { kind: 'project_secret' } });
    expect(verifyWebhook(created.secret, headers, delivery.body).type).toBe('team.created');
    const log = await api('GET', `/projects/${project.id}/webhooks/${created.id}/deliveries`);
    expect(log.json().deliveries[0]).toMatchObject({ id: headers['webhook-id'], event_id: theirs.data.id, event_type: 'team.created', occurred_at: theirs.timestamp, status: 'delivered', attempts: 1, last_status_code: 200 });

    // After a rotation both secrets sign for 24 h.
    const rotated = await api('POST', `/projects/${project.id}/webhooks/${created.id}/rotate_secret`);
    expect(rotated.statusCode).toBe(200);
    await makeTeam('Rotated');
    await worker().drain();
    const second = hook.received[1];
    expect(String(second.headers['webhook-signature']).split(' ')).toHaveLength(2);
    for (const secret of [created.secret, rotated.json().secret]) expect(() => new Webhook(secret).verify(second.body, second.headers as Record<string, string>)).not.toThrow();
    await api('DELETE', `/projects/${project.id}/webhooks/${created.id}`);
  });

  it('retries a receiver that fails 3 times on the backoff schedule, holding back later events of that endpoint only, then delivers in order', async () => {
    const failing = await receiver([500, 503, 500]);
    const healthy = await receiver();
    hooks.push(failing, healthy);
    const slow = await register(failing.url);
    const fast = await register(healthy.url);
    await makeTeam('First');
    await makeTeam('Second');
    await worker().drain();
    // The failing endpoint got its first event once; the healthy one got both.
    expect(failing.received).toHaveLength(1);
    expect(healthy.received).toHaveLength(2);
    for (const wait of [5_000, 30_000]) {
      t.clock.advance(wait);
      await worker().drain();
    }
    expect(failing.received).toHaveLength(3);
    expect((await api('GET', `/projects/${project.id}/webhooks/${slow.id}`)).json().failing_since).toBeDefined();
    expect((await api('GET', `/projects/${project.id}/webhooks/${fast.id}`)).json().failing_since).toBeUndefined();
    t.clock.advance(2 * 60_000);
    await worker().drain();
    const names = failing.received.map((r) => (JSON.parse(r.body) as { data: { subject: { id: string } } }).data.subject.id);
    expect(failing.received).toHaveLength(5);
    expect(new Set(failing.received.slice(0, 4).map((r) => r.headers['webhook-id'])).size).toBe(1);
    expect(names[4]).not.toBe(names[0]);
    // A success ends the failing streak.
    expect((await api('GET', `/projects/${project.id}/webhooks/${slow.id}`)).json().failing_since).toBeUndefined();
    const log = (await api('GET', `/projects/${project.id}/webhooks/${slow.id}/deliveries`)).json().deliveries;
    expect(log.map((d: { status: string; attempts: number }) => [d.status, d.attempts])).toEqual([['delivered', 1], ['delivered', 4]]);
    // Redelivery sends it again with the same webhook-id.
    const again = await api('POST', `/projects/${project.id}/webhooks/${slow.id}/deliveries/${log[1].id}/redeliver`);
    expect(again.statusCode).toBe(202);
    await worker().drain();
    expect(failing.received.at(-1)!.headers['webhook-id']).toBe(log[1].id);
    for (const id of [slow.id, fast.id]) await api('DELETE', `/projects/${project.id}/webhooks/${id}`);
  });

  it('gives a delivery up after 24 h and disables an endpoint failing for 5 days, with the event webhook.disabled', async () => {
    const down = await receiver(Array(200).fill(500));
    hooks.push(down);
    const created = await register(down.url);
    await makeTeam('Doomed');
    for (let hour = 0; hour <= 25; hour++) {
      await worker().drain();
      t.clock.advance(60 * 60_000);
    }
    const first = (await api('GET', `/projects/${project.id}/webhooks/${created.id}/deliveries`)).json().deliveries[0];
    expect(first.status).toBe('failed');
    for (let day = 0; day < 5; day++) {
      await makeTeam(`Doomed ${day}`);
      await worker().drain();
      t.clock.advance(24 * 60 * 60_000);
    }
    await makeTeam('Last straw');
    await worker().drain();
    const hook = (await api('GET', `/projects/${project.id}/webhooks/${created.id}`)).json();
    expect(hook.enabled).toBe(false);
    const events = (await t.app.inject({ method: 'GET', url: `/events?project_id=${project.id}&type=webhook.disabled`, headers: bearer(project.project_secret) })).json().events;
    expect(events.map((e: { subject: { id: string } }) => e.subject.id)).toContain(created.id);
    const before = down.received.length;
    await makeTeam('After disabling');
    await worker().drain();
    expect(down.received.length).toBe(before);
  });

  it('two workers drain one outbox without sending a delivery twice', async () => {
    const hook = await receiver();
    hooks.push(hook);
    const created = await register(hook.url, ['*']);
    for (let i = 0; i < 30; i++) await makeTeam(`Many ${i}`);
    const other = t.container.webhooks.newWorker();
    await Promise.all([worker().drain(), other.drain(), worker().drain(), other.drain()]);
    const ids = hook.received.map((r) => r.headers['webhook-id']);
    expect(ids.length).toBeGreaterThanOrEqual(30);
    expect(new Set(ids).size).toBe(ids.length);
    await api('DELETE', `/projects/${project.id}/webhooks/${created.id}`);
  });

  it('refuses bad registrations: unknown event types, not a URL, another project (404)', async () => {
    const unknownType = errorBody(await api('POST', `/projects/${project.id}/webhooks`, { url: 'https://example.com/h', events: ['user.nope'] }));
    expect(unknownType.code).toBe('req.invalid');
    // The known types come with it, as GET /events lists them for an unknown filter.
    expect(unknownType.details.known_types).toContain('user.created');
    expect(errorBody(await api('POST', `/projects/${project.id}/webhooks`, { url: 'ftp://example.com/h', events: ['*'] })).code).toBe('req.invalid');
    expect(errorBody(await api('POST', `/projects/${project.id}/webhooks`, { url: 'https://user:pw@example.com/h', events: ['*'] })).code).toBe('req.invalid');
    const other = await t.createProject('Other hooks');
    const created = await register('https://example.com/hooks');
    const foreign = await t.app.inject({ method: 'GET', url: `/projects/${project.id}/webhooks/${created.id}`, headers: bearer(other.project_secret) });
    expect(foreign.statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: `/projects/${other.id}/webhooks/${created.id}`, headers: bearer(other.project_secret) })).statusCode).toBe(404);
  });
});

describe('webhooks without GATEHOUSE_OUTBOUND_ALLOW_PRIVATE', () => {
  it('refuses a receiver on a private address at registration, and never connects to one at delivery', async () => {
    // A production public URL: loopback targets are not the development exception there.
    const strict = await createTestApp({ publicUrl: 'https://id.example.com' });
    try {
      const p = await strict.createProject('Strict');
      const hook = await receiver();
      hooks.push(hook);
      const port = new URL(hook.url).port;
      for (const url of [`https://127.0.0.1:${port}/hooks`, `https://localhost:${port}/hooks`, 'https://169.254.169.254/latest', `http://127.0.0.1:${port}/hooks`]) {
        const refused = await strict.app.inject({ method: 'POST', url: `/projects/${p.id}/webhooks`, headers: bearer(p.project_secret), payload: { url, events: ['*'] } });
        expect(refused.statusCode, url).toBe(400);
      }
      expect(hook.received).toHaveLength(0);
      // A name that resolved to a public address at registration may point elsewhere later: each delivery checks again.
      const created = await strict.app.inject({ method: 'POST', url: `/projects/${p.id}/webhooks`, headers: bearer(p.project_secret), payload: { url: 'https://hooks.example.com/in', events: ['team.created'] } });
      expect(created.statusCode, created.body).toBe(201);
      await strict.container.db.updateTable('webhooks').set({ url: `https://127.0.0.1:${port}/hooks` }).where('id', '=', created.json().id).execute();
      await strict.app.inject({ method: 'POST', url: `/teams?project_id=${p.id}`, headers: bearer(p.project_secret), payload: { name: 'Rebound' } });
      expect(await strict.container.webhooks.worker.drain()).toBe(1);
      expect(hook.received).toHaveLength(0);
      const log = (await strict.app.inject({ method: 'GET', url: `/projects/${p.id}/webhooks/${created.json().id}/deliveries`, headers: bearer(p.project_secret) })).json().deliveries;
      expect(log[0]).toMatchObject({ status: 'pending', attempts: 1, last_error: expect.stringContaining('127.0.0.1') });
    } finally {
      await strict.close();
    }
  });

  it('on a development machine (a loopback public URL) reaches loopback receivers, and still no other private address', async () => {
    const dev = await createTestApp({ publicUrl: 'http://localhost:8080' });
    try {
      const p = await dev.createProject('Dev');
      const hook = await receiver();
      hooks.push(hook);
      for (const url of ['https://10.0.0.1/hooks', 'https://169.254.169.254/latest', 'https://[::ffff:192.168.1.1]/hooks']) {
        const refused = await dev.app.inject({ method: 'POST', url: `/projects/${p.id}/webhooks`, headers: bearer(p.project_secret), payload: { url, events: ['*'] } });
        expect(refused.statusCode, url).toBe(400);
        expect(errorBody(refused).details.errors).toEqual([expect.objectContaining({ path: 'body/url', message: expect.stringContaining('private_address') })]);
      }
      const created = await dev.app.inject({ method: 'POST', url: `/projects/${p.id}/webhooks`, headers: bearer(p.project_secret), payload: { url: hook.url, events: ['team.created'] } });
      expect(created.statusCode, created.body).toBe(201);
      await dev.app.inject({ method: 'POST', url: `/teams?project_id=${p.id}`, headers: bearer(p.project_secret), payload: { name: 'Local' } });
      expect(await dev.container.webhooks.worker.drain()).toBe(1);
      expect(hook.received).toHaveLength(1);
    } finally {
      await dev.close();
    }
  });
});
