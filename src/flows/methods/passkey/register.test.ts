import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, errorBody } from '../../../../test/helpers/app.js';
import { ORIGIN, PasskeyClient, passkeyFlowKit, type PasskeyFlowKit } from './passkey-flow-test-kit.js';

describe('passkey registration through a flow (DESIGN §4.10)', () => {
  let kit: PasskeyFlowKit;
  beforeAll(async () => {
    kit = await passkeyFlowKit();
  });
  afterAll(async () => kit.t.close());

  it('validates the attributes, then issues creation options with a random user handle', async () => {
    const client = new PasskeyClient(kit.t);
    const started = await client.begin(kit.projectId, 'register');
    const invalid = await client.act(started.json().id, 'passkey', { email: 'not-an-address' });
    expect(invalid.statusCode).toBe(400);
    expect(errorBody(invalid).details.fields).toEqual({ email: 'error.invalid_email' });

    const challenged = await client.act(started.json().id, 'passkey', { email: 'options@example.com' });
    expect(challenged.statusCode, challenged.body).toBe(200);
    const { step } = challenged.json();
    expect(step.name).toBe('register');
    expect(step.challenge).toMatchObject({ method: 'passkey_register', challenge_id: expect.any(String) });
    const options = step.challenge.options;
    expect(options.rp).toEqual({ id: 'localhost', name: expect.any(String) });
    expect(options.authenticatorSelection).toMatchObject({ residentKey: 'required', userVerification: 'preferred' });
    expect(options.attestation).toBe('none');
    expect(options.pubKeyCredParams.map((p: { alg: number }) => p.alg).sort((a: number, b: number) => a - b)).toEqual([-257, -8, -7]);
    expect(Buffer.from(options.user.id, 'base64url')).toHaveLength(32);
    expect(options.user.name).toBe('options@example.com');
    // Nothing is written before the answer.
    expect(await kit.t.container.users.findByIdentifier(kit.projectId, undefined, 'options@example.com')).toBeUndefined();
  });

  it('creates a passkey-only account whose session is AAL2 with user verification', async () => {
    const authenticator = kit.authenticator();
    const done = await kit.registerWithPasskey('ann@example.com', authenticator);
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json().step.type).toBe('complete');
    const session = await kit.exchange(done);
    expect(session.factors).toEqual([
      expect.objectContaining({ method: 'passkey', payload: expect.objectContaining({ credential_id: expect.any(String), user_verified: true, backup_eligible: false, backup_state: false }) }),
    ]);
    expect(session.assurance_levels).toEqual(['urn:nist:aal:1', 'urn:nist:aal:2']);
    const user = await kit.t.container.users.findByIdentifier(kit.projectId, undefined, 'ann@example.com');
    expect(user?.id).toBe(session.user_id);
  });

  it('without user verification the passkey is a possession factor: AAL1 only', async () => {
    const done = await kit.registerWithPasskey('no-uv@example.com', kit.authenticator({ userVerified: false }));
    expect(done.statusCode, done.body).toBe(200);
    const session = await kit.exchange(done);
    expect(session.factors[0].payload.user_verified).toBe(false);
    expect(session.assurance_levels).toEqual(['urn:nist:aal:1']);
  });

  it('a taken identifier is refused before the ceremony', async () => {
    await kit.registerWithPasskey('taken@example.com', kit.authenticator());
    const client = new PasskeyClient(kit.t);
    const started = await client.begin(kit.projectId, 'register');
    const again = await client.act(started.json().id, 'passkey', { email: 'taken@example.com' });
    expect(again.statusCode).toBe(400);
    expect(errorBody(again).details.fields).toEqual({ email: 'error.user_already_exists' });
  });

  it('refuses an answer from another origin, of the wrong ceremony type or for another challenge, writing nothing', async () => {
    const client = new PasskeyClient(kit.t);
    const started = await client.begin(kit.projectId, 'register');
    const challenged = await client.act(started.json().id, 'passkey', { email: 'refused@example.com' });
    const options = challenged.json().step.challenge.options;
    const authenticator = kit.authenticator();
    const cases = [
      await authenticator.create(options, { origin: 'https://evil.example' }),
      await authenticator.create(options, { origin: ORIGIN, type: 'webauthn.get' }),
      await authenticator.create(options, { origin: ORIGIN, rpId: 'evil.example' }),
      await authenticator.create(options, { origin: ORIGIN, challenge: Buffer.alloc(32, 7).toString('base64url') }),
      await authenticator.create(options, { origin: ORIGIN, userPresent: false }),
    ];
    let previous = challenged;
    for (const proof of cases) {
      const refused = await client.answer(previous, 'passkey', proof);
      expect(refused.statusCode, refused.body).toBe(400);
      const body = errorBody(refused);
      expect(body.code).toBe('flow.invalid_credentials');
      expect(body.details.fields).toEqual({ passkey: 'error.passkey_invalid' });
      expect(body.details.challenge).toMatchObject({ method: 'passkey_register' });
      // The fresh challenge replaces the old one: answering the old one later fails too.
      expect((body.details.challenge as { challenge_id: string }).challenge_id).not.toBe(previous.json().step?.challenge?.challenge_id ?? previous.json().details?.challenge?.challenge_id);
      previous = refused;
    }
    expect(await kit.t.container.users.findByIdentifier(kit.projectId, undefined, 'refused@example.com')).toBeUndefined();
    // The fresh challenge works.
    const fresh = errorBody(previous).details.challenge as { options: never };
    const ok = await client.answer(previous, 'passkey', await authenticator.create(fresh.options, { origin: ORIGIN }));
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().step.type).toBe('complete');
  });

  it('a passkey registration needs a schema that enables passkeys', async () => {
    const project = await kit.t.createProject();
    const schema = await kit.t.app.inject({
      method: 'POST',
      url: `/schemas?project_id=${project.id}`,
      headers: bearer(project.project_secret),
      payload: {
        $schema: 'https://json-schema.org/draft/2020-12/schema',
        kind: 'user-schema',
        objectType: 'member',
        type: 'object',
        required: ['email'],
        'x-auth-methods': { password: { enabled: true }, passkey: { enabled: false } },
        properties: { email: { type: 'string', format: 'email', 'x-unique': 'project' } },
      },
    });
    expect(schema.statusCode, schema.body).toBe(201);
    const id = schema.json().id;
    const definition = await kit.t.app.inject({
      method: 'POST',
      url: '/flow_definitions',
      headers: bearer(project.project_secret),
      payload: {
        schema_uri: id,
        flow_definition: {
          name: 'members',
          purposes: { register: 'register' },
          steps: [
            { name: 'register', fields: ['email'], actions: [{ name: 'passkey', kind: 'passkey_register' }], on_success: 'create_user', transitions: { passkey: { target: 'done' } } },
            { name: 'done', complete: 'show' },
          ],
        },
      },
    });
    expect(definition.statusCode).toBe(400);
    expect(errorBody(definition).details.errors).toEqual([expect.objectContaining({ step: 'register', field: 'actions[0].kind', message: 'method "passkey" is not enabled in the user schema' })]);
  });
});
