import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, errorBody, type TestApp } from '../../test/helpers/app.js';
import { nonCanonicalTwin } from '../core/base64-test-kit.js';
import { FLOW_COOKIE, FLOW_COOKIE_BUDGET } from './cookie.js';
import { FlowClient, registerThroughFlow, solve, STRONG_PASSWORD } from './flow-test-kit.js';

describe('flow runtime: cookie, captcha, events, lock-out, CSRF', () => {
  let t: TestApp;
  let project: { id: string; project_secret: string };
  let other: { id: string; project_secret: string };
  let ipCounter = 1;
  const freshClient = () => new FlowClient(t, `192.0.2.${ipCounter++}`);

  beforeAll(async () => {
    t = await createTestApp();
    project = await t.createProject();
    other = await t.createProject();
    await registerThroughFlow(t, project.id, 'member@example.com');
  });
  afterAll(async () => t.close());

  it('refuses tampered and foreign cookies with 400 enc_key.decrypt_failed and unknown flows with 404', async () => {
    const client = freshClient();
    const started = (await client.start({ project_id: project.id, purpose: 'login' })).json();
    const good = client.cookie!;
    const parts = good.split('.');
    const flipped = parts[3].startsWith('A') ? `B${parts[3].slice(1)}` : `A${parts[3].slice(1)}`;
    // The tag's twin and a padded tag decode to the very bytes of the good one: they opened the
    // state until the decoding was strict, and are refused like garbage now.
    const twin = [...parts.slice(0, 4), nonCanonicalTwin(parts[4])].join('.');
    const padded = `${good}==`;
    for (const bad of [[parts[0], parts[1], parts[2], flipped, parts[4]].join('.'), 'garbage', 'a.b.c.d.e', `${good}x`, twin, padded]) {
      client.cookie = bad;
      for (const response of [await client.get(started.id), await client.submit(started.id, 'continue', { email: 'a@example.com' }), await client.event(started.id, 'telemetry', {})]) {
        expect(response.statusCode).toBe(400);
        expect(errorBody(response)).toMatchObject({ code: 'enc_key.decrypt_failed', message: 'failed to decrypt data' });
      }
    }
    client.cookie = good;
    expect(errorBody(await client.get('flow_notinthecookie000000000')).code).toBe('flow.not_found');
    client.cookie = undefined;
    expect(errorBody(await client.get(started.id)).code).toBe('flow.not_found');
    // A cookie sealed by another installation (another GATEHOUSE_SECRET)
    const foreign = await createTestApp({ secrets: [Buffer.from('another-installation-secret-0123456789abcdef')] });
    try {
      const foreignProject = await foreign.createProject();
      const foreignClient = new FlowClient(foreign);
      const foreignFlow = (await foreignClient.start({ project_id: foreignProject.id, purpose: 'login' })).json();
      client.cookie = foreignClient.cookie;
      expect(errorBody(await client.get(foreignFlow.id)).code).toBe('enc_key.decrypt_failed');
    } finally {
      await foreign.close();
    }
  });

  it('binds a flow to its project when the caller names one', async () => {
    const client = freshClient();
    const started = (await client.start({ project_id: project.id, purpose: 'login' })).json();
    const asOther = await t.app.inject({ method: 'GET', url: `/flow/${started.id}?project_id=${other.id}`, headers: { cookie: `${FLOW_COOKIE}=${client.cookie}` } });
    expect(asOther.statusCode).toBe(404);
    expect(errorBody(asOther).code).toBe('flow.not_found');
    const asOwn = await t.app.inject({ method: 'GET', url: `/flow/${started.id}?project_id=${project.id}`, headers: { cookie: `${FLOW_COOKIE}=${client.cookie}` } });
    expect(asOwn.statusCode).toBe(200);
  });

  it('answers 410 flow.expired after ten minutes (moved clock)', async () => {
    const client = freshClient();
    const started = (await client.start({ project_id: project.id, purpose: 'login' })).json();
    t.clock.advance(9 * 60 * 1000);
    expect((await client.get(started.id)).statusCode).toBe(200);
    t.clock.advance(60 * 1000);
    const expired = await client.get(started.id);
    expect(expired.statusCode).toBe(410);
    expect(errorBody(expired).code).toBe('flow.expired');
    expect(errorBody(await client.submit(started.id, 'continue', { email: 'member@example.com' })).code).toBe('flow.expired');
  });

  it('keeps ten concurrent flows in one cookie, each usable independently', async () => {
    const client = freshClient();
    const ids: string[] = [];
    for (let i = 0; i < 10; i++) ids.push((await client.start({ project_id: project.id, purpose: i % 2 ? 'login' : 'register' })).json().id);
    expect(new Set(ids).size).toBe(10);
    expect(FLOW_COOKIE.length + 1 + client.cookie!.length).toBeLessThan(FLOW_COOKIE_BUDGET);
    for (const id of ids) expect((await client.get(id)).statusCode).toBe(200);
    const advanced = await client.submit(ids[1], 'continue', { email: 'member@example.com' });
    expect(advanced.json().step.name).toBe('password');
    expect((await client.get(ids[3])).json().step.name).toBe('identify');
    expect((await client.get(ids[0])).json().step.name).toBe('register');
  });

  it('stays under 4,050 bytes by dropping the oldest flows first', async () => {
    const client = freshClient();
    const ids: string[] = [];
    for (let i = 0; i < 120; i++) {
      const response = await client.start({ project_id: project.id, purpose: 'login' });
      ids.push(response.json().id);
      const header = [response.headers['set-cookie']].flat().find((c) => c?.startsWith(`${FLOW_COOKIE}=`))!;
      expect(header.split(';')[0].length).toBeLessThan(FLOW_COOKIE_BUDGET);
    }
    expect((await client.get(ids[0])).statusCode).toBe(404);
    expect((await client.get(ids[119])).statusCode).toBe(200);
    const kept = [];
    for (const id of ids) kept.push((await client.get(id)).statusCode === 200);
    const firstKept = kept.indexOf(true);
    expect(firstKept).toBeGreaterThan(0);
    expect(kept.slice(firstKept).every(Boolean)).toBe(true);
  });

  it('events are stored against the session and never advance the flow', async () => {
    const client = freshClient();
    const started = (await client.start({ project_id: project.id, purpose: 'login' })).json();
    const event = await client.event(started.id, 'fingerprint', { fingerprint: 'fp-123', screen: '1920x1080' });
    expect(event.statusCode, event.body).toBe(204);
    expect((await client.event(started.id, 'telemetry', { keystrokes: 12 })).statusCode).toBe(204);
    expect(errorBody(await client.event(started.id, 'fingerprint', { nope: true })).code).toBe('req.invalid');
    expect(errorBody(await client.event(started.id, 'telemetry', { blob: 'x'.repeat(9000) })).code).toBe('req.invalid');
    expect(errorBody(await t.app.inject({ method: 'POST', url: `/flow/${started.id}/event`, payload: { type: 'dance', payload: {} }, headers: { cookie: `${FLOW_COOKIE}=${client.cookie}` } })).code).toBe('req.invalid');
    const rows = await t.container.db.selectFrom('flow_events').selectAll().where('session_id', '=', started.session_id).orderBy('created_at').execute();
    expect(rows.map((r) => [r.type, r.flow_id])).toEqual([['fingerprint', started.id], ['telemetry', started.id]]);
    expect(rows[0].payload).toEqual({ fingerprint: 'fp-123', screen: '1920x1080' });
    expect((await client.get(started.id)).json().step).toEqual(started.step);
    await t.container.sessions.delete(project.id, started.session_id);
    const left = await t.container.db.selectFrom('flow_events').select('id').where('session_id', '=', started.session_id).execute();
    expect(left).toEqual([]);
  });

  it('a step with a captcha gate carries an ALTCHA challenge; solve, replay and expiry', async () => {
    const schemaUri = (await t.container.schemas.defaultFor(project.id))!.uri;
    const created = await t.app.inject({
      method: 'POST',
      url: '/flow_definitions',
      headers: bearer(project.project_secret),
      payload: {
        schema_uri: schemaUri,
        flow_definition: {
          name: 'gated',
          purposes: { gated_login: 'identify' },
          steps: [
            { name: 'identify', fields: ['email'], gates: { captcha: {} }, actions: [{ name: 'continue', kind: 'submit', primary: true }], transitions: { continue: { target: 'done' } } },
            { name: 'done', complete: 'show' },
          ],
        },
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    const client = freshClient();
    const started = (await client.start({ project_id: project.id, purpose: 'gated_login' })).json();
    const gate = started.step.gates.captcha;
    expect(gate).toMatchObject({ kind: 'proof_of_work', provider: 'altcha', config: { algorithm: 'SHA-256', challenge: expect.any(String), salt: expect.any(String), max_number: expect.any(Number), signature: expect.any(String) } });
    const missing = await client.submit(started.id, 'continue', { email: 'member@example.com' });
    expect(errorBody(missing)).toMatchObject({ code: 'flow.validation_failed', details: { fields: { captcha: 'error.captcha_required' }, gates: { captcha: { provider: 'altcha' } } } });
    const proof = await solve(gate);
    // another client of the same project replays nothing yet; the proof works once
    const second = freshClient();
    const other = (await second.start({ project_id: project.id, purpose: 'gated_login' })).json();
    // texts the lenient decoder reads as the same proof answer as garbage does, and spend nothing
    const garbage = await client.submit(started.id, 'continue', { email: 'member@example.com' }, { captcha: 'garbage' });
    expect(garbage.statusCode).toBe(400);
    const data = proof.replace(/=+$/, '');
    const variants = [data, `${proof}A`, `${proof.slice(0, 4)}=${proof.slice(4)}`].filter((text) => text !== proof && Buffer.from(text, 'base64').equals(Buffer.from(proof, 'base64')));
    expect(variants.length).toBeGreaterThanOrEqual(1);
    for (const text of variants) {
      const refused = await client.submit(started.id, 'continue', { email: 'member@example.com' }, { captcha: text });
      expect(refused.statusCode, text).toBe(400);
      expect(errorBody(refused).details.fields).toEqual(errorBody(garbage).details.fields);
    }
    const ok = await client.submit(started.id, 'continue', { email: 'member@example.com' }, { captcha: proof });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().step.type).toBe('complete');
    const replay = await second.submit(other.id, 'continue', { email: 'member@example.com' }, { captcha: proof });
    expect(errorBody(replay).details.fields).toEqual({ captcha: 'error.captcha_replayed' });
    const late = await solve((await second.get(other.id)).json().step.gates.captcha);
    t.clock.advance(9 * 60 * 1000 + 59_000);
    await second.get(other.id); // still alive, but the challenge is from before
    t.clock.advance(2_000);
    const expiredFlow = await second.submit(other.id, 'continue', { email: 'member@example.com' }, { captcha: late });
    expect(errorBody(expiredFlow).code).toBe('flow.expired');
  });

  it('locks the account after the 5th failure: same answer while locked, unlocked by the moved clock', async () => {
    const client = freshClient();
    const started = (await client.start({ project_id: project.id, purpose: 'login' })).json();
    const atPassword = (await client.submit(started.id, 'continue', { email: 'member@example.com' })).json();
    const wrong = async () => client.submit(atPassword.id, 'sign_in', { password: 'wrong password 123' });
    const first = await wrong();
    for (let i = 0; i < 4; i++) await wrong();
    const locked = await client.submit(atPassword.id, 'sign_in', { password: STRONG_PASSWORD });
    expect(locked.statusCode).toBe(400);
    expect(locked.json()).toEqual(first.json());
    t.clock.advance(10_000);
    const unlocked = await client.submit(atPassword.id, 'sign_in', { password: STRONG_PASSWORD });
    expect(unlocked.statusCode, unlocked.body).toBe(200);
    expect(unlocked.json().handoff_token).toBeTruthy();
  });

  it('requires the captcha above the IP failure velocity and refuses with 429 above the block threshold', async () => {
    await t.app.inject({ method: 'PUT', url: `/projects/${project.id}/flow_settings`, headers: bearer(project.project_secret), payload: { risk: { ip_captcha_after: 2, ip_block_after: 4 } } });
    t.clock.set(new Date(Math.ceil(t.clock.now().getTime() / 60_000) * 60_000 + 1_000));
    const client = freshClient();
    const started = (await client.start({ project_id: project.id, purpose: 'login' })).json();
    const atPassword = (await client.submit(started.id, 'continue', { email: 'someone@example.com' })).json();
    expect(atPassword.step.gates).toBeUndefined();
    for (let i = 0; i < 3; i++) expect((await client.submit(atPassword.id, 'sign_in', { password: 'wrong password 123' })).statusCode).toBe(400);
    const gated = (await client.get(atPassword.id)).json();
    expect(gated.step.gates.captcha.provider).toBe('altcha');
    const noProof = await client.submit(atPassword.id, 'sign_in', { password: 'wrong password 123' });
    expect(errorBody(noProof).details.fields).toEqual({ captcha: 'error.captcha_required' });
    for (let i = 0; i < 2; i++) {
      const proof = await solve((await client.get(atPassword.id)).json().step.gates.captcha);
      expect(errorBody(await client.submit(atPassword.id, 'sign_in', { password: 'wrong password 123' }, { captcha: proof })).code).toBe('flow.invalid_credentials');
    }
    const blocked = await client.submit(atPassword.id, 'sign_in', { password: 'wrong password 123' });
    expect(blocked.statusCode).toBe(429);
    expect(errorBody(blocked).code).toBe('auth.rate_limited');
    expect(Number(blocked.headers['retry-after'])).toBe(59);
    await t.app.inject({ method: 'PUT', url: `/projects/${project.id}/flow_settings`, headers: bearer(project.project_secret), payload: { risk: { ip_captcha_after: 20, ip_block_after: 100 } } });
  });

  it('refuses cross-site submits with 403 auth.csrf_invalid', async () => {
    const client = freshClient();
    const started = (await client.start({ project_id: project.id, purpose: 'login' })).json();
    const crossSite = await client.submit(started.id, 'continue', { email: 'member@example.com' }, {}, { 'sec-fetch-site': 'cross-site' });
    expect(crossSite.statusCode).toBe(403);
    expect(errorBody(crossSite).code).toBe('auth.csrf_invalid');
    const evilOrigin = await client.submit(started.id, 'continue', { email: 'member@example.com' }, {}, { origin: 'https://evil.example' });
    expect(errorBody(evilOrigin).code).toBe('auth.csrf_invalid');
    const sameOrigin = await client.submit(started.id, 'continue', { email: 'member@example.com' }, {}, { 'sec-fetch-site': 'same-origin' });
    expect(sameOrigin.statusCode).toBe(200);
  });

  it('accepts submits from the project\'s preview origins only', async () => {
    const created = await t.app.inject({ method: 'POST', url: '/projects', headers: bearer(t.adminToken), payload: { name: 'Preview', preview_origins: ['https://preview.example'] } });
    const preview = created.json();
    const client = freshClient();
    const started = (await client.start({ project_id: preview.id, purpose: 'login' })).json();
    // Cross-site only from an origin the project listed (its own frontend elsewhere, issue 12 item 4).
    const fromStranger = await client.submit(started.id, 'continue', { email: 'a@example.com' }, {}, { origin: 'https://stranger.example', 'sec-fetch-site': 'cross-site' });
    expect(errorBody(fromStranger).code).toBe('auth.csrf_invalid');
    const fromPreview = await client.submit(started.id, 'continue', { email: 'a@example.com' }, {}, { origin: 'https://preview.example', 'sec-fetch-site': 'cross-site' });
    expect(fromPreview.statusCode, fromPreview.body).toBe(200);
    const again = (await client.start({ project_id: preview.id, purpose: 'login' })).json();
    const allowed = await client.submit(again.id, 'continue', { email: 'a@example.com' }, {}, { origin: 'https://preview.example' });
    expect(allowed.statusCode, allowed.body).toBe(200);
    const mainClient = freshClient();
    const other = (await mainClient.start({ project_id: project.id, purpose: 'login' })).json();
    const notTheirs = await mainClient.submit(other.id, 'continue', { email: 'a@example.com' }, {}, { origin: 'https://preview.example' });
    expect(errorBody(notTheirs).code).toBe('auth.csrf_invalid');
  });

  it('never answers 500 to wrong shapes', async () => {
    const client = freshClient();
    const started = (await client.start({ project_id: project.id, purpose: 'login' })).json();
    const bodies = [{}, { action: 5 }, { action: 'continue', fields: [] }, { action: 'continue', fields: { email: { nested: true } } }, { action: 'continue', fields: {}, extra: 1 }, { action: 'continue', captcha: 12 }];
    for (const payload of bodies) {
      const response = await t.app.inject({ method: 'POST', url: `/flow/${started.id}/submit`, payload, headers: { cookie: `${FLOW_COOKIE}=${client.cookie}` } });
      expect(response.statusCode).toBeGreaterThanOrEqual(400);
      expect(response.statusCode).toBeLessThan(500);
    }
    for (const fields of [{ email: 'a\u0000@example.com' }, { email: 'x'.repeat(5000) }, { email: '\ud800@example.com' }]) {
      const response = await client.submit(started.id, 'continue', fields);
      expect(response.statusCode).toBe(400);
    }
    const atPassword = (await client.submit(started.id, 'continue', { email: 'member@example.com' })).json();
    for (const password of ['nul\u0000byte', 'p'.repeat(5000), '\udfff']) {
      const response = await client.submit(atPassword.id, 'sign_in', { password });
      expect(response.statusCode).toBe(400);
      // A lone surrogate is refused for every body before any route sees it (req.invalid).
      expect(['flow.invalid_credentials', 'flow.validation_failed', 'req.invalid']).toContain(errorBody(response).code);
    }
    for (const payload of [{}, { project_id: project.id }, { project_id: project.id, purpose: 'login', session_id: 'sess_unknown00000000000000' }, { project_id: project.id, purpose: 'login', extra: true }]) {
      const response = await t.app.inject({ method: 'POST', url: '/flow', payload });
      expect(response.statusCode).toBeGreaterThanOrEqual(400);
      expect(response.statusCode).toBeLessThan(500);
    }
  });
});
