import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createListeningTestApp, type TestApp } from '../../../test/helpers/app.js';
import { createShop } from './shop.js';

/** The shop hears of sign-ups from a webhook (issue 34): registered against a real Gatehouse, delivered over real HTTP. */
describe('examples/express-shop: signed-up users from a webhook', () => {
  let t: TestApp & { base: string };
  const shop = createServer();
  beforeAll(async () => {
    t = await createListeningTestApp({ outboundAllowPrivate: true });
    await new Promise<void>((resolve) => shop.listen(0, '127.0.0.1', resolve));
  });
  afterAll(async () => {
    shop.close();
    await t?.close();
  });

  it('logs a new user from a verified delivery, and refuses a forged one', async () => {
    const project = await t.createProject('Webhook shop');
    const shopUrl = `http://127.0.0.1:${(shop.address() as AddressInfo).port}`;
    const registered = await fetch(`${t.base}/projects/${project.id}/webhooks`, {
      method: 'POST',
      headers: { authorization: `Bearer ${project.project_secret}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url: `${shopUrl}/webhooks/gatehouse`, events: ['user.created'] }),
    });
    expect(registered.status).toBe(201);
    const { secret } = (await registered.json()) as { secret: string };
    const signups: string[] = [];
    shop.on('request', createShop({ gatehouseUrl: t.base, shopUrl, projectId: project.id, serviceKey: { clientId: 'unused', clientSecret: 'unused' }, webhookSecret: secret, onSignup: (id) => signups.push(id) }));

    const auth = { authorization: `Bearer ${project.project_secret}`, 'content-type': 'application/json' };
    const schemas = (await (await fetch(`${t.base}/schemas?project_id=${project.id}`, { headers: auth })).json()) as { schemas: Array<{ id: string }> };
    const created = await fetch(`${t.base}/users?project_id=${project.id}`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ schema: schemas.schemas[0].id, attributes: { email: 'new@example.com' } }),
    });
    expect(created.status, await created.clone().text()).toBe(201);
    const user = (await created.json()) as { id: string };
    expect(await t.container.webhooks.worker.drain()).toBe(1);
    expect(signups).toEqual([user.id]);

    const forged = await fetch(`${shopUrl}/webhooks/gatehouse`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'webhook-id': 'msg_forged', 'webhook-timestamp': String(Math.floor(Date.now() / 1000)), 'webhook-signature': 'v1,AAAA' },
      body: JSON.stringify({ type: 'user.created', data: { subject: { id: 'usr_evil' } } }),
    });
    expect(forged.status).toBe(400);
    expect(signups).toEqual([user.id]);
  });
});
