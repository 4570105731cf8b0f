import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, errorBody, type TestApp } from '../../test/helpers/app.js';
import { HOUR, MINUTE } from '../core/clock.js';
import { AAL1, AAL2, assuranceLevels, mergeFactors, type Factor } from './levels.js';
import { DEFAULT_SESSION_SETTINGS, parseDurationSeconds } from './settings.js';
import { handoffFor, projectWithUser, sessionCookie, type Fixture } from './test-fixtures.js';

const at = (iso: string, method: string, payload: Record<string, unknown> = {}): Factor => ({ method, verified_at: iso, payload: { user_id: 'usr_x', ...payload } });

describe('assurance levels (pure)', () => {
  const now = new Date('2030-01-02T00:00:00.000Z');
  const s = DEFAULT_SESSION_SETTINGS;

  it('grants AAL2 for knowledge plus a device-proving possession factor or a user-verified passkey, never for codes alone', () => {
    const fresh = '2030-01-01T23:00:00.000Z';
    expect(assuranceLevels([], s, now)).toEqual([]);
    expect(assuranceLevels([at(fresh, 'password')], s, now)).toEqual([AAL1]);
    expect(assuranceLevels([at(fresh, 'password'), at(fresh, 'totp')], s, now)).toEqual([AAL1, AAL2]);
    expect(assuranceLevels([at(fresh, 'otp'), at(fresh, 'magic_link')], s, now)).toEqual([AAL1]);
    expect(assuranceLevels([at(fresh, 'passkey', { user_verified: true })], s, now)).toEqual([AAL1, AAL2]);
    expect(assuranceLevels([at(fresh, 'passkey')], s, now)).toEqual([AAL1]);
    expect(assuranceLevels([at(fresh, 'sso'), at(fresh, 'password')], s, now)).toEqual([AAL1]);
  });

  it('e-mail codes, magic links and SSO never give AAL2, alone, together or with a password (NIST 800-63B: an inbox proves no device)', () => {
    const fresh = '2030-01-01T23:00:00.000Z';
    const email = { channel: 'email' };
    for (const method of ['otp', 'magic_link', 'sso']) {
      expect(assuranceLevels([at(fresh, method, email)], s, now), method).toEqual([AAL1]);
      expect(assuranceLevels([at(fresh, 'password'), at(fresh, method, email)], s, now), method).toEqual([AAL1]);
    }
    expect(assuranceLevels([at(fresh, 'password'), at(fresh, 'otp', email), at(fresh, 'magic_link', email), at(fresh, 'sso')], s, now)).toEqual([AAL1]);
    // ... but they do not take AAL2 away from factors that give it.
    expect(assuranceLevels([at(fresh, 'otp', email), at(fresh, 'passkey', { user_verified: true })], s, now)).toEqual([AAL1, AAL2]);
  });

  it('lets levels lapse with their windows (12 h for AAL2, 24 h for AAL1)', () => {
    const factors = [at('2030-01-01T00:00:00.000Z', 'password'), at('2030-01-01T00:00:00.000Z', 'totp')];
    expect(assuranceLevels(factors, s, new Date('2030-01-01T11:59:59.999Z'))).toEqual([AAL1, AAL2]);
    expect(assuranceLevels(factors, s, new Date('2030-01-01T12:00:00.000Z'))).toEqual([AAL1]);
    expect(assuranceLevels(factors, s, new Date('2030-01-01T23:59:59.999Z'))).toEqual([AAL1]);
    expect(assuranceLevels(factors, s, new Date('2030-01-02T00:00:00.000Z'))).toEqual([]);
  });

  it('merges factors keeping the newest per method', () => {
    const merged = mergeFactors([at('2030-01-01T00:00:00.000Z', 'password'), at('2030-01-01T00:00:00.000Z', 'otp')], [at('2030-01-01T05:00:00.000Z', 'password')]);
    expect(merged).toEqual([at('2030-01-01T00:00:00.000Z', 'otp'), at('2030-01-01T05:00:00.000Z', 'password')]);
    expect(mergeFactors([at('2030-01-01T05:00:00.000Z', 'otp')], [at('2030-01-01T01:00:00.000Z', 'otp')])).toEqual([at('2030-01-01T05:00:00.000Z', 'otp')]);
  });

  it('parses ISO 8601 durations of weeks, days and time, nothing else', () => {
    expect(parseDurationSeconds('PT1H')).toBe(3600);
    expect(parseDurationSeconds('P1DT2H3M4S')).toBe(86400 + 7384);
    expect(parseDurationSeconds('P2W')).toBe(1_209_600);
    expect(parseDurationSeconds('pt30m')).toBe(1800);
    for (const bad of ['', 'P', 'PT', '1H', 'P1Y', 'P1M', 'PT1.5H', 'P1DT', '-PT1H', 'PT1H ']) expect(parseDurationSeconds(bad), bad).toBeUndefined();
  });
});

describe('assurance levels over HTTP, with per-project windows', () => {
  let t: TestApp;
  let f: Fixture;
  beforeAll(async () => {
    t = await createTestApp();
    f = await projectWithUser(t);
  });
  afterAll(async () => t.close());

  const exchange = async (token: string) =>
    (
      await t.app.inject({ method: 'POST', url: `/sessions/exchange?project_id=${f.project.id}`, headers: bearer(f.project.project_secret), payload: { handoff_token: token } })
    ).json();
  const me = async (token: string) => (await t.app.inject({ method: 'GET', url: '/sessions/me', headers: sessionCookie(token) })).json();

  it('drops AAL2 to AAL1 when its window passes and restores it on step-up', async () => {
    const issued = await exchange((await handoffFor(t, f.project.id, f.userId, { factors: [{ method: 'password' }, { method: 'totp' }] })).token);
    expect(issued.session.assurance_levels).toEqual([AAL1, AAL2]);
    t.clock.advance(12 * HOUR);
    const decayed = await me(issued.session_token);
    expect(decayed.state).toBe('active');
    expect(decayed.assurance_levels).toEqual([AAL1]);
    const byId = await t.app.inject({ method: 'GET', url: `/sessions/${issued.session.session_id}`, headers: bearer(f.project.project_secret) });
    expect(byId.json().assurance_levels).toEqual([AAL1]);

    const stepUp = await exchange((await handoffFor(t, f.project.id, f.userId, { sessionId: issued.session.session_id, factors: [{ method: 'totp' }] })).token);
    // The password is 12 h old: totp alone is fresh, so only AAL1 until the password is re-verified.
    expect(stepUp.session.assurance_levels).toEqual([AAL1]);
    const full = await exchange(
      (await handoffFor(t, f.project.id, f.userId, { sessionId: issued.session.session_id, factors: [{ method: 'password' }, { method: 'totp' }] })).token,
    );
    expect(full.session.assurance_levels).toEqual([AAL1, AAL2]);
    expect((await me(full.session_token)).assurance_levels).toEqual([AAL1, AAL2]);
    expect(full.session.session_id).toBe(issued.session.session_id);
  });

  it('reads and changes the windows and TTLs through the settings endpoint', async () => {
    const url = `/projects/${f.project.id}/settings`;
    const read = await t.app.inject({ method: 'GET', url, headers: bearer(f.project.project_secret) });
    expect(read.statusCode).toBe(200);
    expect(read.json()).toEqual({ sessions: { ttl_seconds: 86400, max_ttl_seconds: 2592000, aal1_window_seconds: 86400, aal2_window_seconds: 43200 }, ui: { texts: {} }, events: { retention_days: 90 } });
    const patched = await t.app.inject({ method: 'PATCH', url, headers: bearer(f.project.project_secret), payload: { sessions: { aal2_window_seconds: 600, ttl_seconds: 3600 } } });
    expect(patched.statusCode).toBe(200);
    expect(patched.json().sessions).toMatchObject({ aal2_window_seconds: 600, ttl_seconds: 3600, aal1_window_seconds: 86400 });

    const issued = await exchange((await handoffFor(t, f.project.id, f.userId, { factors: [{ method: 'password' }, { method: 'totp' }] })).token);
    expect(issued.session.expires_at).toBe(new Date(t.clock.now().getTime() + HOUR).toISOString());
    t.clock.advance(10 * MINUTE);
    expect((await me(issued.session_token)).assurance_levels).toEqual([AAL1]);

    for (const payload of [
      { sessions: { ttl_seconds: 30 } },
      { sessions: { ttl_seconds: 999_999_999 } },
      { sessions: { ttl_seconds: 7200, max_ttl_seconds: 3600 } },
      { sessions: { aal2_window_seconds: 90_000 } },
      { sessions: { unknown: 1 } },
      { other: {} },
      { sessions: { ttl_seconds: '3600' } },
    ]) {
      const response = await t.app.inject({ method: 'PATCH', url, headers: bearer(f.project.project_secret), payload });
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(errorBody(response).code).toBe('req.invalid');
    }
    expect((await t.app.inject({ method: 'GET', url, headers: bearer(f.project.project_secret) })).json().sessions.ttl_seconds).toBe(3600);
    // A ttl above the project maximum is refused on exchange.
    await t.app.inject({ method: 'PATCH', url, headers: bearer(f.project.project_secret), payload: { sessions: { max_ttl_seconds: 7200 } } });
    const handoff = await handoffFor(t, f.project.id, f.userId);
    const tooLong = await t.app.inject({
      method: 'POST',
      url: `/sessions/exchange?project_id=${f.project.id}`,
      headers: bearer(f.project.project_secret),
      payload: { handoff_token: handoff.token, ttl: 'PT3H' },
    });
    expect(tooLong.statusCode).toBe(400);
    expect(errorBody(tooLong)).toMatchObject({ code: 'sess.invalid_ttl', details: { max_ttl_seconds: 7200 } });
  });

  it('guards the settings endpoint: 401, 403 for the preview secret, 404 for another project', async () => {
    const url = `/projects/${f.project.id}/settings`;
    const other = await t.createProject();
    expect((await t.app.inject({ method: 'GET', url })).statusCode).toBe(401);
    for (const method of ['GET', 'PATCH'] as const) {
      const preview = await t.app.inject({ method, url, headers: bearer(f.project.preview_secret), payload: method === 'PATCH' ? {} : undefined });
      expect(preview.statusCode).toBe(403);
      const cross = await t.app.inject({ method, url, headers: bearer(other.project_secret), payload: method === 'PATCH' ? {} : undefined });
      expect(cross.statusCode).toBe(404);
      expect(errorBody(cross).code).toBe('proj.not_found');
    }
    expect((await t.app.inject({ method: 'GET', url: '/projects/proj_unknown00000000000/settings', headers: bearer(t.adminToken) })).statusCode).toBe(404);
  });
});
