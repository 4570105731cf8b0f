import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorBody } from '../../../../test/helpers/app.js';
import { matchingTimeStep } from '../../../mfa/totp.js';
import { FlowClient } from '../../flow-test-kit.js';
import { codeAt, mfaKit, type MfaKit } from './mfa-flow-test-kit.js';

// RFC 6238 appendix B: the SHA-1 seed is the ASCII "12345678901234567890"; 6-digit codes are the
// last six digits of the 8-digit values the RFC lists.
const RFC_SEED = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ';
const RFC_VECTORS: Array<[number, string]> = [
  [59, '287082'],
  [1111111109, '081804'],
  [1111111111, '050471'],
  [1234567890, '005924'],
  [2000000000, '279037'],
  [20000000000, '353130'],
];

describe('RFC 6238 codes', () => {
  it('matches the RFC test vectors at their time step and no other code', () => {
    for (const [seconds, code] of RFC_VECTORS) {
      expect(matchingTimeStep(RFC_SEED, code, new Date(seconds * 1000))).toBe(Math.floor(seconds / 30));
      expect(matchingTimeStep(RFC_SEED, code === '000000' ? '000001' : '000000', new Date(seconds * 1000))).toBeUndefined();
    }
  });

  it('accepts one step of drift either way, never two', () => {
    const at = new Date(1_111_111_111_000);
    const step = Math.floor(at.getTime() / 30_000);
    for (const drift of [-1, 0, 1]) expect(matchingTimeStep(RFC_SEED, codeAt(RFC_SEED, new Date(at.getTime() + drift * 30_000)), at)).toBe(step + drift);
    for (const drift of [-2, 2, -120, 120]) expect(matchingTimeStep(RFC_SEED, codeAt(RFC_SEED, new Date(at.getTime() + drift * 30_000)), at)).toBeUndefined();
  });
});

describe('TOTP over the flow API', () => {
  let kit: MfaKit;
  beforeAll(async () => {
    kit = await mfaKit();
  });
  afterAll(async () => kit.t.close());

  it('enrolls in a settings flow: step.totp shows the seed, a wrong code changes nothing, the first right code enables it', async () => {
    const who = await kit.register('enrol@example.com');
    const client = new FlowClient(kit.t);
    const menu = await kit.settings(who, client);
    expect(menu.statusCode, menu.body).toBe(200);
    expect(menu.json().step.name).toBe('menu');
    const shown = await client.submit(menu.json().id, 'setup_totp');
    expect(shown.statusCode, shown.body).toBe(200);
    const { secret, otpauth_uri, qr_svg } = shown.json().step.totp;
    expect(secret).toMatch(/^[A-Z2-7]{32}$/); // 160 bits
    expect(otpauth_uri).toMatch(/^otpauth:\/\/totp\//);
    expect(new URL(otpauth_uri).searchParams.get('secret')).toBe(secret);
    expect(new URL(otpauth_uri).searchParams.get('issuer')).toBeTruthy();
    expect(decodeURIComponent(otpauth_uri)).toContain('enrol@example.com');
    expect(qr_svg).toMatch(/^<svg[\s\S]*<\/svg>\s*$/);
    // Reloading shows the same seed (it waits in the encrypted flow cookie).
    expect((await client.get(shown.json().id)).json().step.totp.secret).toBe(secret);

    const now = kit.t.clock.now();
    for (const [bad, why] of [['12345', 'error.invalid_code'], ['1234567', 'error.too_long'], ['abcdef', 'error.invalid_code'], ['12 456', 'error.invalid_code'], ['9'.repeat(5000), 'error.too_long'], [123456, 'error.invalid_type']] as const) {
      const refused = await client.submit(shown.json().id, 'enable', { totp: bad });
      expect(refused.statusCode).toBe(400);
      expect(errorBody(refused)).toMatchObject({ code: 'flow.validation_failed', details: { fields: { totp: why } } });
    }
    for (const far of [-3600_000, -90_000, 90_000, 3600_000]) {
      const refused = await client.submit(shown.json().id, 'enable', { totp: codeAt(secret, new Date(now.getTime() + far)) });
      expect(refused.statusCode).toBe(400);
      expect(errorBody(refused)).toMatchObject({ code: 'flow.invalid_credentials', details: { fields: { totp: 'error.invalid_code' } } });
    }
    expect((await kit.credentials(who.userId)).map((c) => c.method)).toEqual(['password']);

    const enabled = await client.submit(shown.json().id, 'enable', { totp: codeAt(secret, now) });
    expect(enabled.statusCode, enabled.body).toBe(200);
    expect(enabled.json().step.name).toBe('recovery_codes');
    expect((await kit.credentials(who.userId)).map((c) => c.method).sort()).toEqual(['password', 'totp']);
    // Stored sealed, never as the seed itself.
    const row = await kit.t.container.db.selectFrom('credentials').select('secret').where('user_id', '=', who.userId).where('method', '=', 'totp').executeTakeFirstOrThrow();
    expect(row.secret).toMatch(/^v1\./);
    expect(row.secret).not.toContain(secret);
  });

  it('asks users with TOTP for a code after the password; far-off and replayed codes are refused; password + TOTP is AAL2', async () => {
    const who = await kit.register('second@example.com');
    const secret = await kit.enrollTotp(who);
    const client = new FlowClient(kit.t);
    const asked = await kit.password('second@example.com', undefined, client);
    expect(asked.statusCode, asked.body).toBe(200);
    expect(asked.json().step.name).toBe('totp');
    expect(asked.json().handoff_token).toBeUndefined();
    expect(asked.json().step.actions.map((a: { name: string }) => a.name)).toEqual(['verify', 'use_recovery_code']);

    const now = kit.t.clock.now();
    for (const far of [-86_400_000, -60_000, 60_000, 86_400_000]) {
      const refused = await client.submit(asked.json().id, 'verify', { totp: codeAt(secret, new Date(now.getTime() + far)) });
      expect(refused.statusCode).toBe(400);
      expect(errorBody(refused).code).toBe('flow.invalid_credentials');
    }
    const code = codeAt(secret, now);
    const done = await client.submit(asked.json().id, 'verify', { totp: code });
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json().step.type).toBe('complete');
    const session = await kit.exchange(done);
    expect(session.factors.map((f) => f.method).sort()).toEqual(['password', 'totp']);
    expect(session.assurance_levels).toEqual(['urn:nist:aal:1', 'urn:nist:aal:2']);

    // The same code again, in a new login within its step: refused.
    const again = new FlowClient(kit.t);
    const replay = await again.submit((await kit.password('second@example.com', undefined, again)).json().id, 'verify', { totp: code });
    expect(replay.statusCode).toBe(400);
    expect(errorBody(replay)).toMatchObject({ code: 'flow.invalid_credentials', details: { fields: { totp: 'error.invalid_code' } } });

    // AAL2 decays with its window (12 h by default); AAL1 stays for 24 h.
    kit.t.clock.advance(12 * 3600_000 + 1000);
    const later = await kit.t.container.sessions.get(kit.projectId, session.sessionId);
    expect(later.assurance_levels).toEqual(['urn:nist:aal:1']);
  });

  it('two concurrent logins with the same code: exactly one wins', async () => {
    const who = await kit.register('race@example.com');
    const secret = await kit.enrollTotp(who);
    const clients = [new FlowClient(kit.t), new FlowClient(kit.t)];
    const asked = await Promise.all(clients.map((client) => kit.password('race@example.com', undefined, client)));
    for (const answer of asked) expect(answer.json().step.name).toBe('totp');
    const code = codeAt(secret, kit.t.clock.now());
    const answers = await Promise.all(clients.map((client, i) => client.submit(asked[i].json().id, 'verify', { totp: code })));
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 400]);
    expect(answers.filter((a) => a.statusCode === 200 && a.json().step.type === 'complete')).toHaveLength(1);
  });

  it('users without TOTP go straight from the password to complete', async () => {
    await kit.register('plain@example.com');
    const done = await kit.password('plain@example.com');
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json().step.type).toBe('complete');
    const session = await kit.exchange(done);
    expect(session.assurance_levels).toEqual(['urn:nist:aal:1']);
  });
});
