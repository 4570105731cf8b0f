import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testConfig } from '../src/config.js';
import { receiver } from '../src/webhooks/webhooks-test-kit.js';
import { bearer, createTestApp, type TestApp } from './helpers/app.js';
import { cliEnv, killStartedServers, startServe, tempDir } from './helpers/process.js';
import { until } from './helpers/second-process.js';

/**
 * `kill -9` of a node in the middle of a delivery loses nothing (issue 34): another node sends it
 * again once the dead node's lease has run out, with the same `webhook-id`. The killed node is a
 * real `gatehouse serve` process on the test's PostgreSQL database; the survivor is this test's
 * app, whose clock is moved past the lease (no waiting for it). PostgreSQL only: the embedded
 * database is one process's.
 */
const describePostgres = process.env.DATABASE_URL ? describe : describe.skip;

describePostgres('webhook deliveries survive kill -9 of the node sending them', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ outboundAllowPrivate: true });
  });
  afterAll(async () => {
    killStartedServers();
    await t?.close();
  });

  it('a delivery held by a killed node is sent again by another, with the same webhook-id', async () => {
    const project = await t.createProject('Kill');
    const hook = await receiver(['hang']);
    const dir = tempDir('gh-kill-');
    try {
      const created = await t.app.inject({ method: 'POST', url: `/projects/${project.id}/webhooks`, headers: bearer(project.project_secret), payload: { url: hook.url, events: ['team.created'] } });
      expect(created.statusCode, created.body).toBe(201);
      const database = (await t.container.db.selectNoFrom((eb) => eb.fn<string>('current_database', []).as('name')).executeTakeFirstOrThrow()).name;
      const url = new URL(process.env.DATABASE_URL!);
      url.pathname = `/${database}`;
      const node = await startServe(
        cliEnv({
          DATABASE_URL: url.toString(),
          PORT: '0',
          GATEHOUSE_DATA_DIR: dir.path,
          GATEHOUSE_SECRET: testConfig().secrets[0].toString(),
          GATEHOUSE_ADMIN_TOKEN: testConfig().adminToken,
          GATEHOUSE_WEBHOOK_ALLOW_PRIVATE: '1',
          GATEHOUSE_WEBHOOK_INTERVAL_MS: '50',
          GATEHOUSE_WEBHOOK_LEASE_SECONDS: '30',
          GATEHOUSE_SWEEP_INTERVAL_SECONDS: '0',
        }),
      );
      expect((await t.app.inject({ method: 'POST', url: `/teams?project_id=${project.id}`, headers: bearer(project.project_secret), payload: { name: 'In flight' } })).statusCode).toBe(201);
      // The other node claims the delivery and posts it; the receiver holds the request open.
      await until(() => hook.received.length === 1, 'the first attempt');
      node.child.kill('SIGKILL');
      expect((await node.exited).signal).toBe('SIGKILL');

      // While its lease holds, no one sends it; once it has run out, this node does.
      t.clock.set(new Date());
      expect(await t.container.webhooks.worker.drain()).toBe(0);
      // The dead node's lease ends 30 s after its real clock's claim: this node's clock moves past that.
      t.clock.set(new Date(Date.now() + 31_000));
      expect(await t.container.webhooks.worker.drain()).toBe(1);
      expect(hook.received).toHaveLength(2);
      expect(hook.received[1].headers['webhook-id']).toBe(hook.received[0].headers['webhook-id']);
      const log = (await t.app.inject({ method: 'GET', url: `/projects/${project.id}/webhooks/${created.json().id}/deliveries`, headers: bearer(project.project_secret) })).json().deliveries;
      expect(log).toEqual([expect.objectContaining({ status: 'delivered', attempts: 2 })]);
    } finally {
      await hook.close();
      dir.remove();
    }
  });
});
