import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, errorBody, type TestApp } from '../../test/helpers/app.js';
import type { Config } from '../config.js';

/**
 * A client's `backchannel_logout_uri` is a tenant's URL: logout tokens are posted to it through the
 * SSRF-safe outbound client. With a production public URL a private, loopback or link-local target
 * is refused before any connection (the delivery's error says so, and it is retried like any other
 * failure), unless the operator opts in; a loopback public URL (development) reaches loopback only.
 * A URI whose shape or literal IP host the policy refuses is refused at registration already (400);
 * the deliveries below are queued to such URIs directly, as for a client registered before that
 * check or a name that resolves to a private address.
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

  /** Registers a client, queues one delivery to `uri` as an ended session would, and sends it once. */
  async function deliverOnce(config: Partial<Config>, uri: string): Promise<{ outcome: { sent: number; retried: number }; row: { status: string; last_error: string | null } }> {
    const t = await createTestApp(config);
    try {
      const project = await t.createProject();
      const registered = await t.app.inject({ method: 'POST', url: `/projects/${project.id}/oauth_clients`, headers: bearer(project.project_secret), payload: { redirect_uris: ['https://rp.example.com/cb'], backchannel_logout_uri: 'https://rp.example.com/backchannel' } });
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

/**
 * A `backchannel_logout_uri` that no delivery could ever reach under the outbound policy is refused
 * when the client is registered: 400 req.invalid on body/backchannel_logout_uri. Only the URL's shape
 * and a literal IP host are judged (no DNS, so registering never depends on the network).
 */
describe('back-channel logout URIs the outbound policy refuses are refused at registration', () => {
  const apps: TestApp[] = [];
  afterAll(async () => {
    for (const app of apps) await app.close();
  });
  /** An app under `config` with a project; `register(uri)` posts a client with that back-channel URI. */
  const under = async (config: Partial<Config>) => {
    const t = await createTestApp(config);
    apps.push(t);
    const project = await t.createProject();
    return (uri: string) => t.app.inject({ method: 'POST', url: `/projects/${project.id}/oauth_clients`, headers: bearer(project.project_secret), payload: { redirect_uris: ['https://rp.example.com/cb'], backchannel_logout_uri: uri } });
  };
  const production = { publicUrl: 'https://id.example.com' };

  it('refuses private, loopback and link-local IP hosts, and plain http, with a production public URL; takes public ones and names', async () => {
    const register = await under(production);
    const cases: Array<[string, RegExp]> = [
      ['https://10.0.0.1/logout', /^is refused by the outbound policy: private_address: 10\.0\.0\.1 is not a public address$/],
      ['https://169.254.169.254/', /private_address: 169\.254\.169\.254 is not a public address/],
      ['https://[::ffff:192.168.1.1]/logout', /private_address: .* is not a public address/],
      ['https://127.0.0.1:8443/logout', /private_address/],
      ['https://[::1]/logout', /private_address/],
      ['https://100.64.0.1/logout', /private_address/],
      ['https://[fd00::1]/logout', /private_address/],
      ['https://0.0.0.0/logout', /private_address/],
      ['http://127.0.0.1:9000/logout', /https_required/],
      ['http://localhost:9000/logout', /https_required/],
      ['http://rp.example.com/logout', /must be https/],
    ];
    for (const [uri, message] of cases) {
      const refused = await register(uri);
      expect(refused.statusCode, uri).toBe(400);
      expect(errorBody(refused), uri).toMatchObject({ code: 'req.invalid', details: { errors: [{ path: 'body/backchannel_logout_uri', message: expect.stringMatching(message) }] } });
    }
    // A name is resolved only when a delivery is due (a private answer is refused then, above).
    for (const uri of ['https://rp.example.com/backchannel', 'https://93.184.215.14/backchannel', 'https://internal.rp.example/backchannel']) {
      expect((await register(uri)).statusCode, uri).toBe(201);
    }
  });

  it('takes http on a loopback host on a development machine, but not the private network; anything with the operator opt-in', async () => {
    const development = await under({});
    for (const uri of ['http://127.0.0.1:9000/logout', 'http://localhost:9000/logout', 'http://[::1]:9000/logout']) {
      expect((await development(uri)).statusCode, uri).toBe(201);
    }
    expect(errorBody(await development('https://10.0.0.1/logout')).details.errors).toEqual([{ path: 'body/backchannel_logout_uri', message: 'is refused by the outbound policy: private_address: 10.0.0.1 is not a public address' }]);
    const optedIn = await under({ ...production, outboundAllowPrivate: true });
    for (const uri of ['https://10.0.0.1/logout', 'https://169.254.169.254/', 'http://127.0.0.1:9000/logout', 'https://[::ffff:192.168.1.1]/logout']) {
      expect((await optedIn(uri)).statusCode, uri).toBe(201);
    }
    // The opt-in is about hosts: Back-Channel Logout's own rule (https, http only on loopback) stays.
    expect((await optedIn('http://10.0.0.1/logout')).statusCode).toBe(400);
  });

  it('answers 400, never 500, for any URI string', async () => {
    const register = await under(production);
    for (const uri of ['https://[::1', 'https://%00/', `https://${'a'.repeat(2100)}.example/`, 'https://[fe80::1%25eth0]/', 'https://0x7f.1/', 'https://2130706433/', 'https://user@10.0.0.1/', 'javascript:alert(1)', 'https://[::]/']) {
      const response = await register(uri);
      expect(response.statusCode, uri).toBe(400);
      expect(errorBody(response).code, uri).toBe('req.invalid');
    }
  });
});
