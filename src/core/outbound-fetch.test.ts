import { afterEach, describe, expect, it } from 'vitest';
import { OutboundRequestError, outboundFetch } from './outbound-fetch.js';
import { recordingServers } from './outbound-test-kit.js';

const recording = recordingServers();
afterEach(() => recording.closeAll());
const target = (answer: Parameters<typeof recording.start>[0]) => recording.start(answer);

async function rejection(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('resolved');
}

describe('outboundFetch', () => {
  const dev = outboundFetch({ allowLoopback: true });

  it("answers a real Response: status, reason, headers and body, so content-type checks work as with fetch's", async () => {
    const server = await target((_request, response) => response.writeHead(200, 'Fine', { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' }).end('{"issuer":"x"}'));
    const response = await dev(`${server.url}/.well-known/openid-configuration?x=1#ignored`, { headers: { accept: 'application/json' } });
    expect(response).toBeInstanceOf(Response);
    expect(response).toMatchObject({ ok: true, status: 200, statusText: 'Fine' });
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(await response.json()).toEqual({ issuer: 'x' });
    // The fragment is not sent (fetch drops it too), the caller's headers are.
    expect(server.requests[0]).toMatchObject({ method: 'GET', url: '/.well-known/openid-configuration?x=1' });
    expect(server.requests[0].headers).toMatchObject({ accept: 'application/json', host: `127.0.0.1:${server.port}`, 'user-agent': 'Gatehouse/1' });
    expect(server.requests[0].headers['accept-encoding']).toBeUndefined();
  });

  it('sends bodies as fetch would: a form with its content-type, bytes as they are', async () => {
    const server = await target((_request, response) => response.writeHead(204).end());
    const form = await dev(`${server.url}/token`, { method: 'POST', body: new URLSearchParams({ grant_type: 'authorization_code', code: 'a b' }), headers: { authorization: 'Basic eDp5' } });
    expect(form.status).toBe(204);
    expect(form.body).toBeNull();
    expect(server.requests[0]).toMatchObject({ method: 'POST', body: 'grant_type=authorization_code&code=a+b' });
    expect(server.requests[0].headers).toMatchObject({ 'content-type': 'application/x-www-form-urlencoded;charset=UTF-8', authorization: 'Basic eDp5', 'content-length': '38' });
    await dev(new URL(`${server.url}/raw`), { method: 'PUT', body: new Uint8Array([104, 105]) });
    expect(server.requests[1]).toMatchObject({ method: 'PUT', body: 'hi' });
  });

  it('follows no redirect: a 3xx comes back as it is, and its target sees nothing', async () => {
    const elsewhere = await target((_request, response) => response.writeHead(200).end());
    const server = await target((_request, response) => response.writeHead(302, { location: `${elsewhere.url}/stolen` }).end());
    const response = await dev(server.url, { redirect: 'manual' });
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe(`${elsewhere.url}/stolen`);
    expect(elsewhere.connections).toBe(0);
  });

  it('refuses private targets before any connection, unless the policy allows them', async () => {
    const server = await target((_request, response) => response.writeHead(200, { 'content-type': 'text/plain' }).end('reached'));
    const production = outboundFetch({});
    for (const url of [server.url, `http://localhost:${server.port}/`, 'http://10.0.0.1/', 'http://169.254.169.254/latest/meta-data/', 'https://[::ffff:192.168.1.1]/']) {
      const error = await rejection(production(url));
      expect(error, url).toBeInstanceOf(OutboundRequestError);
      expect(error, url).toBeInstanceOf(TypeError);
      expect((error as OutboundRequestError).code, url).toBe('private_address');
    }
    // A loopback public URL reaches loopback hosts, and nothing else that is private.
    for (const url of ['http://10.0.0.1/', 'http://169.254.169.254/latest/meta-data/', 'https://[::ffff:192.168.1.1]/']) {
      expect(((await rejection(dev(url))) as OutboundRequestError).code, url).toBe('private_address');
    }
    expect(server.connections).toBe(0);
    expect(await (await dev(server.url)).text()).toBe('reached');
    expect(await (await outboundFetch({ allowPrivate: true })(server.url)).text()).toBe('reached');
    expect(server.connections).toBe(2);
  });

  it("ends with the caller's signal, as fetch does, and fails an answer larger than the cap", async () => {
    const silent = await target(() => undefined);
    const started = performance.now();
    const timedOut = await rejection(dev(silent.url, { signal: AbortSignal.timeout(200) }));
    expect(timedOut.name).toBe('TimeoutError');
    expect(performance.now() - started).toBeLessThan(2000);
    const controller = new AbortController();
    controller.abort(new Error('stop'));
    expect((await rejection(dev(silent.url, { signal: controller.signal }))).message).toBe('stop');
    const own = await rejection(outboundFetch({ allowLoopback: true, timeoutMs: 200 })(silent.url));
    expect(own.name).toBe('TimeoutError');
    const large = await target((_request, response) => response.writeHead(200).end('x'.repeat(2048)));
    const refused = await rejection(outboundFetch({ allowLoopback: true, maxResponseBytes: 1024 })(large.url));
    expect(refused).toMatchObject({ code: 'too_large' });
  });

  it('fails as fetch does on what cannot be sent: a bad URL, an unknown host, a closed port', async () => {
    expect(await rejection(dev('not a url'))).toBeInstanceOf(TypeError);
    expect(await rejection(dev('ftp://127.0.0.1/'))).toMatchObject({ code: 'invalid_url' });
    expect(await rejection(dev('https://no-such-host.invalid/'))).toMatchObject({ code: 'dns_failure' });
    const closed = await target(() => undefined);
    recording.servers.pop()!.close();
    await new Promise((done) => setTimeout(done, 50));
    expect(await rejection(dev(closed.url))).toMatchObject({ code: 'network', message: expect.stringContaining('ECONNREFUSED') });
  });
});
