import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp } from '../../test/helpers/app.js';
import type { Config } from '../config.js';

/**
 * A client's `backchannel_logout_uri` is a tenant's URL: logout tokens are posted to it through the
 * SSRF-safe outbound client. With a production public URL a private, loopback or link-local target
 * is refused before any connection (the delivery's error says so, and it is retried like any other
 * failure), unless the operator opts in; a loopback public URL (development) reaches loopback only.
 */
describe('back-channel logout deliveries reach only what the outbound policy allows', () => {
  let receiver: Server;
  let receiverUrl: string;
  let connections = 0;
  let received = 0;

  beforeAll(async () => {
    receiver = createServer((request, response) => {
      request.resume();
      request.on('end', () => {
        received++;
        response.writeHead(200).end();
      });
    });
    receiver.on('connection', () => connections++);
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/backchannel`;
  });
  afterAll(async () => {
    receiver.closeAllConnections();
    await new Promise((resolve) => receiver.close(resolve));
  });

  /** Registers a client with `uri`, queues one delivery to it as an ended session would, and sends it once. */
  async function deliverOnce(config: Partial<Config>, uri: string): Promise<{ outcome: { sent: number; retried: number }; row: { status: string; last_error: string | null } }> {
    const t = await createTestApp(config);
    try {
      const project = await t.createProject();
      const registered = await t.app.inject({ method: 'POST', url: `/projects/${project.id}/oauth_clients`, headers: bearer(project.project_secret), payload: { redirect_uris: ['https://rp.example.com/cb'], backchannel_logout_uri: uri } });
      expect(registered.statusCode, registered.body).toBe(201);
      const now = t.clock.now();
      await t.container.db
        .insertInto('oauth_logout_deliveries')
        .values({ id: 'bcl_1', project_id: project.id, client_id: registered.json().client_id, uri, session_id: 'ses_1', user_id: null, status: 'pending', attempts: 0, next_at: now, last_error: null, created_at: now, sent_at: null })
        .execute();
      const outcome = await t.container.oauth.backchannel.deliver();
      const row = await t.container.db.selectFrom('oauth_logout_deliveries').select(['status', 'last_error']).where('id', '=', 'bcl_1').executeTakeFirstOrThrow();
      return { outcome, row };
    } finally {
      await t.close();
    }
  }

  it('refuses private, loopback and link-local targets in production, without a connection', async () => {
    const production = { publicUrl: 'https://id.example.com' };
    for (const uri of [receiverUrl, receiverUrl.replace('127.0.0.1', 'localhost'), 'https://10.0.0.1/backchannel', 'https://169.254.169.254/latest/meta-data', 'https://[::ffff:192.168.1.1]/backchannel']) {
      const { outcome, row } = await deliverOnce(production, uri);
      expect(outcome, uri).toMatchObject({ sent: 0, retried: 1 });
      expect(row, uri).toMatchObject({ status: 'pending', last_error: expect.stringMatching(/^private_address: .*not a public address/) });
    }
    expect(connections).toBe(0);
  });

  it('reaches a loopback receiver on a development machine and with the operator opt-in; the private network stays out of reach in development', async () => {
    expect((await deliverOnce({ publicUrl: 'http://localhost:8080' }, receiverUrl)).outcome).toMatchObject({ sent: 1 });
    expect((await deliverOnce({ publicUrl: 'https://id.example.com', outboundAllowPrivate: true }, receiverUrl)).outcome).toMatchObject({ sent: 1 });
    expect(received).toBe(2);
    const refused = await deliverOnce({ publicUrl: 'http://localhost:8080' }, 'https://10.0.0.1/backchannel');
    expect(refused.row.last_error).toBe('private_address: 10.0.0.1 is not a public address');
  });
});
