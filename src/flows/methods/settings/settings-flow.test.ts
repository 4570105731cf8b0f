import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, errorBody } from '../../../../test/helpers/app.js';
import { FlowClient, STRONG_PASSWORD } from '../../flow-test-kit.js';
import { mfaKit, type MfaKit } from '../totp/mfa-flow-test-kit.js';

const NEW_PASSWORD = 'a different horse, battery and staple 7';

describe('settings flows', () => {
  let kit: MfaKit;
  beforeAll(async () => {
    kit = await mfaKit();
  });
  afterAll(async () => kit.t.close());

  const audit = async (userId: string) => {
    const trail = await kit.t.app.inject({ method: 'GET', url: `/users/${userId}/audit`, headers: bearer(kit.projectSecret) });
    return trail.json().events.map((e: { attribute: string; action: string }) => `${e.attribute} ${e.action}`);
  };

  it('is refused for no session, an anonymous shell, an expired session, another project\'s session and without the session token', async () => {
    const who = await kit.register('owner@example.com');
    const start = (body: Record<string, unknown>, headers: Record<string, string> = {}) => new FlowClient(kit.t).start({ project_id: kit.projectId, purpose: 'settings', ...body }, headers);

    const none = await start({});
    expect(none.statusCode).toBe(400);
    expect(errorBody(none).code).toBe('att.invalid_request');

    const shell = await start({ purpose: 'login' });
    const anonymous = await start({ session_id: shell.json().session_id }, bearer(shell.json().session_token));
    expect(anonymous.statusCode).toBe(400);
    expect(errorBody(anonymous).code).toBe('att.invalid_request');

    for (const headers of [{}, bearer('gh_st_not-a-token'), bearer(shell.json().session_token)]) {
      const unproven = await start({ session_id: who.sessionId }, headers);
      expect(unproven.statusCode).toBe(401);
      expect(errorBody(unproven).code).toBe('auth.unauthorized');
    }

    const other = await kit.t.createProject();
    const foreign = await new FlowClient(kit.t).start({ project_id: other.id, purpose: 'settings', session_id: who.sessionId }, bearer(who.token));
    expect(foreign.statusCode).toBe(404);
    expect(errorBody(foreign).code).toBe('sess.not_found');

    const stale = await kit.register('expired@example.com');
    kit.t.clock.advance(25 * 3600_000);
    const expired = await start({ session_id: stale.sessionId }, bearer(stale.token));
    expect(expired.statusCode).toBe(404);
    expect(errorBody(expired).code).toBe('sess.not_found');
    expect(await kit.credentials(stale.userId)).toHaveLength(1);
  });

  it('re-authenticates first when the last sign-in is older than 15 minutes, then changes the password (audited)', async () => {
    const who = await kit.register('reauth@example.com');
    kit.t.clock.advance(16 * 60_000);
    const client = new FlowClient(kit.t);
    const started = await kit.settings(who, client);
    expect(started.statusCode, started.body).toBe(200);
    expect(started.json().step.name).toBe('reauthenticate');
    const wrong = await client.submit(started.json().id, 'confirm', { password: 'not my password at all' });
    expect(wrong.statusCode).toBe(400);
    expect(errorBody(wrong).code).toBe('flow.invalid_credentials');
    const menu = await client.submit(started.json().id, 'confirm', { password: STRONG_PASSWORD });
    expect(menu.statusCode, menu.body).toBe(200);
    expect(menu.json().step.name).toBe('menu');
    expect(menu.json().step.actions.map((a: { name: string }) => a.name)).toEqual(['add_passkey', 'setup_totp', 'new_recovery_codes', 'change_password', 'connect_sso', 'remove_credential', 'finish']);

    const form = await client.submit(menu.json().id, 'change_password');
    const weak = await client.submit(form.json().id, 'save', { password: 'short' });
    expect(weak.statusCode).toBe(400);
    expect(errorBody(weak)).toMatchObject({ code: 'flow.validation_failed', details: { fields: { password: 'error.password_policy' } } });
    const saved = await client.submit(form.json().id, 'save', { password: NEW_PASSWORD });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().step.name).toBe('menu');
    expect(await audit(who.userId)).toContain('password changed');
    const old = await kit.password('reauth@example.com');
    expect(old.statusCode).toBe(400);
    const fresh = await kit.password('reauth@example.com', NEW_PASSWORD);
    expect(fresh.statusCode, fresh.body).toBe(200);
    expect(fresh.json().step.type).toBe('complete');

    // Finishing hands off the re-authentication: a step-up of the same session.
    const done = await client.submit(saved.json().id, 'finish');
    expect(done.json().step.type).toBe('complete');
    expect((await kit.exchange(done)).sessionId).toBe(who.sessionId);
  });

  it('a change after the 15 minutes passed inside the flow is refused and changes nothing', async () => {
    const who = await kit.register('slow@example.com');
    const client = new FlowClient(kit.t);
    const menu = await kit.settings(who, client);
    expect(menu.json().step.name).toBe('menu');
    kit.t.clock.advance(9 * 60_000);
    const back = await client.submit(menu.json().id, 'new_recovery_codes');
    kit.t.clock.advance(7 * 60_000);
    // The flow lives on (each submit extends it), but the sign-in is now 16 minutes old.
    const confirm = await client.submit(back.json().id, 'back');
    expect(confirm.json().step.name).toBe('menu');
    const again = await client.submit(confirm.json().id, 'new_recovery_codes');
    const refused = await client.submit(again.json().id, 'generate');
    expect(refused.statusCode).toBe(400);
    expect(errorBody(refused).code).toBe('flow.invalid_action');
    expect((await kit.credentials(who.userId)).map((c) => c.method)).toEqual(['password']);
  });

  it('removes credentials: never another user\'s, never the only one, the last second factor only after a fresh password', async () => {
    const who = await kit.register('remover@example.com');
    const victim = await kit.register('victim@example.com');
    await kit.enrollTotp(victim);
    const victimCredentials = await kit.credentials(victim.userId);
    await kit.enrollTotp(who);
    const mine = await kit.credentials(who.userId);
    const totp = mine.find((c) => c.method === 'totp')!;
    const password = mine.find((c) => c.method === 'password')!;

    const client = new FlowClient(kit.t);
    const menu = await kit.settings(who, client);
    for (const [credential_id, why] of [[victimCredentials[1].id, 'error.unknown_credential'], ['cred_doesnotexist', 'error.unknown_credential'], ['usr_1; drop table credentials', 'error.unknown_credential'], ['x'.repeat(100), 'error.too_long']]) {
      const refused = await client.submit(menu.json().id, 'remove_credential', { credential_id });
      expect(refused.statusCode).toBe(400);
      expect(errorBody(refused)).toMatchObject({ code: 'flow.validation_failed', details: { fields: { credential_id: why } } });
    }
    expect(await kit.credentials(victim.userId)).toEqual(victimCredentials);

    // TOTP is the last second factor: the password is asked for first (the sign-in is 30 s old).
    const asked = await client.submit(menu.json().id, 'remove_credential', { credential_id: totp.id });
    expect(asked.statusCode, asked.body).toBe(200);
    expect(asked.json().step.name).toBe('confirm_removal');
    expect((await kit.credentials(who.userId)).map((c) => c.method).sort()).toEqual(['password', 'totp']);
    const wrong = await client.submit(asked.json().id, 'remove', { password: 'wrong wrong wrong wrong' });
    expect(wrong.statusCode).toBe(400);
    expect((await kit.credentials(who.userId)).map((c) => c.method).sort()).toEqual(['password', 'totp']);
    const removed = await client.submit(asked.json().id, 'remove', { password: STRONG_PASSWORD });
    expect(removed.statusCode, removed.body).toBe(200);
    expect(removed.json().step.name).toBe('menu');
    expect((await kit.credentials(who.userId)).map((c) => c.method)).toEqual(['password']);
    expect(await audit(who.userId)).toEqual(expect.arrayContaining(['totp added', 'totp removed']));

    const only = await client.submit(removed.json().id, 'remove_credential', { credential_id: password.id });
    expect(only.statusCode).toBe(400);
    expect(errorBody(only)).toMatchObject({ details: { fields: { credential_id: 'error.last_credential' } } });

    // Without TOTP, the login is password only again.
    expect((await kit.password('remover@example.com')).json().step.type).toBe('complete');
  });

  it('a settings flow stops working once its session is gone', async () => {
    const who = await kit.register('logout@example.com');
    const client = new FlowClient(kit.t);
    const menu = await kit.settings(who, client);
    const confirm = await client.submit(menu.json().id, 'new_recovery_codes');
    const out = await kit.t.app.inject({ method: 'DELETE', url: `/sessions/${who.sessionId}`, headers: bearer(kit.projectSecret) });
    expect(out.statusCode).toBe(204);
    const refused = await client.submit(confirm.json().id, 'generate');
    expect(refused.statusCode).toBe(400);
    expect(errorBody(refused).code).toBe('flow.invalid_action');
    expect((await kit.credentials(who.userId)).map((c) => c.method)).toEqual(['password']);
  });
});
