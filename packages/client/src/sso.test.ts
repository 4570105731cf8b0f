import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROVIDER, ssoKit, type SsoKit } from '../../../src/flows/methods/sso/sso-test-kit.js';
import { cookieJarFetch, createGatehouseClient, FlowClient } from './index.js';

describe('FlowClient.sso: an upstream sign-in through the typed client', () => {
  let kit: SsoKit;
  beforeAll(async () => {
    kit = await ssoKit();
  });
  afterAll(async () => kit.close());

  it('returns the provider URL, and refresh() shows where the flow went after the provider sent the browser back', async () => {
    kit.upstream.accounts.set('sdk-1', { email: 'sdk.sso@example.com', email_verified: true });
    const jarFetch = cookieJarFetch();
    const flow = new FlowClient(createGatehouseClient({ baseUrl: kit.origin, fetch: jarFetch }));
    await flow.start({ project_id: kit.project.id, purpose: 'sso_login' });
    const url = await flow.sso('sso', PROVIDER, `${kit.origin}/back`);
    expect(new URL(url).origin).toBe(kit.upstream.issuer);
    // The provider's own pages run in the browser; its redirect lands on Gatehouse's callback.
    kit.upstream.signInAs('sdk-1');
    const callbackUrl = await kit.browser().followUntil(url, `${kit.origin}/flow/sso/callback`);
    const back = await jarFetch(new Request(callbackUrl, { redirect: 'manual' }));
    expect(back.status).toBe(303);
    const flowId = new URL(back.headers.get('location')!).searchParams.get('flow')!;
    const done = await flow.refresh(flowId);
    expect(done.step.type).toBe('complete');
    expect(done.handoff_token).toEqual(expect.any(String));
  });
});
