import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer } from '../../../../test/helpers/app.js';
import { startGithubServer, type GithubServer } from '../../../../test/helpers/github-server.js';
import { PROVIDER, ssoKit, type SsoKit } from './sso-test-kit.js';

/**
 * The `github` template (OAuth 2.0 and GitHub's user API, no ID token) end to end, against a
 * loopback server laid out as a GitHub Enterprise Server (`issuer` = its base URL).
 */
describe('SSO through the github template', () => {
  let kit: SsoKit;
  let github: GithubServer;
  beforeAll(async () => {
    kit = await ssoKit();
    github = await startGithubServer();
    await useGithub();
  });
  // The kit's default body is its OpenID provider's: every field that differs is given.
  const useGithub = (extra: Record<string, unknown> = {}) =>
    kit.setProvider({ name: 'GitHub', template: 'github', issuer: github.base, client_id: github.clientId, client_secret: github.clientSecret, scopes: undefined, ...extra });
  afterAll(async () => {
    await github?.close();
    await kit?.close();
  });

  const journey = async (login: string) => {
    const browser = kit.browser();
    const flow = await (await browser.fetch(`${kit.origin}/flow`, { method: 'POST', json: { project_id: kit.project.id, purpose: 'sso_login' } })).json();
    const answer = await browser.fetch(`${kit.origin}/flow/${flow.id}/submit`, { method: 'POST', json: { action: 'sso', sso_provider_id: PROVIDER, return_to: `${kit.origin}/back` } });
    const started = await answer.json();
    expect(answer.status, JSON.stringify(started)).toBe(200);
    github.signInAs(login);
    const callback = await browser.fetch(await browser.followUntil(started.redirect_uri, `${kit.origin}/flow/sso/callback`));
    expect(callback.status).toBe(303);
    return { started, after: await kit.after(browser, callback) };
  };
  const api = (url: string) => kit.t.app.inject({ method: 'GET', url, headers: bearer(kit.project.project_secret) });

  it('sends the browser to the authorize endpoint under the base URL, without nonce, with PKCE S256 and GitHub scopes', async () => {
    github.accounts.set('octo', { id: 5001, login: 'octo', name: 'Octo Cat', emails: [{ email: 'octo@example.com', primary: true, verified: true }] });
    const { started } = await journey('octo');
    const upstream = new URL(started.redirect_uri);
    expect(`${upstream.origin}${upstream.pathname}`).toBe(`${github.base}/login/oauth/authorize`);
    expect(Object.fromEntries(upstream.searchParams)).toMatchObject({ client_id: github.clientId, scope: 'read:user user:email', code_challenge_method: 'S256', redirect_uri: `${kit.origin}/flow/sso/callback` });
    expect(upstream.searchParams.has('nonce')).toBe(false);
    const grant = github.tokenRequests.at(-1)!;
    expect(grant.get('grant_type')).toBe('authorization_code');
    expect(grant.get('code_verifier')).toMatch(/^[A-Za-z0-9_-]{43,}$/);
  });

  it('creates a user from the numeric id and the verified primary address, and signs the same account in again', async () => {
    github.accounts.set('mona', {
      id: 583231,
      login: 'mona',
      name: 'Mona Lisa Octocat',
      emails: [
        { email: 'mona-old@example.com', primary: false, verified: true },
        { email: 'Mona@Example.com', primary: true, verified: true },
      ],
    });
    const first = await journey('mona');
    expect(first.after.body.step).toMatchObject({ name: 'done', type: 'complete' });
    const session = await kit.exchange(first.after.body.handoff_token!);
    expect(session.factors).toEqual([expect.objectContaining({ method: 'sso', payload: expect.objectContaining({ provider_id: PROVIDER, subject: '583231' }) })]);
    const user = (await api(`/users/${session.user_id}`)).json();
    expect(user.attributes).toMatchObject({ email: 'Mona@Example.com', name: { given: 'Mona', family: 'Lisa Octocat' } });
    expect(user.metadata.verified?.email).toEqual(expect.any(String));
    expect((await api(`/users/${session.user_id}/credentials`)).json().credentials).toEqual([expect.objectContaining({ method: 'sso', name: 'GitHub (Mona@Example.com)' })]);

    // A renamed login keeps the account: the subject is the id, not the login.
    github.accounts.set('mona-renamed', { ...github.accounts.get('mona')!, login: 'mona-renamed' });
    const again = await journey('mona-renamed');
    expect((await kit.exchange(again.after.body.handoff_token!)).user_id).toBe(session.user_id);
  });

  it('never links a primary address GitHub has not verified to the existing user who owns it', async () => {
    const owner = await kit.createUser('owner@example.com', { verified: true });
    await useGithub({ link: 'verified_email' });
    try {
      github.accounts.set('squatter', { id: 777, login: 'squatter', emails: [{ email: 'owner@example.com', primary: true, verified: false }] });
      const { after } = await journey('squatter');
      expect(after.body.step).toMatchObject({ name: 'start', error: 'error.sso_email_unverified' });
      expect(after.body.handoff_token).toBeUndefined();
      expect((await api(`/users/${owner}/credentials`)).json().credentials.map((c: { method: string }) => c.method)).toEqual(['password']);

      // Verified, with the operator's link policy: linked to the owner at once.
      github.accounts.set('owner-gh', { id: 778, login: 'owner-gh', emails: [{ email: 'owner@example.com', primary: true, verified: true }] });
      const linked = await journey('owner-gh');
      expect((await kit.exchange(linked.after.body.handoff_token!)).user_id).toBe(owner);
    } finally {
      await useGithub({ link: 'none' });
    }
  });

  it('creates no user from a primary address GitHub has not verified', async () => {
    github.accounts.set('squat-gh', { id: 779, login: 'squat-gh', emails: [{ email: 'free@example.com', primary: true, verified: false }, { email: 'other@example.com', primary: false, verified: true }] });
    const { after } = await journey('squat-gh');
    expect(after.body.step).toMatchObject({ name: 'start', error: 'error.sso_email_unverified' });
    expect(after.body.handoff_token).toBeUndefined();
    expect(await kit.t.container.db.selectFrom('user_identifiers').select('user_id').where('value', '=', 'free@example.com').execute()).toEqual([]);
    expect(await kit.t.container.db.selectFrom('sso_links').select('user_id').where('subject', '=', '779').execute()).toEqual([]);
  });

  it('keeps the step with error.sso_failed, and logs why, when the user API fails', async () => {
    github.accounts.set('flaky', { id: 9001, login: 'flaky', emails: [{ email: 'flaky@example.com', primary: true, verified: true }] });
    github.failing.set('/user/emails', 502);
    try {
      const { after } = await journey('flaky');
      expect(after.body.step).toMatchObject({ name: 'start', error: 'error.sso_failed' });
      expect(after.body.handoff_token).toBeUndefined();
    } finally {
      github.failing.clear();
    }
    expect(kit.logs.some((line) => line.includes('sso sign-in failed') && line.includes('github user API: HTTP 502'))).toBe(true);
    expect(kit.logs.join('\n')).not.toContain('gho_');
  });

  it('takes a GitHub Enterprise Server base URL as issuer (https, or http on loopback) and github.com without one', async () => {
    const put = (body: Record<string, unknown>) =>
      kit.t.app.inject({ method: 'PUT', url: `/projects/${kit.project.id}/sso_providers/gh-check`, headers: bearer(kit.project.project_secret), payload: { name: 'GH', template: 'github', client_id: 'Iv1.x', client_secret: 's', ...body } });
    const plain = await put({ issuer: 'http://github.example.com' });
    expect(plain.statusCode).toBe(400);
    expect(plain.json().details.errors).toEqual([expect.objectContaining({ path: 'body/issuer' })]);
    const enterprise = await put({ issuer: 'https://github.example.com' });
    expect(enterprise.statusCode, enterprise.body).toBe(201);
    expect(enterprise.json().issuer).toBe('https://github.example.com');
    const dotCom = await put({});
    expect(dotCom.statusCode, dotCom.body).toBe(200);
    expect(dotCom.json().issuer ?? null).toBeNull();
  });
});
