import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer } from '../../../../test/helpers/app.js';
import { OTP_FIELD } from '../otp/index.js';
import { PROVIDER, ssoKit, ssoSchema, type SsoKit } from './sso-test-kit.js';

const PROVE_SCHEMA = 'https://example.com/schemas/sso-otp-user';

/**
 * Issue 31 item 5 (DESIGN §4.14): an address the upstream provider did not verify claims nothing.
 * It neither links to the user who owns it nor creates a user holding it (account pre-hijacking:
 * the squatter's link would outlive the owner's recovery); only a code can prove it.
 */
describe('SSO: an unverified upstream e-mail claims nothing', () => {
  let kit: SsoKit;
  const api = (method: 'GET' | 'POST', url: string, payload?: object) => kit.t.app.inject({ method, url, headers: bearer(kit.project.project_secret), ...(payload ? { payload } : {}) });

  beforeAll(async () => {
    kit = await ssoKit();
    // sso_prove: an unknown identity registers, then a mailed code proves the address.
    const schema = { ...ssoSchema(), $id: PROVE_SCHEMA, 'x-auth-methods': { password: { enabled: true }, passkey: { enabled: false }, sso: { enabled: true }, otp: { enabled: true }, magic_link: { enabled: false } } };
    expect((await api('POST', `/schemas?project_id=${kit.project.id}`, schema)).statusCode).toBe(201);
    const steps = [
      { name: 'start', actions: [{ name: 'sso', kind: 'sso', primary: true }], sso_providers: [PROVIDER], transitions: { callback: { target: 'done' }, user_not_found: { target: 'register' } } },
      { name: 'register', fields: ['email', 'name.given'], actions: [{ name: 'create', kind: 'submit', primary: true }], on_success: 'create_user', transitions: { create: { target: 'send' } } },
      { name: 'send', on_success: 'send_otp', transitions: { next: { target: 'code' } } },
      { name: 'code', fields: [OTP_FIELD], actions: [{ name: 'verify', kind: 'submit', primary: true }], transitions: { verify: { target: 'done' } } },
      { name: 'done', complete: 'redirect' },
    ];
    const created = await api('POST', '/flow_definitions', { project_id: kit.project.id, schema_uri: PROVE_SCHEMA, flow_definition: { name: 'sso_prove', user_schema: PROVE_SCHEMA, purposes: { sso_prove: 'start' }, steps } });
    expect(created.statusCode, created.body).toBe(201);
  });
  afterAll(async () => kit.close());

  const usersWith = async (email: string) => (await kit.t.container.db.selectFrom('user_identifiers').select('user_id').where('value', '=', email.toLowerCase()).execute()).map((row) => row.user_id);
  const links = async (subject: string) => (await kit.t.container.db.selectFrom('sso_links').select('user_id').where('subject', '=', subject).execute()).map((row) => row.user_id);
  const user = async (id: string) => (await api('GET', `/users/${id}`)).json();

  it('creates no user holding an address the provider did not verify (false or absent); its owner can still sign up', async () => {
    kit.upstream.accounts.set('squat-false', { email: 'squat.one@example.com', email_verified: false, given_name: 'Sam' });
    kit.upstream.accounts.set('squat-absent', { email: 'squat.two@example.com', given_name: 'Sam' });
    for (const [subject, email] of [['squat-false', 'squat.one@example.com'], ['squat-absent', 'squat.two@example.com']]) {
      const journey = await kit.journey(kit.browser(), 'sso_login', subject);
      expect(journey.after!.body.step).toMatchObject({ name: 'start', error: 'error.sso_email_unverified' });
      expect(journey.after!.body.handoff_token).toBeUndefined();
      expect(await usersWith(email)).toEqual([]);
      expect(await links(subject)).toEqual([]);
      // The address's owner registers it (before the fix: 409, the squatter held it).
      expect(await kit.createUser(email)).toEqual(expect.any(String));
      // ...and the squatter's identity still signs nobody in.
      const again = await kit.journey(kit.browser(), 'sso_login', subject);
      expect(again.after!.body.step.error).toBe('error.sso_email_unverified');
      expect(again.after!.body.handoff_token).toBeUndefined();
    }
  });

  it('never links to the user who owns the address nor offers link_account, even with link: verified_email', async () => {
    const owner = await kit.createUser('owned@example.com', { verified: true });
    await kit.setProvider({ link: 'verified_email' });
    try {
      kit.upstream.accounts.set('hijack', { email: 'owned@example.com', email_verified: false });
      // sso_login has a link_account transition: it is not followed for an unverified address.
      const journey = await kit.journey(kit.browser(), 'sso_login', 'hijack');
      expect(journey.after!.body.step).toMatchObject({ name: 'start', error: 'error.sso_email_unverified' });
      expect(journey.after!.body.handoff_token).toBeUndefined();
    } finally {
      await kit.setProvider({ link: 'none' });
    }
    expect(await links('hijack')).toEqual([]);
    expect(await usersWith('owned@example.com')).toEqual([owner]);
    expect((await api('GET', `/users/${owner}/credentials`)).json().credentials.map((c: { method: string }) => c.method)).toEqual(['password']);
  });

  it('a registration step prefilled with an unverified address links nothing and signs nobody in without a code', async () => {
    kit.upstream.accounts.set('signup-false', { email: 'prefilled@example.com', email_verified: false, given_name: 'Pat' });
    const browser = kit.browser();
    const journey = await kit.journey(browser, 'sso_signup', 'signup-false');
    expect(journey.after!.body.step.name).toBe('register');
    const created = await kit.submit(browser, journey.after!.body.id, { action: 'create', fields: { email: 'prefilled@example.com', 'name.given': 'Pat' } });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    expect(created.body.handoff_token).toBeUndefined();
    expect(await links('signup-false')).toEqual([]);
    const [id] = await usersWith('prefilled@example.com');
    expect((await user(id)).metadata.verified?.email).toBeUndefined();
    expect((await api('GET', `/users/${id}/credentials`)).json().credentials).toEqual([]);
  });

  it('a registration step whose address was changed from the verified one links nothing without a code either', async () => {
    kit.upstream.accounts.set('edit-verified', { email: 'mine@example.com', email_verified: true, given_name: 'Max' });
    const browser = kit.browser();
    const journey = await kit.journey(browser, 'sso_signup', 'edit-verified');
    const created = await kit.submit(browser, journey.after!.body.id, { action: 'create', fields: { email: 'someone.else@example.com', 'name.given': 'Max' } });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    expect(created.body.handoff_token).toBeUndefined();
    expect(await links('edit-verified')).toEqual([]);
  });

  it('a code proves the address: only then is the identity linked, and it signs in afterwards', async () => {
    kit.upstream.accounts.set('prove-false', { email: 'prove@example.com', email_verified: false, given_name: 'Pru' });
    const browser = kit.browser();
    const journey = await kit.journey(browser, 'sso_prove', 'prove-false');
    expect(journey.after!.body.step.fields).toContainEqual(expect.objectContaining({ name: 'email', value: 'prove@example.com' }));
    const atCode = await kit.submit(browser, journey.after!.body.id, { action: 'create', fields: { email: 'prove@example.com', 'name.given': 'Pru' } });
    expect(atCode.status, JSON.stringify(atCode.body)).toBe(200);
    expect(atCode.body.step.name).toBe('code');
    const [id] = await usersWith('prove@example.com');
    expect(await links('prove-false')).toEqual([]);
    expect((await user(id)).metadata.verified?.email).toBeUndefined();

    await kit.t.container.flows.courier.flush();
    const [mail] = await kit.t.container.flows.courier.outboxFor('prove@example.com');
    const code = /\b(\d{6})\b/.exec(mail?.body ?? '')?.[1];
    expect(code).toBeDefined();
    const done = await kit.submit(browser, atCode.body.id, { action: 'verify', fields: { otp: code } });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    const session = await kit.exchange(done.body.handoff_token!);
    expect(session.user_id).toBe(id);
    expect(session.factors.map((f) => f.method).sort()).toEqual(['otp', 'sso']);
    expect(await links('prove-false')).toEqual([id]);
    expect((await user(id)).metadata.verified?.email).toEqual(expect.any(String));
    const again = await kit.journey(kit.browser(), 'sso_login', 'prove-false');
    expect((await kit.exchange(again.after!.body.handoff_token!)).user_id).toBe(id);
  });

  it('a verified address still creates, links and verifies just in time', async () => {
    kit.upstream.accounts.set('fine', { email: 'fine@example.com', email_verified: true, given_name: 'Fin' });
    const journey = await kit.journey(kit.browser(), 'sso_login', 'fine');
    const session = await kit.exchange(journey.after!.body.handoff_token!);
    expect(await usersWith('fine@example.com')).toEqual([session.user_id]);
    expect(await links('fine')).toEqual([session.user_id]);
    expect((await user(session.user_id)).metadata.verified?.email).toEqual(expect.any(String));
  });
});
