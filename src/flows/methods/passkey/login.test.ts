import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorBody } from '../../../../test/helpers/app.js';
import type { SoftwareAuthenticator } from '../../../../test/helpers/webauthn-authenticator.js';
import { FLOW_COOKIE } from '../../cookie.js';
import { ORIGIN, PasskeyClient, passkeyFlowKit, type PasskeyFlowKit } from './passkey-flow-test-kit.js';

describe('passkey sign-in through a flow (DESIGN §4.10)', () => {
  let kit: PasskeyFlowKit;
  let authenticator: SoftwareAuthenticator;
  let credentialId: string;

  beforeAll(async () => {
    kit = await passkeyFlowKit();
    authenticator = kit.authenticator();
    const done = await kit.registerWithPasskey('pat@example.com', authenticator);
    credentialId = (await kit.exchange(done)).factors[0].payload.credential_id as string;
  });
  afterAll(async () => kit.t.close());

  it('usernameless: a rendered login step offers autofill, and the answer signs the user in at AAL2', async () => {
    const client = new PasskeyClient(kit.t);
    const started = await client.begin(kit.projectId, 'login');
    expect(started.statusCode, started.body).toBe(200);
    const { challenge } = started.json().step;
    expect(challenge).toMatchObject({ method: 'passkey', mediation: 'conditional' });
    expect(challenge.options.allowCredentials ?? []).toEqual([]);
    expect(challenge.options.rpId).toBe('localhost');
    const proof = await authenticator.get(challenge.options, { origin: ORIGIN });
    const done = await client.answer(started, 'passkey', proof);
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json().step.type).toBe('complete');
    const session = await kit.exchange(done);
    expect(session.factors).toEqual([expect.objectContaining({ method: 'passkey', payload: expect.objectContaining({ credential_id: credentialId, user_verified: true }) })]);
    expect(session.assurance_levels).toContain('urn:nist:aal:2');
  });

  it('no challenge is rendered for a request without an allowed Origin', async () => {
    const client = new PasskeyClient(kit.t);
    const plain = await client.start({ project_id: kit.projectId, purpose: 'login' });
    expect(plain.json().step.challenge).toBeUndefined();
    const foreign = await client.start({ project_id: kit.projectId, purpose: 'login' }, { origin: 'https://evil.example' });
    expect(foreign.json().step.challenge).toBeUndefined();
    const refused = await client.act(foreign.json().id, 'passkey', {}, {}, 'https://evil.example');
    expect(refused.statusCode).toBe(403);
    expect(errorBody(refused).code).toBe('auth.csrf_invalid');
  });

  it('after an identifier: allowCredentials holds the user\'s passkeys', async () => {
    const client = new PasskeyClient(kit.t);
    const started = await client.begin(kit.projectId, 'login');
    const challenged = await client.act(started.json().id, 'passkey', { email: 'PAT@example.com' });
    expect(challenged.statusCode, challenged.body).toBe(200);
    const { challenge } = challenged.json().step;
    expect(challenge.mediation).toBeUndefined();
    expect(challenge.options.allowCredentials.map((c: { id: string }) => c.id)).toEqual([credentialId]);
    const done = await client.answer(challenged, 'passkey', await authenticator.get(challenge.options, { origin: ORIGIN }));
    expect(done.statusCode, done.body).toBe(200);
  });

  it('an unknown identifier gets stable fake credential ids of the same shape, and no answer passes', async () => {
    const fakes = [];
    for (let i = 0; i < 2; i++) {
      const client = new PasskeyClient(kit.t);
      const started = await client.begin(kit.projectId, 'login');
      const challenged = await client.act(started.json().id, 'passkey', { email: 'nobody@example.com' });
      expect(challenged.statusCode, challenged.body).toBe(200);
      fakes.push(challenged.json().step.challenge.options.allowCredentials);
      if (i === 1) {
        // The real user's credential does not sign in as "nobody".
        const proof = await authenticator.get({ ...challenged.json().step.challenge.options, allowCredentials: [] }, { origin: ORIGIN, credentialId });
        const refused = await client.answer(challenged, 'passkey', proof);
        expect(refused.statusCode).toBe(400);
        expect(errorBody(refused).details.fields).toEqual({ passkey: 'error.passkey_invalid' });
      }
    }
    expect(fakes[0]).toEqual(fakes[1]);
    expect(fakes[0]).toHaveLength(1);
    // Shaped like real credential ids (authenticators use 16 to 64 bytes).
    expect(Buffer.from(fakes[0][0].id, 'base64url').length).toBeGreaterThanOrEqual(16);
    expect(Buffer.from(fakes[0][0].id, 'base64url').length).toBeLessThanOrEqual(64);
    expect(Object.keys(fakes[0][0]).sort()).toEqual(['id', 'transports', 'type']);
  });

  it('a replayed cookie and assertion fail once the challenge is consumed', async () => {
    const client = new PasskeyClient(kit.t);
    const started = await client.begin(kit.projectId, 'login');
    const captured = client.cookie;
    const proof = await authenticator.get(started.json().step.challenge.options, { origin: ORIGIN });
    expect((await client.answer(started, 'passkey', proof)).statusCode).toBe(200);
    client.cookie = captured;
    const replay = await client.answer(started, 'passkey', proof);
    expect(replay.statusCode).toBe(400);
    expect(errorBody(replay).code).toBe('flow.invalid_credentials');
    // The refusal carries a fresh challenge in a new cookie.
    expect(replay.cookies.find((c) => c.name === FLOW_COOKIE)?.value).toBeTruthy();
    expect(errorBody(replay).details.challenge).toMatchObject({ method: 'passkey' });
  });

  it('a challenge of another flow is refused', async () => {
    const a = new PasskeyClient(kit.t);
    const first = await a.begin(kit.projectId, 'login');
    const second = await a.begin(kit.projectId, 'login');
    const proofForFirst = await authenticator.get(first.json().step.challenge.options, { origin: ORIGIN });
    const crossed = await a.act(second.json().id, 'passkey', {}, { challenge_response: { challenge_id: first.json().step.challenge.challenge_id, method: 'passkey', proof: proofForFirst } });
    expect(crossed.statusCode).toBe(400);
    expect(errorBody(crossed).details.fields).toEqual({ passkey: 'error.passkey_invalid' });
  });

  it('a sign count that goes backwards is refused as a cloned authenticator', async () => {
    const client = new PasskeyClient(kit.t);
    authenticator.setSignCount(credentialId, 1000);
    const started = await client.begin(kit.projectId, 'login');
    expect((await client.answer(started, 'passkey', await authenticator.get(started.json().step.challenge.options, { origin: ORIGIN }))).statusCode).toBe(200);
    authenticator.setSignCount(credentialId, 5);
    const again = await client.begin(kit.projectId, 'login');
    const refused = await client.answer(again, 'passkey', await authenticator.get(again.json().step.challenge.options, { origin: ORIGIN }));
    expect(refused.statusCode).toBe(400);
    expect(errorBody(refused).details.fields).toEqual({ passkey: 'error.passkey_invalid' });
    authenticator.setSignCount(credentialId, 2000);
  });

  it('hostile answers get 4xx with the documented body and write nothing', async () => {
    const client = new PasskeyClient(kit.t);
    const started = await client.begin(kit.projectId, 'login');
    const id = started.json().id;
    const challengeId = started.json().step.challenge.challenge_id;
    const good = await authenticator.get(started.json().step.challenge.options, { origin: ORIGIN });
    const proofs: unknown[] = [
      {},
      { id: '!!!', rawId: '!!!', type: 'public-key', response: {} },
      { ...good, response: { ...good.response, clientDataJSON: 'x'.repeat(200_000) } },
      { ...good, response: { ...good.response, signature: Buffer.alloc(70).toString('base64url') } },
      { ...good, id: Buffer.alloc(16, 1).toString('base64url'), rawId: Buffer.alloc(16, 1).toString('base64url') },
      await authenticator.get(started.json().step.challenge.options, { origin: ORIGIN, type: 'webauthn.create' }),
      await authenticator.get(started.json().step.challenge.options, { origin: ORIGIN, userPresent: false }),
    ];
    let cid = challengeId;
    for (const proof of proofs) {
      const response = await client.act(id, 'passkey', {}, { challenge_response: { challenge_id: cid, method: 'passkey', proof } });
      expect(response.statusCode, response.body).toBe(400);
      expect(errorBody(response).code).toBe('flow.invalid_credentials');
      cid = (errorBody(response).details.challenge as { challenge_id: string }).challenge_id;
    }
    for (const bad of [{ challenge_id: cid }, { challenge_id: cid, method: 'passkey', proof: 'text' }, { challenge_id: 7, method: 'passkey', proof: {} }]) {
      const response = await client.act(id, 'passkey', {}, { challenge_response: bad });
      expect(response.statusCode).toBe(400);
      expect(errorBody(response).code).toBe('req.invalid');
    }
    const unknownId = await client.act(id, 'passkey', {}, { challenge_response: { challenge_id: 'chal_unknown', method: 'passkey', proof: good } });
    expect(unknownId.statusCode).toBe(400);
    const wrongMethod = await client.act(id, 'passkey', {}, { challenge_response: { challenge_id: cid, method: 'passkey_register', proof: good } });
    expect(wrongMethod.statusCode).toBe(400);
  });

  it('of 20 concurrent submits of one assertion exactly one signs in', async () => {
    const client = new PasskeyClient(kit.t);
    const started = await client.begin(kit.projectId, 'login');
    const proof = await authenticator.get(started.json().step.challenge.options, { origin: ORIGIN });
    const answers = await Promise.all(Array.from({ length: 20 }, () => client.answer(started, 'passkey', proof)));
    const statuses = answers.map((a) => a.statusCode);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 400)).toHaveLength(19);
    expect(answers.every((a) => a.statusCode === 200 || errorBody(a).code === 'flow.invalid_credentials')).toBe(true);
  });

  it('used challenges are swept once they could no longer be answered anyway', async () => {
    const client = new PasskeyClient(kit.t);
    const started = await client.begin(kit.projectId, 'login');
    expect((await client.answer(started, 'passkey', await authenticator.get(started.json().step.challenge.options, { origin: ORIGIN }))).statusCode).toBe(200);
    expect((await kit.t.container.flows.sweeper.sweep()).webauthn_used_challenges).toBe(0);
    kit.t.clock.advance(5 * 60 * 1000 + 1);
    expect((await kit.t.container.flows.sweeper.sweep()).webauthn_used_challenges).toBeGreaterThanOrEqual(1);
  });
});
