import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, errorBody } from '../../../../test/helpers/app.js';
import type { SoftwareAuthenticator } from '../../../../test/helpers/webauthn-authenticator.js';
import { ORIGIN, PasskeyClient, passkeyFlowKit, type PasskeyFlowKit } from './passkey-flow-test-kit.js';

/**
 * A passkey sign-in's challenge is consumed in the statement that hands the flow off (or alone,
 * before anything else, when the flow goes on): src/flows/runtime/types.ts PendingUse. Synced
 * passkeys report a sign count of 0, so nothing but the consumed challenge stops a replay of
 * their assertion; these tests use such a passkey on both paths.
 */
describe('passkey sign-in replays, with a sign count that never moves', () => {
  let kit: PasskeyFlowKit;
  let synced: SoftwareAuthenticator;

  beforeAll(async () => {
    kit = await passkeyFlowKit();
    synced = kit.authenticator({ zeroCount: true, backupEligible: true, backupState: true });
    await kit.registerWithPasskey('synced@example.com', synced);
    const uri = (await kit.t.container.schemas.defaultFor(kit.projectId))!.uri;
    const definition = await kit.t.app.inject({
      method: 'POST',
      url: '/flow_definitions',
      headers: bearer(kit.projectSecret),
      payload: {
        schema_uri: uri,
        flow_definition: {
          name: 'passkey-then-terms',
          user_schema: uri,
          purposes: { login: 'sign_in' },
          audience: { app_ids: ['terms-app'] },
          steps: [
            { name: 'sign_in', fields: [], actions: [{ name: 'passkey', kind: 'passkey', primary: true }], transitions: { passkey: { target: 'terms' } } },
            { name: 'terms', fields: [], actions: [{ name: 'accept', kind: 'navigate', primary: true }], transitions: { accept: { target: 'done' } } },
            { name: 'done', complete: 'show' },
          ],
        },
      },
    });
    expect(definition.statusCode, definition.body).toBe(201);
  });
  afterAll(async () => kit.t.close());

  const handoffTokens = async () => (await kit.t.container.db.selectFrom('handoff_tokens').select('token_hash').where('project_id', '=', kit.projectId).execute()).length;

  it('a replayed cookie and assertion of a completed sign-in is refused and mints nothing', async () => {
    const client = new PasskeyClient(kit.t);
    const started = await client.begin(kit.projectId, 'login');
    const captured = client.cookie;
    const proof = await synced.get(started.json().step.challenge.options, { origin: ORIGIN });
    const signedIn = await client.answer(started, 'passkey', proof);
    expect(signedIn.statusCode, signedIn.body).toBe(200);
    expect(signedIn.json().handoff_token).toBeDefined();
    const minted = await handoffTokens();

    client.cookie = captured;
    const replay = await client.answer(started, 'passkey', proof);
    expect(replay.statusCode, replay.body).toBe(400);
    expect(errorBody(replay)).toMatchObject({ code: 'flow.invalid_credentials', details: { fields: { passkey: 'error.passkey_invalid' }, challenge: { method: 'passkey' } } });
    expect(await handoffTokens()).toBe(minted);
    // The refusal's fresh challenge leads nowhere: the flow completed with the first answer, once.
    const again = await client.answer(replay, 'passkey', await synced.get((errorBody(replay).details.challenge as { options: never }).options, { origin: ORIGIN }));
    expect(again.statusCode, again.body).toBe(410);
    expect(errorBody(again).code).toBe('flow.completed');
    expect(await handoffTokens()).toBe(minted);
  });

  it('of 20 concurrent submits of one assertion exactly one signs in, and one handoff token is minted', async () => {
    const client = new PasskeyClient(kit.t);
    const started = await client.begin(kit.projectId, 'login');
    const proof = await synced.get(started.json().step.challenge.options, { origin: ORIGIN });
    const before = await handoffTokens();
    const answers = await Promise.all(Array.from({ length: 20 }, () => client.answer(started, 'passkey', proof)));
    expect(answers.filter((a) => a.statusCode === 200)).toHaveLength(1);
    expect(answers.filter((a) => a.statusCode === 400 && errorBody(a).code === 'flow.invalid_credentials')).toHaveLength(19);
    expect(await handoffTokens()).toBe(before + 1);
  });

  it('when the flow goes on after the passkey, the challenge is consumed before the step moves: a replay is put back at the sign-in step', async () => {
    const client = new PasskeyClient(kit.t);
    const started = await client.start({ project_id: kit.projectId, purpose: 'login', app_id: 'terms-app' }, { origin: ORIGIN });
    expect(started.json().step.name).toBe('sign_in');
    const captured = client.cookie;
    const proof = await synced.get(started.json().step.challenge.options, { origin: ORIGIN });
    const onTerms = await client.answer(started, 'passkey', proof);
    expect(onTerms.statusCode, onTerms.body).toBe(200);
    expect(onTerms.json().step.name).toBe('terms');

    client.cookie = captured;
    const replay = await client.answer(started, 'passkey', proof);
    expect(replay.statusCode, replay.body).toBe(400);
    expect(errorBody(replay).code).toBe('flow.invalid_credentials');
    const shown = await client.get(started.json().id, { origin: ORIGIN });
    expect(shown.json().step.name).toBe('sign_in');
    // Navigating on from the refused state is not possible: the flow is at the sign-in step.
    expect((await client.act(started.json().id, 'accept')).statusCode).toBe(400);
  });
});
