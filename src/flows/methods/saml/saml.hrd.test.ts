import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STRONG_PASSWORD } from '../../flow-test-kit.js';
import { PROVIDER, SCHEMA_ID, samlKit, type SamlKit } from './saml-test-kit.js';

/** Home-realm discovery (DESIGN §4.20): an address of a provider's domain signs in at its IdP, never with a password. */
describe('SAML home-realm discovery', () => {
  let kit: SamlKit;
  beforeAll(async () => {
    kit = await samlKit();
    await kit.setProvider({ link: 'verified_email', domains: ['Corp.Example'] });
    const oneStep = {
      name: 'pw_login',
      user_schema: SCHEMA_ID,
      purposes: { pw_login: 'start' },
      steps: [
        { name: 'start', fields: ['email', 'x-auth-methods#password'], actions: [{ name: 'sign_in', kind: 'submit', primary: true }], transitions: { sign_in: { target: 'done' } } },
        { name: 'done', complete: 'redirect' },
      ],
    };
    const defined = await kit.api('POST', '/flow_definitions', { project_id: kit.project.id, schema_uri: SCHEMA_ID, flow_definition: oneStep });
    expect(defined.statusCode, defined.body).toBe(201);
  });
  afterAll(async () => kit.close());

  const begin = async (purpose = 'saml_login') => {
    const browser = kit.browser();
    const flow = await (await browser.fetch(`${kit.origin}/flow`, { method: 'POST', json: { project_id: kit.project.id, purpose } })).json();
    return { browser, flowId: flow.id as string };
  };
  const submit = async (browser: ReturnType<SamlKit['browser']>, flowId: string, body: Record<string, unknown>) => {
    const answer = await browser.fetch(`${kit.origin}/flow/${flowId}/submit`, { method: 'POST', json: body });
    return { status: answer.status, body: await answer.json() };
  };

  it('stores domains lower-cased, and a domain belongs to one provider of a project (409 saml.domain_taken)', async () => {
    const shown = await kit.api('GET', `/projects/${kit.project.id}/saml_providers/${PROVIDER}`);
    expect(shown.json().domains).toEqual(['corp.example']);
    const taken = await kit.api('PUT', `/projects/${kit.project.id}/saml_providers/other`, { name: 'Other', idp_metadata_xml: kit.idp.metadata(), domains: ['other.example', 'corp.example'] });
    expect(taken.statusCode, taken.body).toBe(409);
    expect(taken.json()).toMatchObject({ code: 'saml.domain_taken', details: { domains: ['corp.example'] } });
    // Nothing of the refused provider was written.
    expect((await kit.api('GET', `/projects/${kit.project.id}/saml_providers/other`)).statusCode).toBe(404);
    const elsewhere = await kit.t.createProject();
    const free = await kit.t.app.inject({ method: 'PUT', url: `/projects/${elsewhere.id}/saml_providers/corp`, headers: { authorization: `Bearer ${elsewhere.project_secret}` }, payload: { name: 'Corp', idp_metadata_xml: kit.idp.metadata(), domains: ['corp.example'] } });
    expect(free.statusCode, free.body).toBe(201);
  });

  it('sends an address of the domain to its IdP instead of asking for a password, and signs in', async () => {
    const { browser, flowId } = await begin();
    const answer = await submit(browser, flowId, { action: 'continue', fields: { email: 'Grace@CORP.example' }, return_to: `${kit.origin}/back` });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body.step.name).toBe('start');
    expect(answer.body.redirect_uri).toMatch(new RegExp(`^${kit.idp.base}/sso\\?SAMLRequest=`));
    const landed = await kit.land(browser, await kit.respond(answer.body.redirect_uri, { nameId: 'p-grace', attributes: { email: 'grace@corp.example' } }));
    expect(landed.acs.headers.get('location')).toBe(`${kit.origin}/back?flow=${flowId}`);
    expect(landed.after!.body.step.name, kit.refusals().slice(-1).join()).toBe('done');
    const session = await kit.exchange(landed.after!.body.handoff_token!);
    expect(session.factors.map((f) => f.method)).toEqual(['saml']);
  });

  it('goes on to the password for other domains', async () => {
    const { browser, flowId } = await begin();
    const answer = await submit(browser, flowId, { action: 'continue', fields: { email: 'someone@elsewhere.example' }, return_to: `${kit.origin}/back` });
    expect(answer.body.step.name).toBe('password');
    expect(answer.body.redirect_uri).toBeUndefined();
  });

  it('refuses a password sign-in for an address of the domain (error.sso_required), even for an account with a password', async () => {
    await kit.createUser('staff@corp.example');
    const { browser, flowId } = await begin('pw_login');
    const refused = await submit(browser, flowId, { action: 'sign_in', fields: { email: 'staff@corp.example', password: STRONG_PASSWORD } });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ code: 'flow.validation_failed', details: { fields: { password: 'error.sso_required' }, sso_provider_id: PROVIDER } });
    await kit.createUser('free@elsewhere.example');
    const fine = await submit(browser, flowId, { action: 'sign_in', fields: { email: 'free@elsewhere.example', password: STRONG_PASSWORD } });
    expect(fine.status, JSON.stringify(fine.body)).toBe(200);
  });

  it('stops sending the domain to the IdP once the provider is disabled', async () => {
    await kit.setProvider({ link: 'verified_email', domains: ['corp.example'], enabled: false });
    try {
      const { browser, flowId } = await begin();
      const answer = await submit(browser, flowId, { action: 'continue', fields: { email: 'grace@corp.example' }, return_to: `${kit.origin}/back` });
      expect(answer.body.step.name).toBe('password');
    } finally {
      await kit.setProvider({ link: 'verified_email', domains: ['corp.example'] });
    }
  });
});
