import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { afterAll, describe, expect, it } from 'vitest';
import { newWebhookSecret, sign, signedHeaders } from '../../../src/webhooks/signature.js';
import { verifyWebhook, WebhookVerificationError, type WebhookVerificationReason } from './index.js';

const VECTOR = {
  secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  headers: {
    'webhook-id': 'msg_p5jXN8AQM9LWM0D4loKWxJek',
    'webhook-timestamp': '1614265330',
    'webhook-signature': 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
  },
  body: '{"test": 2432232314}',
};

const secret = newWebhookSecret();
const nowSeconds = () => Math.floor(Date.now() / 1000);
const payload = { type: 'user.created', timestamp: '2026-03-01T12:00:00.000Z', data: { id: 'evt_1', subject: { kind: 'user', id: 'usr_1' } } };
const body = JSON.stringify(payload);

function signed(overrides: { timestamp?: number; body?: string; secrets?: string[] } = {}) {
  return signedHeaders({ secrets: overrides.secrets ?? [secret], id: 'msg_0123456789abcdef', timestamp: overrides.timestamp ?? nowSeconds(), body: overrides.body ?? body });
}

function reasonOf(run: () => unknown): WebhookVerificationReason | undefined {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(WebhookVerificationError);
    expect((error as Error).name).toBe('WebhookVerificationError');
    return (error as WebhookVerificationError).reason;
  }
  return undefined;
}

describe('verifyWebhook', () => {
  it('verifies the published Standard Webhooks test vector', () => {
    expect(verifyWebhook(VECTOR.secret, VECTOR.headers, VECTOR.body, { now: () => 1614265330_000 })).toEqual({ test: 2432232314 });
    expect(reasonOf(() => verifyWebhook(VECTOR.secret, VECTOR.headers, VECTOR.body))).toBe('timestamp_too_old');
  });

  it('accepts our signature, from a plain object, a Headers object, a string or bytes', () => {
    const headers = signed();
    expect(verifyWebhook(secret, headers, body)).toEqual(payload);
    expect(verifyWebhook(secret, new Headers(headers), Buffer.from(body))).toEqual(payload);
    expect(verifyWebhook(secret, new Headers(headers), new TextEncoder().encode(body))).toEqual(payload);
    const shouting = Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toUpperCase(), value]));
    expect(verifyWebhook(secret, shouting, body).data).toEqual(payload.data);
  });

  it("accepts the standardwebhooks package's signature", () => {
    const id = 'msg_from_the_reference_library';
    const timestamp = new Date();
    const signature = new Webhook(secret).sign(id, timestamp, body);
    const headers = { 'webhook-id': id, 'webhook-timestamp': String(Math.floor(timestamp.getTime() / 1000)), 'webhook-signature': signature };
    expect(verifyWebhook(secret, headers, body)).toEqual(payload);
  });

  it('accepts a header with several signatures of which one is right', () => {
    const other = newWebhookSecret();
    const headers = signed({ secrets: [other, secret] });
    expect(headers['webhook-signature'].split(' ')).toHaveLength(2);
    expect(verifyWebhook(secret, headers, body)).toEqual(payload);
    expect(verifyWebhook(other, headers, body)).toEqual(payload);
    // Unknown versions and junk around the right one are skipped.
    const right = headers['webhook-signature'].split(' ')[1];
    const mixed = { ...headers, 'webhook-signature': `v2,${right.slice(3)} v1,AAAA v1a,${right.slice(3)} ${right} v1,` };
    expect(verifyWebhook(secret, mixed, body)).toEqual(payload);
    expect(reasonOf(() => verifyWebhook(newWebhookSecret(), headers, body))).toBe('no_matching_signature');
  });

  it('refuses a tampered body, id or signature', () => {
    const headers = signed();
    expect(reasonOf(() => verifyWebhook(secret, headers, body.replace('usr_1', 'usr_2')))).toBe('no_matching_signature');
    expect(reasonOf(() => verifyWebhook(secret, headers, `${body} `))).toBe('no_matching_signature');
    expect(reasonOf(() => verifyWebhook(secret, { ...headers, 'webhook-id': 'msg_other' }, body))).toBe('no_matching_signature');
    const sig = headers['webhook-signature'];
    const flipped = `${sig.slice(0, 10)}${sig[10] === 'A' ? 'B' : 'A'}${sig.slice(11)}`;
    expect(reasonOf(() => verifyWebhook(secret, { ...headers, 'webhook-signature': flipped }, body))).toBe('no_matching_signature');
    expect(reasonOf(() => verifyWebhook(secret, { ...headers, 'webhook-signature': sig.slice(0, 20) }, body))).toBe('no_matching_signature');
    // A timestamp changed after signing (to get past the tolerance) breaks the signature too.
    expect(reasonOf(() => verifyWebhook(secret, { ...headers, 'webhook-timestamp': String(nowSeconds() + 1) }, body))).toBe('no_matching_signature');
  });

  it('refuses a stale timestamp and a future one, outside the tolerance only', () => {
    const now = nowSeconds();
    expect(reasonOf(() => verifyWebhook(secret, signed({ timestamp: now - 301 }), body))).toBe('timestamp_too_old');
    expect(reasonOf(() => verifyWebhook(secret, signed({ timestamp: now + 301 }), body))).toBe('timestamp_too_new');
    expect(verifyWebhook(secret, signed({ timestamp: now - 290 }), body)).toEqual(payload);
    expect(verifyWebhook(secret, signed({ timestamp: now + 290 }), body)).toEqual(payload);
    expect(reasonOf(() => verifyWebhook(secret, signed({ timestamp: now - 60 }), body, { toleranceSeconds: 30 }))).toBe('timestamp_too_old');
    const at = (now + 3600) * 1000;
    expect(verifyWebhook(secret, signed({ timestamp: now + 3600 }), body, { now: () => at })).toEqual(payload);
  });

  it('refuses missing or malformed headers, a bad secret and a parsed body', () => {
    const headers = signed();
    for (const name of ['webhook-id', 'webhook-timestamp', 'webhook-signature'] as const) {
      const { [name]: _dropped, ...rest } = headers;
      expect(reasonOf(() => verifyWebhook(secret, rest, body))).toBe('missing_headers');
    }
    expect(reasonOf(() => verifyWebhook(secret, { ...headers, 'webhook-id': ['msg_a', 'msg_b'] }, body))).toBe('missing_headers');
    expect(reasonOf(() => verifyWebhook(secret, { ...headers, 'webhook-timestamp': '12e8' }, body))).toBe('invalid_timestamp');
    expect(reasonOf(() => verifyWebhook('whsec_', headers, body))).toBe('invalid_secret');
    expect(reasonOf(() => verifyWebhook('not a secret', headers, body))).toBe('invalid_secret');
    expect(reasonOf(() => verifyWebhook(secret, headers, payload as unknown as string))).toBe('invalid_body');
    const text = 'not json';
    expect(reasonOf(() => verifyWebhook(secret, signed({ body: text }), text))).toBe('invalid_body');
  });
});

describe('verifyWebhook in a node:http receiver', () => {
  const servers: Server[] = [];
  afterAll(async () => {
    for (const server of servers) await new Promise((done) => server.close(done));
  });

  it('verifies a real request from its IncomingMessage headers and raw body', async () => {
    const outcomes: string[] = [];
    const server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        try {
          const event = verifyWebhook(secret, request.headers, Buffer.concat(chunks));
          outcomes.push(`ok ${event.type} ${request.headers['webhook-id']}`);
          response.writeHead(204).end();
        } catch (error) {
          outcomes.push(`refused ${(error as WebhookVerificationError).reason}`);
          response.writeHead(400).end();
        }
      });
    });
    servers.push(server);
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
    const headers = signed();
    expect((await fetch(url, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body })).status).toBe(204);
    const tampered = body.replace('user.created', 'user.deleted');
    expect((await fetch(url, { method: 'POST', headers, body: tampered })).status).toBe(400);
    expect(sign({ secrets: secret, id: headers['webhook-id'], timestamp: Number(headers['webhook-timestamp']), body })).toBe(headers['webhook-signature']);
    expect(outcomes).toEqual(['ok user.created msg_0123456789abcdef', 'refused no_matching_signature']);
  });
});
