import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { newWebhookSecret, secretKey, sign, signedHeaders } from './signature.js';

// The Standard Webhooks test vector, as published in the reference libraries
// (standard-webhooks/standard-webhooks, libraries/javascript/src/webhook.test.ts "sign function
// works"; the same values in the Python, Go, Rust, PHP … libraries).
const VECTOR = {
  secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  id: 'msg_p5jXN8AQM9LWM0D4loKWxJek',
  timestamp: 1614265330,
  body: '{"test": 2432232314}',
  signature: 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
};

const nowSeconds = () => Math.floor(Date.now() / 1000);

describe('Standard Webhooks signing', () => {
  it('reproduces the published test vector', () => {
    expect(sign({ secrets: VECTOR.secret, id: VECTOR.id, timestamp: VECTOR.timestamp, body: VECTOR.body })).toBe(VECTOR.signature);
    // The same from bytes, a Date, and a secret without its prefix.
    expect(
      sign({
        secrets: [VECTOR.secret.slice('whsec_'.length)],
        id: VECTOR.id,
        timestamp: new Date(VECTOR.timestamp * 1000 + 999),
        body: Buffer.from(VECTOR.body),
      }),
    ).toBe(VECTOR.signature);
    // And the reference package agrees on the vector.
    expect(new Webhook(VECTOR.secret).sign(VECTOR.id, new Date(VECTOR.timestamp * 1000), VECTOR.body)).toBe(VECTOR.signature);
  });

  it('makes whsec_ secrets of 32 random bytes', () => {
    const secrets = new Set(Array.from({ length: 50 }, () => newWebhookSecret()));
    expect(secrets.size).toBe(50);
    for (const secret of secrets) {
      expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
      expect(secretKey(secret)).toHaveLength(32);
    }
  });

  it('is verified by the standardwebhooks package, and matches what it signs', () => {
    for (let i = 0; i < 20; i++) {
      const secret = newWebhookSecret();
      const id = `msg_${randomBytes(12).toString('hex')}`;
      const timestamp = nowSeconds();
      const body = JSON.stringify({ type: 'user.created', timestamp: new Date().toISOString(), data: { name: 'Zoë ✓', n: i, pad: 'x'.repeat(i * 37) } });
      const theirs = new Webhook(secret);
      // ours -> theirs
      const headers = signedHeaders({ secrets: secret, id, timestamp, body });
      expect(theirs.verify(body, { ...headers })).toEqual(JSON.parse(body));
      // theirs -> ours
      expect(sign({ secrets: secret, id, timestamp, body })).toBe(theirs.sign(id, new Date(timestamp * 1000), body));
    }
  });

  it('sends one signature per secret during a rotation, each verifiable on its own', () => {
    const previous = newWebhookSecret();
    const current = newWebhookSecret();
    const body = '{"type":"user.deleted","timestamp":"2026-01-01T00:00:00Z","data":{}}';
    const headers = signedHeaders({ secrets: [current, previous], id: 'msg_rotation1', timestamp: nowSeconds(), body });
    const parts = headers['webhook-signature'].split(' ');
    expect(parts).toHaveLength(2);
    expect(parts.every((part) => /^v1,[A-Za-z0-9+/]{43}=$/.test(part))).toBe(true);
    expect(new Webhook(current).verify(body, { ...headers })).toEqual(JSON.parse(body));
    expect(new Webhook(previous).verify(body, { ...headers })).toEqual(JSON.parse(body));
    expect(() => new Webhook(newWebhookSecret()).verify(body, { ...headers })).toThrow();
  });

  it('signs the exact bytes of the body', () => {
    const secret = newWebhookSecret();
    const bytes = Buffer.from([0x7b, 0xff, 0xfe, 0x7d]); // not UTF-8: must not be re-encoded
    const fromBytes = sign({ secrets: secret, id: 'msg_bytes', timestamp: 1, body: bytes });
    const fromLossyText = sign({ secrets: secret, id: 'msg_bytes', timestamp: 1, body: bytes.toString('utf8') });
    expect(fromBytes).not.toBe(fromLossyText);
  });

  it('refuses malformed secrets, ids and timestamps', () => {
    const base = { secrets: newWebhookSecret(), id: 'msg_1', timestamp: 1, body: '{}' };
    for (const secret of ['', 'whsec_', 'whsec_not base64!', 'whsec_YWJj', `whsec_${Buffer.alloc(65).toString('base64')}`]) {
      expect(() => sign({ ...base, secrets: secret })).toThrow();
    }
    expect(() => sign({ ...base, secrets: [] })).toThrow();
    // 32 bytes end in a character with 2 unused bits: set one, and the lenient decoder reads the same key.
    const text = Buffer.alloc(32, 7).toString('base64');
    const twin = `${text.slice(0, -2)}${String.fromCharCode(text.charCodeAt(text.length - 2) + 1)}=`;
    expect(Buffer.from(twin, 'base64').equals(Buffer.from(text, 'base64'))).toBe(true);
    expect(secretKey(`whsec_${text}`)).toHaveLength(32);
    expect(() => secretKey(`whsec_${twin}`)).toThrow(/not base64/);
    for (const id of ['', 'msg.1', 'msg 1', 'msg\r\n1']) expect(() => sign({ ...base, id })).toThrow();
    for (const timestamp of [-1, 1.5, Number.NaN]) expect(() => sign({ ...base, timestamp })).toThrow();
  });
});
