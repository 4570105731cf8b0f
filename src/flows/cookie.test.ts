import { CompactEncrypt, compactDecrypt, decodeProtectedHeader } from 'jose';
import { createHash, randomBytes } from 'node:crypto';
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { nonCanonicalTwin } from '../core/base64-test-kit.js';
import { KeyRing } from '../core/keys.js';
import { AppError } from '../core/errors.js';
import { FLOW_COOKIE, FLOW_COOKIE_BUDGET, FlowCookieCodec } from './cookie.js';
import { emptyState, requireEntry, type FlowCookieState, type FlowEntry } from './state.js';

const secretA = Buffer.from('flow-cookie-test-secret-a-0123456789abcdef');
const secretB = Buffer.from('flow-cookie-test-secret-b-0123456789abcdef');
const now = new Date('2030-01-01T00:00:00Z');

function entry(id: string, ct: number, extra: Partial<FlowEntry> = {}): FlowEntry {
  return {
    p: 'proj_aaaaaaaaaaaaaaaaaaaaaaaaaa',
    ss: 'sess_aaaaaaaaaaaaaaaaaaaaaaaaaa',
    ct,
    ex: now.getTime() + 600_000,
    f: [{ id, d: 'fdef_aaaaaaaaaaaaaaaaaaaaaaaaaa', pu: 'login', s: 'identify', c: { email: `${id}@example.com` }, h: [] }],
    ...extra,
  };
}

function stateWith(entries: FlowEntry[]): FlowCookieState {
  const state = emptyState();
  for (const e of entries) state.flows[e.f[0].id] = e;
  return state;
}

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    return (error as AppError).code;
  }
  return 'no error';
}

describe('_zflow codec', () => {
  const codec = new FlowCookieCodec(new KeyRing([secretA]));

  it('round-trips the state as a dir/A256GCM JWE with a kid', async () => {
    const state = stateWith([entry('flow_one1111111', 1)]);
    const token = await codec.encode(state, now);
    const [header, encryptedKey, iv, ciphertext, tag] = token.split('.');
    expect(JSON.parse(Buffer.from(header, 'base64url').toString())).toMatchObject({ alg: 'dir', enc: 'A256GCM', kid: expect.any(String) });
    expect(encryptedKey).toBe('');
    expect(iv.length).toBeGreaterThan(0);
    expect(tag.length).toBeGreaterThan(0);
    expect(token).not.toContain('example.com');
    expect(Buffer.from(ciphertext, 'base64url').toString()).not.toContain('example.com');
    expect(await codec.decode(token)).toEqual(state);
  });

  it('refuses tampered, truncated and foreign tokens with enc_key.decrypt_failed', async () => {
    const token = await codec.encode(stateWith([entry('flow_one1111111', 1)]), now);
    const parts = token.split('.');
    const flip = (s: string) => (s[5] === 'A' ? `${s.slice(0, 5)}B${s.slice(6)}` : `${s.slice(0, 5)}A${s.slice(6)}`);
    const tampered = [
      [parts[0], parts[1], parts[2], flip(parts[3]), parts[4]].join('.'),
      [parts[0], parts[1], parts[2], parts[3], flip(parts[4])].join('.'),
      [parts[0], parts[1], flip(parts[2]), parts[3], parts[4]].join('.'),
      parts.slice(0, 4).join('.'),
      'garbage',
      'a.b.c.d.e',
      '',
      [Buffer.from(JSON.stringify({ alg: 'dir', enc: 'A256GCM', kid: 'nope' })).toString('base64url'), ...parts.slice(1)].join('.'),
    ];
    for (const bad of tampered) expect(await codeOf(codec.decode(bad))).toBe('enc_key.decrypt_failed');
    const other = new FlowCookieCodec(new KeyRing([secretB]));
    expect(await codeOf(other.decode(token))).toBe('enc_key.decrypt_failed');
  });

  it('opens one textual form only: parts the lenient decoder reads as the same bytes are refused like garbage', async () => {
    const token = await codec.encode(stateWith([entry('flow_one1111111', 1)]), now);
    const parts = token.split('.');
    expect(parts[4].length % 4).toBe(2); // a 16-byte tag: its last character has 4 unused bits
    expect(parts[2].length % 4).toBe(0);
    const replaced = (index: number, part: string) => parts.map((p, i) => (i === index ? part : p)).join('.');
    const variants = [
      replaced(4, nonCanonicalTwin(parts[4])),
      replaced(4, `${parts[4]}==`),
      replaced(2, `${parts[2].slice(0, 4)}!${parts[2].slice(4)}`),
      replaced(3, `${parts[3].slice(0, 4)}~${parts[3].slice(4)}`),
      replaced(2, `${parts[2]}A`), // a 12-byte IV is 16 characters: a 17th is dropped by the lenient decoder
    ];
    if (parts[3].length % 4 >= 2) variants.push(replaced(3, nonCanonicalTwin(parts[3])));
    for (const bad of variants) expect(await codeOf(codec.decode(bad)), bad).toBe('enc_key.decrypt_failed');
    expect(await codec.decode(token)).toEqual(stateWith([entry('flow_one1111111', 1)]));
  });

  it('is standard JWE: jose opens its tokens and it opens jose\'s (cookies survive the change of implementation)', async () => {
    const state = stateWith([entry('flow_one1111111', 1)]);
    const key = new KeyRing([secretA]).all('flow-cookie')[0];
    const token = await codec.encode(state, now);
    const opened = await compactDecrypt(token, key, { keyManagementAlgorithms: ['dir'], contentEncryptionAlgorithms: ['A256GCM'] });
    expect(JSON.parse(inflateRawSync(opened.plaintext).toString('utf8'))).toEqual(state);
    const kid = decodeProtectedHeader(token).kid as string;
    expect(kid).toBe(createHash('sha256').update('kid:').update(key).digest('base64url').slice(0, 12));
    const seal = (header: Record<string, unknown>) =>
      new CompactEncrypt(deflateRawSync(Buffer.from(JSON.stringify(state)))).setProtectedHeader({ alg: 'dir', enc: 'A256GCM', kid, ...header }).encrypt(key);
    expect(await codec.decode(await seal({}))).toEqual(state);
    // A compressed payload is refused even when the token is authentic (the codec inflates with a bound itself).
    expect(await codeOf(codec.decode(await seal({ zip: 'DEF' })))).toBe('enc_key.decrypt_failed');
  });

  it('decrypts with an older key of the ring and encrypts with the newest (rotation)', async () => {
    const oldToken = await codec.encode(stateWith([entry('flow_old1111111', 1)]), now);
    const rotated = new FlowCookieCodec(new KeyRing([secretB, secretA]));
    const state = await rotated.decode(oldToken);
    expect(Object.keys(state.flows)).toEqual(['flow_old1111111']);
    const newToken = await rotated.encode(state, now);
    expect(await codeOf(codec.decode(newToken))).toBe('enc_key.decrypt_failed');
    expect(await new FlowCookieCodec(new KeyRing([secretB])).decode(newToken)).toEqual(state);
  });

  it('answers 410 flow.expired for an expired flow, 404 for unknown ids and other projects', async () => {
    const state = await codec.decode(await codec.encode(stateWith([entry('flow_one1111111', 1)]), now));
    expect(requireEntry(state, 'flow_one1111111', now).key).toBe('flow_one1111111');
    const at = (ms: number) => new Date(now.getTime() + ms);
    const codeAt = (id: string, when: Date, project?: string) => {
      try {
        requireEntry(state, id, when, project);
        return 'ok';
      } catch (error) {
        return (error as AppError).code;
      }
    };
    expect(codeAt('flow_one1111111', at(599_999))).toBe('ok');
    expect(codeAt('flow_one1111111', at(600_000))).toBe('flow.expired');
    expect(codeAt('flow_nope111111', now)).toBe('flow.not_found');
    expect(codeAt('flow_one1111111', now, 'proj_otherotherotherotherother')).toBe('flow.not_found');
  });

  it('drops long-expired flows when re-encoding', async () => {
    const state = stateWith([entry('flow_old1111111', 1, { ex: now.getTime() - 2 * 3_600_000 }), entry('flow_new1111111', 2)]);
    const decoded = await codec.decode(await codec.encode(state, now));
    expect(Object.keys(decoded.flows)).toEqual(['flow_new1111111']);
  });

  it('keeps ten concurrent flows and stays under the budget by dropping the oldest first', async () => {
    const ten = stateWith(Array.from({ length: 10 }, (_, i) => entry(`flow_c${String(i).padStart(12, '0')}`, 100 + i)));
    const tenToken = await codec.encode(ten, now);
    expect(Object.keys((await codec.decode(tenToken)).flows)).toHaveLength(10);

    // Incompressible collected data so that the budget really binds.
    const big = (i: number) =>
      entry(`flow_b${String(i).padStart(12, '0')}`, 1000 + i, {
        f: [{ id: `flow_b${String(i).padStart(12, '0')}`, d: 'fdef_x', pu: 'login', s: 's', h: [], c: { blob: randomBytes(600).toString('base64') } }],
      });
    const many = stateWith(Array.from({ length: 12 }, (_, i) => big(i)));
    const newest = 'flow_b000000000011';
    const token = await codec.encode(many, now, newest);
    expect(FLOW_COOKIE.length + 1 + token.length).toBeLessThan(FLOW_COOKIE_BUDGET);
    const kept = Object.keys((await codec.decode(token)).flows).sort();
    expect(kept.length).toBeGreaterThan(1);
    expect(kept.length).toBeLessThan(12);
    expect(kept).toContain(newest);
    // exactly the newest ones survive
    const expected = Array.from({ length: 12 }, (_, i) => `flow_b${String(i).padStart(12, '0')}`).slice(12 - kept.length);
    expect(kept).toEqual(expected.sort());
  });

  it('keeps the flow in use even when it is the oldest', async () => {
    const many = stateWith(Array.from({ length: 12 }, (_, i) =>
      entry(`flow_k${String(i).padStart(12, '0')}`, i, { f: [{ id: `flow_k${String(i).padStart(12, '0')}`, d: 'd', pu: 'p', s: 's', h: [], c: { blob: randomBytes(600).toString('base64') } }] })));
    const token = await codec.encode(many, now, 'flow_k000000000000');
    expect(Object.keys((await codec.decode(token)).flows)).toContain('flow_k000000000000');
  });
});
