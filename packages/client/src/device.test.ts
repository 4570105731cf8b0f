import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createListeningTestApp, type TestApp } from '../../../test/helpers/app.js';
import { registerThroughFlow, STRONG_PASSWORD } from '../../../src/flows/flow-test-kit.js';
import { approveThroughPages, deviceClient, type DeviceClient } from '../../../src/oauth/device/device-test-kit.js';
import { deviceLogin, GatehouseError, isGatehouseError, type DeviceCode } from './index.js';

/**
 * `deviceLogin()` (RFC 8628) against a listening Gatehouse: it asks for a code, shows it, polls
 * through authorization_pending and slow_down while a person approves on the hosted pages, and
 * returns the token response. Its waits are injected: they advance the server's clock, so the
 * test never sleeps.
 */
describe('deviceLogin over real HTTP', () => {
  let t: TestApp & { base: string };
  let project: { id: string; project_secret: string };
  let client: DeviceClient;
  const email = 'sdk-device@example.com';

  beforeAll(async () => {
    t = await createListeningTestApp();
    project = await t.createProject('SDK devices');
    client = await deviceClient(t, project, { name: 'SDK CLI' });
    await registerThroughFlow(t, project.id, email);
  });
  afterAll(async () => t.close());

  it('prints the code, polls through authorization_pending and slow_down, and returns the tokens once approved', async () => {
    const waits: number[] = [];
    let shown: DeviceCode | undefined;
    const tokens = await deviceLogin({
      baseUrl: t.base,
      clientId: client.client_id,
      scope: 'openid email offline_access',
      onCode: (code) => void (shown = code),
      sleep: async (ms) => {
        waits.push(ms);
        // 1st wait: the interval passes (authorization_pending). 2nd: the server's clock stands
        // still, so the poll comes too soon (slow_down, 10 s). 3rd: the person approves.
        if (waits.length !== 2) t.clock.advance(ms);
        if (waits.length === 3) expect((await approveThroughPages(t, t.base, shown!.user_code, email, STRONG_PASSWORD)).statusCode).toBe(200);
      },
    });
    expect(shown).toMatchObject({ user_code: expect.stringMatching(/^[A-Z]{4}-[A-Z]{4}$/), verification_uri: `${t.base}/ui/device`, expires_in: 600 });
    expect(shown!.verification_uri_complete).toBe(`${t.base}/ui/device?user_code=${shown!.user_code}`);
    expect(waits).toEqual([5000, 5000, 10000]);
    expect(tokens).toMatchObject({ token_type: 'Bearer', scope: 'openid email offline_access', access_token: expect.stringMatching(/^gh_at_/), refresh_token: expect.stringMatching(/^gh_rt_/) });
    const info = await fetch(`${t.base}/auth/userinfo`, { headers: { authorization: `Bearer ${tokens.access_token}` } });
    expect(await info.json()).toMatchObject({ email });
  });

  it('prints the code by default and throws oauth.access_denied when the person denies', async () => {
    const log = vi.spyOn(console, 'log').mockImplementation(() => undefined);
    try {
      const error = await deviceLogin({
        baseUrl: t.base,
        clientId: client.client_id,
        sleep: async (ms) => {
          t.clock.advance(ms);
          const printed = String(log.mock.calls[0]?.[0]);
          const code = /enter the code ([A-Z]{4}-[A-Z]{4})/.exec(printed)![1];
          await approveThroughPages(t, t.base, code, email, STRONG_PASSWORD, 'deny');
        },
      }).catch((e: unknown) => e);
      expect(isGatehouseError(error, 'oauth.access_denied')).toBe(true);
      expect(String(log.mock.calls[0][0])).toContain(`open ${t.base}/ui/device and enter the code`);
    } finally {
      log.mockRestore();
    }
  });

  it('throws oauth.expired_token when nobody answers in 10 minutes, and oauth.unauthorized_client for a client without the grant', async () => {
    const expired = await deviceLogin({ baseUrl: t.base, clientId: client.client_id, onCode: () => undefined, sleep: async () => void t.clock.advance(11 * 60 * 1000) }).catch((e: unknown) => e);
    expect(expired).toBeInstanceOf(GatehouseError);
    expect((expired as GatehouseError).code).toBe('oauth.expired_token');
    const web = await fetch(`${t.base}/projects/${project.id}/oauth_clients`, {
      method: 'POST',
      headers: { authorization: `Bearer ${project.project_secret}`, 'content-type': 'application/json' },
      body: JSON.stringify({ redirect_uris: ['https://app.example.com/cb'] }),
    });
    const { client_id, client_secret } = (await web.json()) as { client_id: string; client_secret: string };
    const refused = await deviceLogin({ baseUrl: t.base, clientId: client_id, clientSecret: client_secret, onCode: () => undefined }).catch((e: unknown) => e);
    expect(isGatehouseError(refused, 'oauth.unauthorized_client')).toBe(true);
    expect((refused as GatehouseError).status).toBe(400);
  });

  it('authenticates a confidential client with Basic', async () => {
    const confidential = await deviceClient(t, project, { confidential: true, name: 'Kiosk' });
    let code = '';
    const tokens = await deviceLogin({
      baseUrl: `${t.base}/`,
      clientId: confidential.client_id,
      clientSecret: confidential.client_secret,
      onCode: (shown) => void (code = shown.user_code),
      sleep: async (ms) => {
        t.clock.advance(ms);
        await approveThroughPages(t, t.base, code, email, STRONG_PASSWORD);
      },
    });
    expect(tokens.id_token).toBeDefined();
  });
});
