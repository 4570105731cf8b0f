import { afterAll, describe, expect, it } from 'vitest';
import { PROVIDER, ssoKit, type SsoKit } from './sso-test-kit.js';

/**
 * Upstream SSO calls are outbound calls to a URL a tenant names: with a production public URL, an
 * issuer on a loopback (or any private) address is refused before discovery connects, unless the
 * operator opts in (GATEHOUSE_OUTBOUND_ALLOW_PRIVATE=1). The development case, a loopback public URL,
 * is what every other SSO test runs on. Such an issuer is refused at registration already
 * (src/sso/providers.test.ts); the refusal here is of one stored past that check.
 */
describe('SSO: the upstream issuer is reached under the outbound policy', () => {
  const kits: SsoKit[] = [];
  afterAll(async () => {
    for (const kit of kits) await kit.close();
  });
  const submitSso = async (kit: SsoKit) => {
    const browser = kit.browser();
    const flow = await (await browser.fetch(`${kit.origin}/flow`, { method: 'POST', json: { project_id: kit.project.id, purpose: 'sso_login' } })).json();
    return kit.submit(browser, flow.id, { action: 'sso', sso_provider_id: PROVIDER, return_to: 'https://id.example.com/back' });
  };

  it('refuses a loopback issuer in production: the step shows error.sso_failed and the log names the refused address', async () => {
    const kit = await ssoKit({ publicUrl: 'https://id.example.com' }, { storedProvider: true });
    kits.push(kit);
    expect((await kit.t.app.inject({ method: 'GET', url: `/projects/${kit.project.id}/sso_providers/${PROVIDER}`, headers: { authorization: `Bearer ${kit.project.project_secret}` } })).json().issuer).toBe(kit.upstream.issuer);
    const refused = await submitSso(kit);
    expect(refused.status).toBe(400);
    expect(refused.body.details!.fields).toEqual({ sso_provider_id: 'error.sso_failed' });
    expect(kit.logs.some((line) => line.includes('sso provider unreachable') && line.includes('private_address'))).toBe(true);
  });

  it('reaches it when the operator opts in', async () => {
    const kit = await ssoKit({ publicUrl: 'https://id.example.com', outboundAllowPrivate: true });
    kits.push(kit);
    const started = await submitSso(kit);
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    expect(new URL(started.body.redirect_uri!).origin).toBe(kit.upstream.issuer);
  });
});
