import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createListeningTestApp, createTestApp, type TestApp } from '../../test/helpers/app.js';
import { challengeOf } from './testing.js';

/**
 * DESIGN §4.6a "Unauthenticated writes are budgeted": every authorization request with a public
 * client_id and its registered redirect_uri stores an oauth_authorizations row, so one client IP
 * may make at most `ip_authorizations_per_minute` per project and minute; the budget is taken in
 * the statement that writes the row, and a refused request is redirected to the client with
 * RFC 6749 §4.1.2.1 `error=temporarily_unavailable` (plus `state` and `iss`).
 */

const REDIRECT = 'https://app.example.com/callback';
type Project = { id: string; project_secret: string };

const setRule = async (t: TestApp, project: Project, value: number) => {
  const response = await t.app.inject({ method: 'PUT', url: `/projects/${project.id}/flow_settings`, headers: bearer(project.project_secret), payload: { risk: { ip_authorizations_per_minute: value } } });
  expect(response.statusCode, response.body).toBe(200);
  expect(response.json().risk.ip_authorizations_per_minute).toBe(value);
};

const registerClient = async (t: TestApp, project: Project): Promise<string> => {
  const response = await t.app.inject({ method: 'POST', url: `/projects/${project.id}/oauth_clients`, headers: bearer(project.project_secret), payload: { redirect_uris: [REDIRECT], token_endpoint_auth_method: 'none' } });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().client_id;
};

const count = async (t: TestApp, table: 'oauth_authorizations' | 'oauth_authorize_budget', projectId: string) =>
  Number((await t.container.db.selectFrom(table).where('project_id', '=', projectId).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);

const params = async (clientId: string, extra: Record<string, string> = {}) =>
  new URLSearchParams({ response_type: 'code', client_id: clientId, redirect_uri: REDIRECT, scope: 'openid', state: 'st-1', code_challenge: await challengeOf('v'.repeat(43)), code_challenge_method: 'S256', ...extra });

describe('/auth/authorize per client IP, project and minute (real HTTP)', () => {
  let t: TestApp & { base: string };
  let a: Project;
  let b: Project;
  let clientA: string;
  let clientB: string;

  beforeAll(async () => {
    t = await createListeningTestApp();
    // 45 s before the minute's window ends.
    t.clock.set('2030-01-01T00:00:15.000Z');
    a = await t.createProject();
    b = await t.createProject();
    await setRule(t, a, 5);
    await setRule(t, b, 5);
    clientA = await registerClient(t, a);
    clientB = await registerClient(t, b);
  });
  afterAll(async () => t.close());

  const authorize = async (clientId: string, extra: Record<string, string> = {}) =>
    fetch(`${t.base}/auth/authorize?${await params(clientId, extra)}`, { redirect: 'manual' });
  const toLogin = (response: Response) => response.status === 302 && new URL(response.headers.get('location')!).searchParams.has('authorization_id');
  const refusal = (response: Response) => {
    const location = new URL(response.headers.get('location')!);
    return { at: `${location.origin}${location.pathname}`, ...Object.fromEntries(location.searchParams) };
  };

  it('stores 5 of 30 concurrent requests from one IP; the rest are redirected with temporarily_unavailable and store nothing', async () => {
    const responses = await Promise.all(Array.from({ length: 30 }, () => authorize(clientA)));
    expect(responses.filter(toLogin)).toHaveLength(5);
    const refused = responses.filter((response) => !toLogin(response));
    expect(refused).toHaveLength(25);
    for (const response of refused) {
      expect(response.status).toBe(302);
      expect(refusal(response)).toEqual({
        at: REDIRECT,
        error: 'temporarily_unavailable',
        error_description: 'Too many authorization requests from this address; try again in 45 seconds.',
        state: 'st-1',
        iss: t.container.config.publicUrl,
      });
    }
    expect(await count(t, 'oauth_authorizations', a.id)).toBe(5);
  });

  it('refuses the form POST and form_post response mode alike, writing nothing', async () => {
    const posted = await fetch(`${t.base}/auth/authorize`, { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: await params(clientA) });
    expect(posted.status).toBe(303);
    expect(refusal(posted)).toMatchObject({ error: 'temporarily_unavailable', state: 'st-1' });
    const formPost = await authorize(clientA, { response_mode: 'form_post' });
    expect(formPost.status).toBe(200);
    const html = await formPost.text();
    expect(html).toContain(`action="${REDIRECT}"`);
    expect(html).toContain('name="error" value="temporarily_unavailable"');
    expect(await count(t, 'oauth_authorizations', a.id)).toBe(5);
  });

  it('leaves other projects alone', async () => {
    const responses = await Promise.all(Array.from({ length: 5 }, () => authorize(clientB)));
    expect(responses.every(toLogin)).toBe(true);
    expect(await count(t, 'oauth_authorizations', b.id)).toBe(5);
  });

  it('takes no budget for a request refused before anything is stored', async () => {
    const unknownRedirect = await fetch(`${t.base}/auth/authorize?${await params(clientB, { redirect_uri: 'https://evil.example/cb' })}`, { redirect: 'manual' });
    expect(unknownRedirect.status).toBe(400);
    expect((await t.container.db.selectFrom('oauth_authorize_budget').select('count').where('project_id', '=', b.id).executeTakeFirstOrThrow()).count).toBe(5);
  });

  it('stores again in the next minute', async () => {
    expect(toLogin(await authorize(clientA))).toBe(false);
    t.clock.advance(44_000);
    expect(toLogin(await authorize(clientA))).toBe(false);
    t.clock.advance(1_000);
    expect(toLogin(await authorize(clientA))).toBe(true);
    expect(await count(t, 'oauth_authorizations', a.id)).toBe(6);
  });
});

describe('authorization budget: default, 0 and the sweeper', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
    t.clock.set('2030-01-01T00:00:00.000Z');
  });
  afterAll(async () => t.close());

  const authorize = async (clientId: string, ip: string) =>
    t.app.inject({ method: 'GET', url: `/auth/authorize?${await params(clientId)}`, remoteAddress: ip });
  const stored = (response: { statusCode: number; headers: Record<string, unknown> }) =>
    response.statusCode === 302 && new URL(response.headers.location as string).searchParams.has('authorization_id');

  it('allows 300 a minute without settings, then refuses', async () => {
    const project = await t.createProject();
    const settings = await t.app.inject({ method: 'GET', url: `/projects/${project.id}/flow_settings`, headers: bearer(project.project_secret) });
    expect(settings.json().risk.ip_authorizations_per_minute).toBe(300);
    const clientId = await registerClient(t, project);
    for (let batch = 0; batch < 6; batch++) {
      const responses = await Promise.all(Array.from({ length: 50 }, () => authorize(clientId, '198.51.100.30')));
      expect(responses.every(stored)).toBe(true);
    }
    const refused = await authorize(clientId, '198.51.100.30');
    expect(new URL(refused.headers.location as string).searchParams.get('error')).toBe('temporarily_unavailable');
    // Another IP has its own budget.
    expect(stored(await authorize(clientId, '198.51.100.31'))).toBe(true);
    expect(await count(t, 'oauth_authorizations', project.id)).toBe(301);
  });

  it('lifts the limit with 0 and then counts nothing', async () => {
    const project = await t.createProject();
    const clientId = await registerClient(t, project);
    await setRule(t, project, 1);
    expect(stored(await authorize(clientId, '198.51.100.32'))).toBe(true);
    expect(stored(await authorize(clientId, '198.51.100.32'))).toBe(false);
    await setRule(t, project, 0);
    for (let i = 0; i < 3; i++) expect(stored(await authorize(clientId, '198.51.100.32'))).toBe(true);
    expect(await count(t, 'oauth_authorize_budget', project.id)).toBe(1);
  });

  it('sweeps windows a few minutes after they ended', async () => {
    const project = await t.createProject();
    const clientId = await registerClient(t, project);
    expect(stored(await authorize(clientId, '198.51.100.33'))).toBe(true);
    t.clock.advance(2 * 60_000);
    await t.container.oauth.sweeper.sweep();
    expect(await count(t, 'oauth_authorize_budget', project.id)).toBe(1);
    t.clock.advance(4 * 60_000);
    expect((await t.container.oauth.sweeper.sweep()).authorize_budget).toBeGreaterThanOrEqual(1);
    expect(await count(t, 'oauth_authorize_budget', project.id)).toBe(0);
  });
});
