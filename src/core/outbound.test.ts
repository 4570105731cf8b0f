import type { AddressInfo } from 'node:net';
import { createServer as createTlsServer } from 'node:tls';
import { afterEach, describe, expect, it } from 'vitest';
import { deliver, deliverResolved } from './outbound.js';
import { recordingServers } from './outbound-test-kit.js';

const recording = recordingServers();
const { servers } = recording;
afterEach(() => recording.closeAll());
const receiver = recording.start;

const body = '{"type":"user.created","timestamp":"2026-03-01T12:00:00.000Z","data":{}}';
const headers = { 'webhook-id': 'msg_1', 'webhook-timestamp': '1772366400', 'webhook-signature': 'v1,x' };

describe('deliver', () => {
  it('posts the body and headers and reports a 2xx as ok', async () => {
    const target = await receiver((_request, response) => response.writeHead(204).end());
    const result = await deliver({ url: `${target.url}/hooks?tenant=1`, headers, body, allowPrivate: true });
    expect(result).toMatchObject({ ok: true, status: 204, truncated: false });
    expect(result.durationMs).toBeGreaterThanOrEqual(0);
    expect(target.requests).toHaveLength(1);
    const [seen] = target.requests;
    expect(seen).toMatchObject({ method: 'POST', url: '/hooks?tenant=1', body });
    expect(seen.headers).toMatchObject({ ...headers, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) });
  });

  it('connects through the resolved address and keeps the name in Host (localhost)', async () => {
    const target = await receiver((_request, response) => response.writeHead(200).end('thanks'));
    const result = await deliver({ url: `http://localhost:${target.port}/hook`, headers, body, allowPrivate: true });
    expect(result).toMatchObject({ ok: true, status: 200, responseBody: 'thanks' });
    expect(target.requests[0].headers.host).toBe(`localhost:${target.port}`);
  });

  it('connects only to the checked addresses: a name that does not resolve is never looked up again', async () => {
    const target = await receiver((_request, response) => response.writeHead(202).end());
    // `.invalid` never resolves (RFC 6761): an answer proves the socket used the pinned address.
    const pinned = { url: new URL(`http://pinned.invalid:${target.port}/hook`), addresses: [{ address: '127.0.0.1', family: 4 }] };
    expect(await deliverResolved(pinned, { headers, body })).toMatchObject({ ok: true, status: 202 });
    expect(target.requests[0].headers.host).toBe(`pinned.invalid:${target.port}`);
  });

  it('keeps the original name for TLS SNI while connecting to the pinned address', async () => {
    const names: string[] = [];
    // A TLS server with no certificate: it records the ClientHello's server name, then hangs up.
    const tls = createTlsServer({ SNICallback: (name, done) => (names.push(name), done(new Error('no certificate here'))) });
    await new Promise<void>((done) => tls.listen(0, '127.0.0.1', done));
    const port = (tls.address() as AddressInfo).port;
    try {
      const pinned = { url: new URL(`https://hooks.pinned.invalid:${port}/`), addresses: [{ address: '127.0.0.1', family: 4 }] };
      expect(await deliverResolved(pinned, { headers, body, timeoutMs: 2000 })).toMatchObject({ ok: false, reason: 'network' });
      expect(names).toEqual(['hooks.pinned.invalid']);
    } finally {
      tls.close();
    }
  });

  it('reports a 500 as not ok, with its status and the start of its body', async () => {
    const target = await receiver((_request, response) => response.writeHead(500).end('database down'));
    const result = await deliver({ url: target.url, headers, body, allowPrivate: true });
    expect(result).toMatchObject({ ok: false, status: 500, reason: 'http_status', error: 'HTTP 500', responseBody: 'database down' });
  });

  it('follows no redirect: a 302 is a failure and its target sees nothing', async () => {
    const elsewhere = await receiver((_request, response) => response.writeHead(200).end());
    const target = await receiver((_request, response) => response.writeHead(302, { location: `${elsewhere.url}/stolen` }).end());
    const result = await deliver({ url: target.url, headers, body, allowPrivate: true });
    expect(result).toMatchObject({ ok: false, status: 302, reason: 'redirect' });
    expect(target.requests).toHaveLength(1);
    expect(elsewhere.connections).toBe(0);
  });

  it('gives up on a receiver that never answers, after the timeout', async () => {
    const target = await receiver(() => undefined); // reads the request, never answers
    const result = await deliver({ url: target.url, headers, body, allowPrivate: true, timeoutMs: 300 });
    expect(result).toMatchObject({ ok: false, reason: 'timeout' });
    expect(result.status).toBeUndefined();
    expect(result.durationMs).toBeGreaterThanOrEqual(290);
    expect(result.durationMs).toBeLessThan(2000);
    expect(target.requests).toHaveLength(1);
  });

  it('keeps the deadline after a 2xx whose body never ends: delivered, with a note', async () => {
    const target = await receiver((_request, response) => response.writeHead(200).write('still typing'));
    const result = await deliver({ url: target.url, headers, body, allowPrivate: true, timeoutMs: 300 });
    expect(result).toMatchObject({ ok: true, status: 200, responseBody: 'still typing', error: expect.stringContaining('did not end within 300 ms') });
    expect(result.durationMs).toBeLessThan(2000);
  });

  it('reads at most maxResponseBytes of an endless answer, then stops', async () => {
    let closed = 0;
    const target = await receiver((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/plain' });
      const chunk = Buffer.alloc(16 * 1024, 'a');
      let done = false;
      const pump = () => {
        while (!done && response.write(chunk));
        if (!done) response.once('drain', pump);
      };
      response.on('close', () => {
        done = true;
        closed++;
      });
      pump();
    });
    const result = await deliver({ url: target.url, headers, body, allowPrivate: true, timeoutMs: 5000 });
    expect(result).toMatchObject({ ok: true, status: 200, truncated: true });
    expect(result.responseBody).toHaveLength(64 * 1024);
    expect(result.durationMs).toBeLessThan(5000);
    await expect.poll(() => closed).toBe(1); // the connection was dropped, not drained
    const small = await deliver({ url: target.url, headers, body, allowPrivate: true, maxResponseBytes: 10 });
    expect(small).toMatchObject({ ok: true, truncated: true, responseBody: 'aaaaaaaaaa' });
    await expect.poll(() => closed).toBe(2);
  });

  it('refuses private targets without connecting, unless allowed', async () => {
    const target = await receiver((_request, response) => response.writeHead(204).end());
    const refused = [
      `https://localhost:${target.port}/`,
      `https://127.0.0.1:${target.port}/`,
      `https://[::1]:${target.port}/`,
      `https://[::ffff:127.0.0.1]:${target.port}/`,
      'https://10.0.0.1/',
      'https://169.254.169.254/latest/meta-data/',
      'https://100.64.0.1/',
    ];
    for (const url of refused) {
      const result = await deliver({ url, headers, body });
      expect(result, url).toMatchObject({ ok: false, reason: 'private_address' });
      expect(result.status).toBeUndefined();
    }
    expect(await deliver({ url: target.url, headers, body })).toMatchObject({ ok: false, reason: 'https_required' });
    expect(target.connections).toBe(0);
    expect(await deliver({ url: target.url, headers, body, allowPrivate: true })).toMatchObject({ ok: true, status: 204 });
    expect(target.connections).toBe(1);
  });

  it('reaches a loopback receiver under a loopback public URL, never a private address', async () => {
    const target = await receiver((_request, response) => response.writeHead(204).end());
    expect(await deliver({ url: target.url, headers, body, allowLoopback: true })).toMatchObject({ ok: true, status: 204 });
    expect(await deliver({ url: `http://localhost:${target.port}/`, headers, body, allowLoopback: true })).toMatchObject({ ok: true, status: 204 });
    for (const url of ['https://10.0.0.1/', 'https://169.254.169.254/latest/meta-data/', 'https://[::ffff:192.168.1.1]/']) {
      expect(await deliver({ url, headers, body, allowLoopback: true }), url).toMatchObject({ ok: false, reason: 'private_address' });
    }
    expect(target.connections).toBe(2);
  });

  it("returns the answer's status, headers and bytes, for GET and other methods", async () => {
    const target = await receiver((request, response) => {
      response.setHeader('set-cookie', ['a=1', 'b=2']);
      response.writeHead(201, 'Made', { 'content-type': 'application/jwk-set+json', 'x-method': request.method ?? '' }).end(Buffer.from([0xff, 0x00, 0x7b]));
    });
    const got = await deliver({ url: target.url, method: 'GET', headers: {}, allowPrivate: true });
    expect(got).toMatchObject({ ok: true, status: 201, statusText: 'Made' });
    expect(got.headers?.get('content-type')).toBe('application/jwk-set+json');
    expect(got.headers?.getSetCookie()).toEqual(['a=1', 'b=2']);
    expect([...got.responseBytes!]).toEqual([0xff, 0x00, 0x7b]);
    expect(target.requests[0]).toMatchObject({ method: 'GET', body: '' });
    expect(target.requests[0].headers['content-type']).toBeUndefined();
    const put = await deliver({ url: target.url, method: 'PUT', headers: { 'Content-Type': 'text/plain' }, body: 'x', allowPrivate: true });
    expect(put.headers?.get('x-method')).toBe('PUT');
    expect(target.requests[1].headers['content-type']).toBe('text/plain');
  });

  it("ends the exchange when the caller's signal aborts", async () => {
    const target = await receiver(() => undefined); // never answers
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const result = await deliver({ url: target.url, headers, body, allowPrivate: true, timeoutMs: 5000, signal: controller.signal });
    expect(result).toMatchObject({ ok: false, reason: 'aborted' });
    expect(result.durationMs).toBeLessThan(2000);
    expect(await deliver({ url: target.url, headers, body, allowPrivate: true, signal: AbortSignal.abort() })).toMatchObject({ ok: false, reason: 'aborted' });
  });

  it('reports network failures and bad URLs as results, never throws', async () => {
    const target = await receiver((request) => request.socket.destroy());
    expect(await deliver({ url: target.url, headers, body, allowPrivate: true })).toMatchObject({ ok: false, reason: 'network' });
    const closed = await receiver(() => undefined);
    servers.pop()!.close();
    await new Promise((done) => setTimeout(done, 50));
    expect(await deliver({ url: closed.url, headers, body, allowPrivate: true })).toMatchObject({ ok: false, reason: 'network', error: expect.stringContaining('ECONNREFUSED') });
    expect(await deliver({ url: 'not a url', headers, body })).toMatchObject({ ok: false, reason: 'invalid_url' });
    expect(await deliver({ url: 'https://no-such-host.invalid/', headers, body })).toMatchObject({ ok: false, reason: 'dns_failure' });
  });
});
