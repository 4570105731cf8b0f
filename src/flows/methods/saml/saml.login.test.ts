import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer } from '../../../../test/helpers/app.js';
import { STRONG_PASSWORD } from '../../flow-test-kit.js';
import { PROVIDER, samlKit, type SamlKit } from './saml-test-kit.js';

describe('SAML sign-in through a real IdP (samlify on loopback, its own keys)', () => {
  let kit: SamlKit;
  beforeAll(async () => {
    kit = await samlKit();
  });
  afterAll(async () => kit.close());

  const credentials = async (userId: string) =>
    (await kit.t.app.inject({ method: 'GET', url: `/users/${userId}/credentials`, headers: bearer(kit.project.project_secret) })).json().credentials as Array<{ id: string; method: string; name: string; last_used_at?: string }>;
  const user = async (userId: string) => (await kit.t.app.inject({ method: 'GET', url: `/users/${userId}`, headers: bearer(kit.project.project_secret) })).json();

  it('lists the provider beside SSO buttons and sends the browser to the IdP with an AuthnRequest (HTTP-Redirect)', async () => {
    const browser = kit.browser();
    const { started, authnUrl } = await kit.start(browser);
    expect(started.step.sso_providers).toEqual([{ id: PROVIDER, name: 'Corp', template: 'saml' }]);
    const url = new URL(authnUrl);
    expect(`${url.origin}${url.pathname}`).toBe(`${kit.idp.base}/sso`);
    expect(url.searchParams.get('SAMLRequest')).toEqual(expect.any(String));
    expect(browser.cookie(new URL(kit.origin).host, '_zsaml')).toMatch(/^[^.]+\.[A-Za-z0-9_-]{43}$/);
  });

  it('creates an unknown identity just in time when the operator trusts the IdP\'s e-mails; the same NameID signs in again', async () => {
    await kit.setProvider({ link: 'verified_email' });
    const person = { nameId: 'p-1001', attributes: { 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress': 'Ada@corp.example', 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/givenname': 'Ada', 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/surname': 'Lovelace' } };
    const first = await kit.journey(kit.browser(), person);
    expect(first.acs.status, kit.refusals().join(' / ')).toBe(303);
    expect(first.acs.headers.get('location')).toBe(`${kit.origin}/back?flow=${first.flowId}`);
    expect(first.after!.body.step, kit.refusals().join(" / ")).toMatchObject({ name: 'done', type: 'complete' });
    const session = await kit.exchange(first.after!.body.handoff_token!);
    expect(session.factors).toEqual([expect.objectContaining({ method: 'saml', payload: expect.objectContaining({ provider_id: PROVIDER, name_id: 'p-1001' }) })]);
    const created = await user(session.user_id);
    expect(created.attributes).toMatchObject({ email: 'Ada@corp.example', name: { given: 'Ada', family: 'Lovelace' } });
    expect(created.metadata.verified?.email).toEqual(expect.any(String));
    expect(await credentials(session.user_id)).toEqual([expect.objectContaining({ method: 'saml', name: 'Corp (Ada@corp.example)' })]);

    const again = await kit.journey(kit.browser(), person);
    expect((await kit.exchange(again.after!.body.handoff_token!)).user_id).toBe(session.user_id);
    const used = await credentials(session.user_id);
    expect(used).toHaveLength(1);
    expect(used[0].last_used_at).toEqual(expect.any(String));
  });

  it('answers a completed flow once: a second read is 410 flow.completed', async () => {
    const browser = kit.browser();
    const journey = await kit.journey(browser, { nameId: 'p-1002', attributes: { email: 'once@corp.example' } });
    expect(journey.after!.body.handoff_token).toEqual(expect.any(String));
    const again = await browser.fetch(`${kit.origin}/flow/${journey.flowId}`);
    expect(again.status).toBe(410);
    expect((await again.json()).code).toBe('flow.completed');
  });

  it('never links an existing account silently: link_saml asks for the password first', async () => {
    await kit.setProvider({ link: 'verified_email' });
    const userId = await kit.createUser('owner@corp.example');
    const browser = kit.browser();
    const journey = await kit.journey(browser, { nameId: 'p-owner', attributes: { mail: 'owner@corp.example' } });
    expect(journey.after!.body.step.name, `${journey.after!.body.step.error} ${kit.refusals().slice(-1)[0]}`).toBe('link');
    expect((await credentials(userId)).map((c) => c.method)).toEqual(['password']);
    const wrong = await browser.fetch(`${kit.origin}/flow/${journey.flowId}/submit`, { method: 'POST', json: { action: 'confirm', fields: { password: 'not the password at all' } } });
    expect(wrong.status).toBe(400);
    const linked = await browser.fetch(`${kit.origin}/flow/${journey.flowId}/submit`, { method: 'POST', json: { action: 'confirm', fields: { password: STRONG_PASSWORD } } });
    const body = await linked.json();
    expect(linked.status, JSON.stringify(body)).toBe(200);
    const session = await kit.exchange(body.handoff_token);
    expect(session.user_id).toBe(userId);
    expect(session.factors.map((f) => f.method).sort()).toEqual(['password', 'saml']);
    const next = await kit.journey(kit.browser(), { nameId: 'p-owner', attributes: { mail: 'owner@corp.example' } });
    expect((await kit.exchange(next.after!.body.handoff_token!)).user_id).toBe(userId);
  });

  it('links at once only with link: verified_email and an account that verified the address', async () => {
    await kit.setProvider({ link: 'verified_email' });
    const verified = await kit.createUser('verified@corp.example', { verified: true });
    const journey = await kit.journey(kit.browser(), { nameId: 'p-verified', attributes: { email: 'verified@corp.example' } });
    expect(journey.after!.body.step.name).toBe('done');
    expect((await kit.exchange(journey.after!.body.handoff_token!)).user_id).toBe(verified);
  });

  it('with link: none, an assertion\'s e-mail is not trusted: no link, no user holding it (error.sso_email_unverified)', async () => {
    await kit.setProvider({ link: 'none' });
    const owner = await kit.createUser('distrust@corp.example', { verified: true });
    const journey = await kit.journey(kit.browser(), { nameId: 'p-distrust', attributes: { email: 'distrust@corp.example' } });
    expect(journey.after!.body.step.name).toBe('start');
    expect(journey.after!.body.step.error).toBe('error.sso_email_unverified');
    expect((await credentials(owner)).map((c) => c.method)).toEqual(['password']);
    const unknown = await kit.journey(kit.browser(), { nameId: 'p-stranger', attributes: { email: 'stranger@corp.example' } });
    expect(unknown.after!.body.step.error).toBe('error.sso_email_unverified');
    expect(await kit.t.container.db.selectFrom('saml_links').selectAll().where('name_id', 'in', ['p-distrust', 'p-stranger']).execute()).toEqual([]);
    await kit.setProvider({ link: 'verified_email' });
  });

  it('reads encrypted assertions (encrypted to the SP certificate of its metadata)', async () => {
    kit.idp.encrypt = true;
    kit.idp.rebuild();
    try {
      const journey = await kit.journey(kit.browser(), { nameId: 'p-enc', attributes: { email: 'enc@corp.example' } });
      expect(journey.acs.status, kit.refusals().join(' / ')).toBe(303);
      expect(journey.after!.body.step.name, kit.refusals().slice(-1)[0]).toBe('done');
    } finally {
      kit.idp.encrypt = false;
      kit.idp.rebuild();
    }
  });
});
