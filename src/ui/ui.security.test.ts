import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/helpers/app.js';
import { formAction, PageClient } from './page-test-kit.js';

let t: TestApp;
let project: { id: string; project_secret: string };
const password = 'correct horse battery staple 42';

beforeAll(async () => {
  t = await createTestApp();
  project = await t.createProject('UI security');
});
afterAll(async () => t.close());

const restartLink = (body: string) => /<a class="btn primary" href="([^"]+)">Start again<\/a>/.exec(body)?.[1]?.replace(/&amp;/g, '&');

function expectPage(response: { statusCode: number; headers: Record<string, unknown>; body: string }, status: number, text: string) {
  expect(response.statusCode, response.body.slice(0, 400)).toBe(status);
  expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
  expect(response.headers['content-security-policy']).toContain("frame-ancestors 'none'");
  expect(response.body).toContain(text);
  expect(response.body).not.toMatch(/\bat .+\.(ts|js):\d+/);
}

describe('hosted pages: bad entry input gives a friendly page with the right status', () => {
  it('missing project_id -> 400, unknown project -> 404, unknown purpose -> 404, disallowed redirect_uri -> 400', async () => {
    const client = new PageClient(t);
    expectPage(await client.get('/ui/login'), 400, 'it names no valid project');
    expectPage(await client.get('/ui/login?project_id=proj_00000000000000000000000000'), 404, 'This sign-in page does not exist.');
    expectPage(await client.get(`/ui/login?project_id=${project.id}&purpose=nothing`), 404, 'not available for this application');
    expectPage(await client.get(`/ui/login?project_id=${project.id}&redirect_uri=${encodeURIComponent('https://evil.example/')}`), 400, 'not allowed');
    expectPage(await client.get(`/ui/login?project_id=${encodeURIComponent('<script>')}`), 400, 'it names no valid project');
    expectPage(await client.get(`/ui/login?project_id=${project.id}&flow=${encodeURIComponent('"><x')}`), 400, 'could not be understood');
  });

  it('refuses a resume_uri that is not Gatehouse\'s own resume endpoint (the handoff token would leak)', async () => {
    const client = new PageClient(t);
    const url = `/ui/login?project_id=${project.id}&authorization_id=authz_x&resume_uri=${encodeURIComponent('https://evil.example/auth/authorize/resume')}`;
    expectPage(await client.get(url), 400, 'The application link is not valid.');
    const own = `/ui/login?project_id=${project.id}&authorization_id=authz_x&resume_uri=${encodeURIComponent('http://localhost:80/auth/authorize/resume')}`;
    expect((await client.get(own)).statusCode).toBe(303);
  });
});

describe('hosted pages: tampered, replayed, stale or foreign state gives a clear page offering a restart', () => {
  it('a tampered _zflow -> 400 page with a restart link that works', async () => {
    const client = new PageClient(t);
    const page = await client.open(`/ui/login?project_id=${project.id}`);
    client.cookies.set('_zflow', `${client.cookies.get('_zflow')!.slice(0, -4)}AAAA`);
    const refused = await client.post(formAction(page.body), { action: 'continue', 'f.email': 'a@example.com' });
    expectPage(refused, 400, 'Please start again.');
    const restart = restartLink(refused.body)!;
    expect(restart).toBe(`/ui/login?project_id=${project.id}`);
    expect((await client.open(restart)).statusCode).toBe(200);
  });

  it('many concurrent posts of one register form: one account, the others a 4xx page, never a 500', async () => {
    const client = new PageClient(t);
    const page = await client.open(`/ui/register?project_id=${project.id}`);
    const form = { action: 'create', 'f.email': 'race@example.com', 'f.password': password };
    const answers = await Promise.all(Array.from({ length: 8 }, () => client.post(formAction(page.body), form)));
    const statuses = answers.map((a) => a.statusCode);
    expect(statuses.filter((s) => s === 303).length, String(statuses)).toBeGreaterThanOrEqual(1);
    expect(statuses.every((s) => s === 303 || (s >= 400 && s < 500)), String(statuses)).toBe(true);
    const users = await t.app.inject({ method: 'GET', url: `/users?project_id=${project.id}&limit=100`, headers: { authorization: `Bearer ${project.project_secret}` } });
    const matching = (users.json().users as Array<{ attributes?: { email?: string } }>).filter((u) => JSON.stringify(u).includes('race@example.com'));
    expect(matching).toHaveLength(1);
  });

  it('a tampered form (an action the step does not have) -> 400 page with a restart', async () => {
    const client = new PageClient(t);
    const page = await client.open(`/ui/login?project_id=${project.id}`);
    expectPage(await client.post(formAction(page.body), { action: 'grant_admin', 'f.email': 'a@example.com' }), 400, 'Start again');
  });

  it('a stale flow (older than its 10 minutes) -> 410 page with a restart', async () => {
    const client = new PageClient(t);
    const page = await client.open(`/ui/login?project_id=${project.id}`);
    t.clock.advance(11 * 60 * 1000);
    expectPage(await client.post(formAction(page.body), { action: 'continue', 'f.email': 'a@example.com' }), 410, 'Start again');
    expectPage(await client.get(formAction(page.body)), 410, 'Start again');
  });

  it('a replayed POST after completion -> 410 page with a restart, and no second account', async () => {
    const client = new PageClient(t);
    const page = await client.open(`/ui/register?project_id=${project.id}`);
    const captured = new Map(client.cookies);
    const form = { action: 'create', 'f.email': 'replayed@example.com', 'f.password': 'correct horse battery staple 42' };
    expect((await client.post(formAction(page.body), form)).statusCode).toBe(303);
    client.cookies.clear();
    for (const [name, value] of captured) client.cookies.set(name, value);
    expectPage(await client.post(formAction(page.body), { ...form, 'f.email': 'replayed-again@example.com' }), 410, 'Start again');
    expect(await t.container.users.findByIdentifier(project.id, undefined, 'replayed-again@example.com')).toBeUndefined();
  });

  it('a flow of another project (foreign _zflow) -> 404 page', async () => {
    const other = await t.createProject('Other');
    const client = new PageClient(t);
    const page = await client.open(`/ui/login?project_id=${other.id}`);
    const foreign = formAction(page.body).replace(other.id, project.id);
    expectPage(await client.get(foreign), 404, 'Start again');
    expectPage(await client.post(foreign, { action: 'continue', 'f.email': 'a@example.com' }), 404, 'Start again');
  });

  it('a cross-site form post -> 403 page, the flow does not advance', async () => {
    const client = new PageClient(t);
    const page = await client.open(`/ui/login?project_id=${project.id}`);
    expectPage(await client.post(formAction(page.body), { action: 'continue', 'f.email': 'a@example.com' }, { origin: 'https://evil.example' }), 403, 'another site');
    expectPage(await client.post(formAction(page.body), { action: 'continue', 'f.email': 'a@example.com' }, { 'sec-fetch-site': 'cross-site' }), 403, 'another site');
    expect((await client.get(formAction(page.body))).body).toContain('data-step="identify"');
  });

  it('a body in another content type, or too large, is a page too (4xx, never 500)', async () => {
    const client = new PageClient(t);
    const page = await client.open(`/ui/login?project_id=${project.id}`);
    const json = await t.app.inject({ method: 'POST', url: formAction(page.body), headers: { 'content-type': 'application/json' }, payload: '{"action":"continue"}' });
    expect(json.statusCode).toBe(415);
    expect(json.headers['content-type']).toBe('text/html; charset=utf-8');
    const big = await t.app.inject({ method: 'POST', url: formAction(page.body), headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: `f.email=${'a'.repeat(70_000)}` });
    expect(big.statusCode).toBe(413);
  });
});

describe('hosted pages: settings, link and error', () => {
  it('settings needs __service_session; with one, a project without a settings flow gets a clear page', async () => {
    const anonymous = new PageClient(t);
    expectPage(await anonymous.get(`/ui/settings?project_id=${project.id}`), 401, 'Please sign in to change your settings.');
    // New projects get a default settings definition; one created before it existed has none.
    const older = await t.createProject();
    await t.container.db.deleteFrom('flow_definitions').where('project_id', '=', older.id).where('name', '=', 'settings').execute();
    const client = new PageClient(t);
    const page = await client.open(`/ui/register?project_id=${older.id}`);
    await client.submit(page, 'create', { email: 'settings@example.com', password });
    expect(client.cookies.get('__service_session')).toBeDefined();
    expectPage(await client.get(`/ui/settings?project_id=${older.id}`), 404, 'not available for this application yet');
  });

  it('settings with __service_session starts the default settings flow of the signed-in session', async () => {
    const client = new PageClient(t);
    const page = await client.open(`/ui/register?project_id=${project.id}`);
    await client.submit(page, 'create', { email: 'settings-default@example.com', password });
    const settings = await client.open(`/ui/settings?project_id=${project.id}`);
    expect(settings.statusCode, settings.body).toBe(200);
    // The menu of the settings flow: its credential_id field and its actions.
    expect(settings.body).toContain('data-step="menu"');
    expect(settings.body).toContain('name="f.credential_id"');
    expect(settings.body).toContain('setup_totp');
  });

  it('/ui/link tells to type the code in the original window; /ui/error is a page', async () => {
    const client = new PageClient(t);
    expectPage(await client.get(`/ui/link?project_id=${project.id}&lang=de`), 200, 'in dem Fenster ein, in dem Sie die Anmeldung begonnen haben');
    expectPage(await client.get('/ui/error'), 200, 'Something went wrong');
  });

  it('a recovery that completes without signing in shows the complete step and a way back', async () => {
    const client = new PageClient(t);
    const page = await client.open(`/ui/recovery?project_id=${project.id}`);
    expect(page.body).toContain('data-step="request"');
    const code = await client.submit(page, 'send_code', { email: 'nobody@example.com' });
    expect(code.statusCode).toBe(200);
    expect(code.body).toContain('autocomplete="one-time-code"');
    expect(code.body).toContain('inputmode="numeric"');
    const wrong = await client.submit(code, 'verify', { code: '000000' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.body).toContain('aria-describedby="f-code-error"');
  });
});
