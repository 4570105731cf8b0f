import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer } from '../../../../test/helpers/app.js';
import { STRONG_PASSWORD } from '../../flow-test-kit.js';
import { ORIGIN, PasskeyClient, passkeyFlowKit, type PasskeyFlowKit } from '../passkey/passkey-flow-test-kit.js';

/** Every credential kind added and removed in one settings flow: passkey, TOTP's recovery codes. */
describe('settings flow: passkeys and recovery codes', () => {
  let kit: PasskeyFlowKit;
  beforeAll(async () => {
    kit = await passkeyFlowKit();
  });
  afterAll(async () => kit.t.close());

  const methods = async (userId: string) => {
    const listed = await kit.t.app.inject({ method: 'GET', url: `/users/${userId}/credentials`, headers: bearer(kit.projectSecret) });
    return listed.json().credentials as Array<{ id: string; method: string }>;
  };

  it('adds a passkey that signs in on its own, then removes it and a recovery-code set (audited)', async () => {
    const registering = new PasskeyClient(kit.t);
    const started = await registering.begin(kit.projectId, 'register');
    const registered = await registering.act(started.json().id, 'create', { email: 'keys@example.com', 'name.given': 'Kim', password: STRONG_PASSWORD });
    const issued = await kit.t.container.exchange.exchange(kit.projectId, { handoffToken: registered.json().handoff_token });
    const userId = issued.session.user_id!;

    const client = new PasskeyClient(kit.t);
    const menu = await client.start({ project_id: kit.projectId, purpose: 'settings', session_id: issued.session.session_id }, { origin: ORIGIN, ...bearer(issued.session_token) });
    expect(menu.statusCode, menu.body).toBe(200);
    const challenged = await client.act(menu.json().id, 'add_passkey');
    expect(challenged.statusCode, challenged.body).toBe(200);
    const authenticator = kit.authenticator();
    const added = await client.answer(challenged, 'add_passkey', await authenticator.create(challenged.json().step.challenge.options, { origin: ORIGIN }));
    expect(added.statusCode, added.body).toBe(200);
    expect(added.json().step.name).toBe('menu');
    expect((await methods(userId)).map((c) => c.method).sort()).toEqual(['passkey', 'password']);

    const login = new PasskeyClient(kit.t);
    const identify = await login.begin(kit.projectId, 'login');
    const signedIn = await login.answer(identify, 'passkey', await authenticator.get(identify.json().step.challenge.options, { origin: ORIGIN }));
    expect((await kit.exchange(signedIn)).user_id).toBe(userId);

    const codes = await client.act(added.json().id, 'new_recovery_codes');
    const shown = await client.act(codes.json().id, 'generate');
    expect(shown.json().step.recovery_codes).toHaveLength(10);
    const back = await client.act(shown.json().id, 'continue');
    // A passkey is no second factor of the password: it goes at once.
    const passkey = (await methods(userId)).find((c) => c.method === 'passkey')!;
    const withoutPasskey = await client.act(back.json().id, 'remove_credential', { credential_id: passkey.id });
    expect(withoutPasskey.statusCode, withoutPasskey.body).toBe(200);
    expect(withoutPasskey.json().step.name).toBe('menu');
    // The recovery codes are the last second factor: the password is confirmed in the flow first.
    const set = (await methods(userId)).find((c) => c.method === 'recovery_code')!;
    const asked = await client.act(withoutPasskey.json().id, 'remove_credential', { credential_id: set.id });
    expect(asked.json().step.name).toBe('confirm_removal');
    const removed = await client.act(asked.json().id, 'remove', { password: STRONG_PASSWORD });
    expect(removed.statusCode, removed.body).toBe(200);
    expect((await methods(userId)).map((c) => c.method)).toEqual(['password']);
    const trail = await kit.t.app.inject({ method: 'GET', url: `/users/${userId}/audit`, headers: bearer(kit.projectSecret) });
    const events = trail.json().events.map((e: { attribute: string; action: string }) => `${e.attribute} ${e.action}`);
    expect(events).toEqual(expect.arrayContaining(['passkey added', 'passkey removed', 'recovery_code added', 'recovery_code removed']));
  });

  it('a stale session re-authenticates with its own passkey (not another user\'s) before adding one', async () => {
    const authenticator = kit.authenticator();
    const owner = await kit.exchange(await kit.registerWithPasskey('stale-keys@example.com', authenticator));
    const other = kit.authenticator();
    await kit.registerWithPasskey('someone-else@example.com', other);
    const issued = await kit.t.container.exchange.exchange(kit.projectId, { handoffToken: (await (async () => {
      const login = new PasskeyClient(kit.t);
      const identify = await login.begin(kit.projectId, 'login');
      return login.answer(identify, 'passkey', await authenticator.get(identify.json().step.challenge.options, { origin: ORIGIN }));
    })()).json().handoff_token });
    expect(issued.session.user_id).toBe(owner.user_id);
    kit.t.clock.advance(16 * 60_000);

    const client = new PasskeyClient(kit.t);
    const started = await client.start({ project_id: kit.projectId, purpose: 'settings', session_id: issued.session.session_id }, { origin: ORIGIN, ...bearer(issued.session_token) });
    expect(started.json().step.name).toBe('reauthenticate');
    const stale = await client.act(started.json().id, 'use_passkey');
    expect(stale.statusCode, stale.body).toBe(200);
    // The challenge allows only the signed-in user's passkeys: another user's does not verify.
    const foreign = await client.answer(stale, 'use_passkey', await other.get({ ...stale.json().step.challenge.options, allowCredentials: [] }, { origin: ORIGIN }));
    expect(foreign.statusCode).toBe(400);
    const challenged = await client.act(started.json().id, 'use_passkey');
    const menu = await client.answer(challenged, 'use_passkey', await authenticator.get(challenged.json().step.challenge.options, { origin: ORIGIN }));
    expect(menu.statusCode, menu.body).toBe(200);
    expect(menu.json().step.name).toBe('menu');
    const adding = await client.act(menu.json().id, 'add_passkey');
    expect(adding.statusCode, adding.body).toBe(200);
    expect(adding.json().step.challenge.method).toBe('passkey_register');
  });
});
