import { createServer, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer } from '../../../../test/helpers/app.js';
import { PROVIDER, ssoKit, type SsoKit } from './sso-test-kit.js';

describe('SSO under attack: every refusal changes nothing', () => {
  let kit: SsoKit;
  beforeAll(async () => {
    kit = await ssoKit();
  });
  afterAll(async () => kit.close());

  const usersWith = async (email: string) => (await kit.t.container.db.selectFrom('user_identifiers').select('user_id').where('value', '=', email.toLowerCase()).execute()).length;
  const links = async (subject: string) => (await kit.t.container.db.selectFrom('sso_links').select('user_id').where('subject', '=', subject).execute()).map((row) => row.user_id);
  const startFlow = async (browser = kit.browser()) => {
    const flow = await (await browser.fetch(`${kit.origin}/flow`, { method: 'POST', json: { project_id: kit.project.id, purpose: 'sso_login' } })).json();
    return { browser, flowId: flow.id as string };
  };

  it('refuses a tampered state: the step shows error.sso_failed and nobody signs in', async () => {
    kit.upstream.accounts.set('tamper', { email: 'tamper@example.com', email_verified: true });
    const browser = kit.browser();
    const journey = await kit.journey(browser, 'sso_login', 'tamper', { callback: false });
    const forged = new URL(journey.callbackUrl);
    forged.searchParams.set('state', 'A'.repeat(43));
    const answer = await browser.fetch(forged.toString());
    expect(answer.status).toBe(303);
    const after = await kit.after(browser, answer);
    expect(after.body.step).toMatchObject({ name: 'start', error: 'error.sso_failed' });
    expect(after.body.handoff_token).toBeUndefined();
    expect(await links('tamper')).toEqual([]);
    expect(kit.logs.some((line) => line.includes('state does not match'))).toBe(true);
    // The real callback is void too: the flow no longer waits for it.
    expect((await browser.fetch(journey.callbackUrl)).status).toBe(400);
  });

  it('refuses a replayed callback, even with the cookies captured just before it', async () => {
    kit.upstream.accounts.set('replay', { email: 'replay@example.com', email_verified: true });
    const host = new URL(kit.origin).host;
    const attacker = kit.browser();
    const journey = await kit.journey(attacker, 'sso_login', 'replay', { callback: false });
    const before = { zflow: attacker.cookie(host, '_zflow'), zsso: attacker.cookie(host, '_zsso') };
    const once = await attacker.fetch(journey.callbackUrl);
    expect(attacker.cookie(host, '_zsso')).toBeUndefined();
    const first = await kit.after(attacker, once);
    expect(first.body.handoff_token).toEqual(expect.any(String));
    attacker.setCookie(host, '_zflow', before.zflow);
    attacker.setCookie(host, '_zsso', before.zsso);
    const replayed = await attacker.fetch(journey.callbackUrl);
    expect(replayed.status).toBe(303);
    const after = await kit.after(attacker, replayed);
    expect(after.body.step.error).toBe('error.sso_failed');
    expect(after.body.handoff_token).toBeUndefined();
    expect(kit.logs.some((line) => line.includes('state replayed'))).toBe(true);
  });

  it('refuses a callback in a browser that did not start the sign-in (login CSRF), with 400 flow.sso_failed', async () => {
    kit.upstream.accounts.set('csrf', { email: 'csrf@example.com', email_verified: true });
    const attacker = kit.browser();
    const flow = await (await attacker.fetch(`${kit.origin}/flow`, { method: 'POST', json: { project_id: kit.project.id, purpose: 'sso_login' } })).json();
    const started = await (await attacker.fetch(`${kit.origin}/flow/${flow.id}/submit`, { method: 'POST', json: { action: 'sso', sso_provider_id: PROVIDER, return_to: `${kit.origin}/back` } })).json();
    kit.upstream.signInAs('csrf');
    const callbackUrl = await attacker.followUntil(started.redirect_uri, `${kit.origin}/flow/sso/callback`);
    // The victim's browser has a flow of its own, waiting for another sign-in.
    const { browser: victim, flowId } = await startFlow();
    await victim.fetch(`${kit.origin}/flow/${flowId}/submit`, { method: 'POST', json: { action: 'sso', sso_provider_id: PROVIDER, return_to: `${kit.origin}/back` } });
    const host = new URL(kit.origin).host;
    for (const cookies of [{}, { _zsso: attacker.cookie(host, '_zsso') }]) {
      const browser = kit.browser();
      browser.setCookie(host, '_zflow', victim.cookie(host, '_zflow'));
      for (const [name, value] of Object.entries(cookies)) browser.setCookie(host, name, value);
      const answer = await browser.fetch(callbackUrl);
      expect(answer.status).toBe(400);
      expect((await answer.json()).code).toBe('flow.sso_failed');
    }
    expect(await links('csrf')).toEqual([]);
  });

  it('refuses a return_to off the allowed origins or with credentials, and a provider the step does not offer or another project holds', async () => {
    const other = await kit.t.createProject();
    const put = await kit.t.app.inject({ method: 'PUT', url: `/projects/${other.id}/sso_providers/beta`, headers: bearer(other.project_secret), payload: { name: 'Beta', template: 'oidc', issuer: kit.upstream.issuer, client_id: 'gatehouse' } });
    expect(put.statusCode).toBe(201);
    const port = new URL(kit.origin).port;
    const cases: Array<[Record<string, unknown>, Record<string, string>]> = [
      [{ return_to: 'https://evil.example/back' }, { return_to: 'error.invalid' }],
      [{ return_to: `http://user:pw@127.0.0.1:${port}/back` }, { return_to: 'error.invalid' }],
      [{ return_to: 'javascript:alert(1)' }, { return_to: 'error.invalid' }],
      [{ return_to: undefined }, { return_to: 'error.required' }],
      [{ sso_provider_id: 'beta' }, { sso_provider_id: 'error.invalid' }],
      [{ sso_provider_id: undefined }, { sso_provider_id: 'error.required' }],
    ];
    for (const [change, fields] of cases) {
      const { browser, flowId } = await startFlow();
      const body = { action: 'sso', sso_provider_id: PROVIDER, return_to: `${kit.origin}/back`, ...change };
      const refused = await kit.submit(browser, flowId, JSON.parse(JSON.stringify(body)));
      expect(refused.status, JSON.stringify(change)).toBe(400);
      expect(refused.body.code).toBe('flow.validation_failed');
      expect(refused.body.details!.fields).toEqual(fields);
      expect(browser.cookie(new URL(kit.origin).host, '_zsso')).toBeUndefined();
    }
  });

  it('never links nor signs in through an upstream e-mail the provider did not verify that matches an existing user', async () => {
    const owner = await kit.createUser('victim@example.com', { verified: true });
    await kit.setProvider({ link: 'verified_email' });
    try {
      kit.upstream.accounts.set('mallory', { email: 'victim@example.com', email_verified: false });
      const journey = await kit.journey(kit.browser(), 'sso_login', 'mallory');
      expect(journey.after!.body.step).toMatchObject({ name: 'start', error: 'error.sso_email_unverified' });
      expect(journey.after!.body.handoff_token).toBeUndefined();
      kit.upstream.accounts.set('mallory2', { email: 'victim@example.com' });
      expect((await kit.journey(kit.browser(), 'sso_login', 'mallory2')).after!.body.step.error).toBe('error.sso_email_unverified');
    } finally {
      await kit.setProvider({ link: 'none' });
    }
    expect(await links('mallory')).toEqual([]);
    expect(await usersWith('victim@example.com')).toBe(1);
    const owned = await kit.t.app.inject({ method: 'GET', url: `/users/${owner}/credentials`, headers: bearer(kit.project.project_secret) });
    expect(owned.json().credentials.map((c: { method: string }) => c.method)).toEqual(['password']);
  });

  it('makes one user and one link when two sign-ins of a new identity race', async () => {
    kit.upstream.accounts.set('racer', { email: 'racer@example.com', email_verified: true, given_name: 'Ray' });
    const host = new URL(kit.origin).host;
    const prepared = await Promise.all(
      Array.from({ length: 4 }, async () => {
        const browser = kit.browser();
        const flow = await (await browser.fetch(`${kit.origin}/flow`, { method: 'POST', json: { project_id: kit.project.id, purpose: 'sso_login' } })).json();
        const started = await (await browser.fetch(`${kit.origin}/flow/${flow.id}/submit`, { method: 'POST', json: { action: 'sso', sso_provider_id: PROVIDER, return_to: `${kit.origin}/back` } })).json();
        return { browser, started };
      }),
    );
    const urls: string[] = [];
    kit.upstream.signInAs('racer');
    for (const { browser, started } of prepared) urls.push(await browser.followUntil(started.redirect_uri, `${kit.origin}/flow/sso/callback`));
    expect(prepared.every(({ browser }) => browser.cookie(host, '_zsso') !== undefined)).toBe(true);
    const answers = await Promise.all(prepared.map(({ browser }, i) => browser.fetch(urls[i])));
    const users = new Set<string>();
    for (const [i, answer] of answers.entries()) {
      expect(answer.status).toBe(303);
      const after = await kit.after(prepared[i].browser, answer);
      expect(after.body.step.name).toBe('done');
      users.add((await kit.exchange(after.body.handoff_token!)).user_id);
    }
    expect(users.size).toBe(1);
    expect(await links('racer')).toEqual([...users]);
    expect(await usersWith('racer@example.com')).toBe(1);
  });

  it('keeps the step with error.sso_failed when the user cancels upstream, and logs the upstream error without any token', async () => {
    const browser = kit.browser();
    const journey = await kit.journey(browser, 'sso_login', undefined);
    expect(journey.after!.body.step).toMatchObject({ name: 'start', error: 'error.sso_failed' });
    const line = kit.logs.find((l) => l.includes('upstream error: access_denied'));
    expect(line).toBeDefined();
    const state = new URL(journey.callbackUrl).searchParams.get('state')!;
    expect(kit.logs.some((l) => l.includes(state))).toBe(false);
    // The next submit answers the error: it is gone from the step.
    const again = await kit.submit(browser, journey.after!.body.id, { action: 'sso', sso_provider_id: PROVIDER, return_to: `${kit.origin}/back` });
    expect(again.status).toBe(200);
    expect(again.body.step.error).toBeUndefined();
  });

  it('answers quickly when the upstream is down or never answers (every upstream call has a timeout)', async () => {
    const silent: Socket[] = [];
    const blackHole: Server = createServer((socket) => void silent.push(socket));
    await new Promise<void>((resolve) => blackHole.listen(0, '127.0.0.1', resolve));
    const refusing = createServer();
    await new Promise<void>((resolve) => refusing.listen(0, '127.0.0.1', resolve));
    const closedPort = (refusing.address() as { port: number }).port;
    await new Promise<void>((resolve) => refusing.close(() => resolve()));
    try {
      for (const issuer of [`http://127.0.0.1:${closedPort}`, `http://127.0.0.1:${(blackHole.address() as { port: number }).port}`]) {
        await kit.setProvider({ issuer });
        const { browser, flowId } = await startFlow();
        const refused = await kit.submit(browser, flowId, { action: 'sso', sso_provider_id: PROVIDER, return_to: `${kit.origin}/back` });
        expect(refused.status).toBe(400);
        expect(refused.body.details!.fields).toEqual({ sso_provider_id: 'error.sso_failed' });
      }
      expect(kit.logs.some((line) => line.includes('sso provider unreachable') && line.includes('discovery'))).toBe(true);
    } finally {
      for (const socket of silent) socket.destroy();
      blackHole.close();
      await kit.setProvider();
    }
  }, 30_000);

  it('refuses a provider whose discovery names another issuer than the one configured', async () => {
    // The same upstream under another host name: its discovery document names 127.0.0.1, not localhost.
    await kit.setProvider({ issuer: kit.upstream.issuer.replace('127.0.0.1', 'localhost') });
    try {
      const { browser, flowId } = await startFlow();
      const refused = await kit.submit(browser, flowId, { action: 'sso', sso_provider_id: PROVIDER, return_to: `${kit.origin}/back` });
      expect(refused.status).toBe(400);
      expect(refused.body.details!.fields).toEqual({ sso_provider_id: 'error.sso_failed' });
      expect(kit.logs.some((line) => line.includes('sso provider unreachable') && /issuer/i.test(line))).toBe(true);
    } finally {
      await kit.setProvider();
    }
  });

  it('turns a form_post return (Apple) into the GET callback, and refuses repeated or unknown parameters', async () => {
    const post = (body: string) => kit.t.app.inject({ method: 'POST', url: '/flow/sso/callback', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: body });
    const ok = await post('code=abc&state=xyz&user=%7B%22name%22%3A1%7D');
    expect(ok.statusCode).toBe(303);
    const location = new URL(ok.headers.location as string, kit.origin);
    expect(location.pathname).toBe('/flow/sso/callback');
    expect(Object.fromEntries(location.searchParams)).toEqual({ code: 'abc', state: 'xyz', user: '{"name":1}' });
    for (const body of ['code=a&code=b&state=s', 'code=a&state=s&evil=1']) {
      const refused = await post(body);
      expect(refused.statusCode, body).toBe(400);
      expect(refused.json().code).toBe('req.invalid');
    }
    // The GET callback refuses unknown parameters too, and answers 400 without a binding cookie.
    expect((await kit.t.app.inject({ method: 'GET', url: '/flow/sso/callback?code=a&state=s&evil=1' })).statusCode).toBe(400);
    const unbound = await kit.t.app.inject({ method: 'GET', url: '/flow/sso/callback?code=a&state=s' });
    expect(unbound.statusCode).toBe(400);
    expect(unbound.json().code).toBe('flow.sso_failed');
  });

  it('lets a disabled provider start nothing and hides it from the step', async () => {
    await kit.setProvider({ enabled: false });
    try {
      const { browser, flowId } = await startFlow();
      const shown = await (await browser.fetch(`${kit.origin}/flow/${flowId}`)).json();
      expect(shown.step.sso_providers).toEqual([]);
      const refused = await kit.submit(browser, flowId, { action: 'sso', sso_provider_id: PROVIDER, return_to: `${kit.origin}/back` });
      expect(refused.body.details!.fields).toEqual({ sso_provider_id: 'error.invalid' });
    } finally {
      await kit.setProvider();
    }
  });
});
