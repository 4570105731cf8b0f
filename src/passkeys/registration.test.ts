import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PublicKeyCredentialCreationOptionsJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import { passkeyFailure, passkeyKit, RP, type PasskeyKit } from './passkey-test-kit.js';

describe('passkey registration', () => {
  let kit: PasskeyKit;
  beforeAll(async () => {
    kit = await passkeyKit();
  });
  afterAll(async () => kit.t.close());

  const service = () => kit.t.container.passkeys;
  const options = async (userHandle = service().newUserHandle(), excludeCredentialIds: string[] = []) =>
    service().registrationOptions({ rp: { id: RP.rpId, name: 'Gatehouse test' }, userHandle, userName: 'ada@example.com', displayName: 'Ada', excludeCredentialIds });
  const countRows = async () => ({
    credentials: (await kit.t.container.db.selectFrom('credentials').select('id').where('method', '=', 'passkey').execute()).length,
    passkeys: (await kit.t.container.db.selectFrom('passkeys').select('credential_row_id').execute()).length,
  });

  it('offers resident-key creation options with a random 32-byte user handle and the three algorithms', async () => {
    const handle = service().newUserHandle();
    expect(Buffer.from(handle, 'base64url')).toHaveLength(32);
    expect(service().newUserHandle()).not.toBe(handle);
    const { challenge, options: json } = await options(handle, ['AAAA']);
    expect(json).toMatchObject({
      challenge,
      rp: { id: 'localhost', name: 'Gatehouse test' },
      user: { id: handle, name: 'ada@example.com', displayName: 'Ada' },
      attestation: 'none',
      authenticatorSelection: { residentKey: 'required', userVerification: 'preferred' },
      excludeCredentials: [expect.objectContaining({ id: 'AAAA', type: 'public-key' })],
    });
    expect(json.pubKeyCredParams.map((p) => p.alg)).toEqual([-7, -8, -257]);
    expect(Buffer.from(challenge, 'base64url').length).toBeGreaterThanOrEqual(16);
  });

  it.each(['ES256', 'EdDSA'] as const)('verifies a real %s attestation and saves it with the user handle, audited', async (algorithm) => {
    const userId = await kit.newUser();
    const authenticator = kit.newAuthenticator({ algorithm, backupEligible: true, backupState: true, transports: ['internal'] });
    const { credentialId, rowId } = await kit.register(userId, { authenticator, name: 'My phone' });
    expect(rowId).toMatch(/^cred_/);
    expect(await service().credentialsFor(kit.projectId, userId)).toEqual([{ id: credentialId, transports: ['internal'] }]);
    const handle = await service().userHandleOf(kit.projectId, userId);
    expect(handle).toBe([...authenticator.credentials.values()][0].userHandle);
    expect(handle).not.toContain(userId);
    const row = await kit.t.container.db.selectFrom('passkeys').selectAll().where('credential_row_id', '=', rowId).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ webauthn_id: credentialId, backup_eligible: true, backup_state: true, device_type: 'multiDevice', aaguid: '00000000-0000-0000-0000-000000000000' });
    expect(Number(row.sign_count)).toBe(0);
    const credential = await kit.t.container.db.selectFrom('credentials').selectAll().where('id', '=', rowId).executeTakeFirstOrThrow();
    expect(credential).toMatchObject({ method: 'passkey', secret: '', name: 'My phone', last_used_at: null });
    const audit = await kit.t.container.users.auditTrail(kit.projectId, userId, {});
    expect(audit.items.filter((e) => e.attribute === 'passkey')).toEqual([expect.objectContaining({ action: 'added', actor: 'self' })]);
  });

  it('returns what the attestation says: UV flag, attachment, counter', async () => {
    const authenticator = kit.newAuthenticator({ userVerified: false, attachment: 'cross-platform' });
    const { challenge, options: json } = await options();
    const verified = await service().verifyRegistration({ response: await authenticator.create(json, { origin: RP.origin }), expectedChallenge: challenge, rp: RP });
    expect(verified).toMatchObject({ userVerified: false, authenticatorAttachment: 'cross-platform', counter: 0, backupEligible: false, deviceType: 'singleDevice' });
    expect(verified.publicKey).toBeInstanceOf(Uint8Array);
  });

  it('keeps one handle per user and refuses a second, different one', async () => {
    const userId = await kit.newUser();
    await kit.register(userId);
    await kit.register(userId);
    expect(await service().credentialsFor(kit.projectId, userId)).toHaveLength(2);
    // The same authenticator again: excludeCredentials names its passkey, so the "browser" refuses.
    const again = kit.newAuthenticator();
    await kit.register(userId, { authenticator: again });
    await expect(kit.register(userId, { authenticator: again })).rejects.toThrow(/InvalidStateError/);
    const { challenge, options: json } = await options();
    const verified = await service().verifyRegistration({ response: await kit.newAuthenticator().create(json, { origin: RP.origin }), expectedChallenge: challenge, rp: RP });
    const reason = await passkeyFailure(
      kit.t.container.db.transaction().execute((trx) => service().saveCredential(trx, { projectId: kit.projectId, userId, userHandle: service().newUserHandle(), passkey: verified })),
    );
    expect(reason).toBe('user_handle_mismatch');
    // Another user's handle is refused the same way, and nothing of the attempt stays.
    const before = await countRows();
    const taken = (await service().userHandleOf(kit.projectId, userId))!;
    const stranger = await kit.newUser();
    const reused = await passkeyFailure(
      kit.t.container.db.transaction().execute((trx) => service().saveCredential(trx, { projectId: kit.projectId, userId: stranger, userHandle: taken, passkey: verified })),
    );
    expect(reused).toBe('user_handle_mismatch');
    expect(await countRows()).toEqual(before);
    expect(await service().userHandleOf(kit.projectId, stranger)).toBeUndefined();
  });

  it('refuses a credential id already registered in the project, writing nothing', async () => {
    const userId = await kit.newUser();
    const { challenge, options: json } = await options();
    const verified = await service().verifyRegistration({ response: await kit.newAuthenticator().create(json, { origin: RP.origin }), expectedChallenge: challenge, rp: RP });
    const save = (user: string) =>
      kit.t.container.db.transaction().execute((trx) => service().saveCredential(trx, { projectId: kit.projectId, userId: user, userHandle: service().newUserHandle(), passkey: verified }));
    await save(userId);
    const before = await countRows();
    expect(await passkeyFailure(save(await kit.newUser()))).toBe('credential_exists');
    expect(await countRows()).toEqual(before);
  });

  describe('hostile responses are PasskeyErrors', () => {
    let challenge: string;
    let json: PublicKeyCredentialCreationOptionsJSON;
    let good: RegistrationResponseJSON;
    beforeAll(async () => {
      ({ challenge, options: json } = await options());
      good = await kit.newAuthenticator().create(json, { origin: RP.origin });
    });
    const verify = (response: unknown, rp = RP) => passkeyFailure(service().verifyRegistration({ response, expectedChallenge: challenge, rp }));
    const clientData = (value: unknown) => Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');

    it('a good one verifies (the baseline of the cases below)', async () => {
      await expect(service().verifyRegistration({ response: good, expectedChallenge: challenge, rp: RP })).resolves.toMatchObject({ credentialId: good.id });
    });

    it.each([
      ['not an object', null],
      ['an array', []],
      ['a string', 'credential'],
      ['no response', { id: 'AAAA', rawId: 'AAAA', type: 'public-key' }],
      ['id garbage', { id: '***', rawId: '***', type: 'public-key', response: {} }],
      ['wrong credential type', { id: 'AAAA', rawId: 'AAAA', type: 'password', response: {} }],
    ])('%s: malformed', async (_name, response) => {
      expect(await verify(response)).toBe('malformed');
    });

    it('base64url garbage in any field, rawId differing, odd transports: malformed', async () => {
      expect(await verify({ ...good, response: { ...good.response, clientDataJSON: '%%%' } })).toBe('malformed');
      expect(await verify({ ...good, response: { ...good.response, attestationObject: 'not base64!' } })).toBe('malformed');
      expect(await verify({ ...good, response: { ...good.response, attestationObject: 'AAAA' } })).toBe('verification_failed');
      expect(await verify({ ...good, rawId: 'AAAA' })).toBe('malformed');
      expect(await verify({ ...good, response: { ...good.response, transports: [1] } })).toBe('malformed');
      expect(await verify({ ...good, response: { ...good.response, transports: ['usb\u0000'] } })).toBe('malformed');
      expect(await verify({ ...good, response: { ...good.response, clientDataJSON: clientData('not json') } })).toBe('malformed');
      expect(await verify({ ...good, response: { ...good.response, clientDataJSON: clientData({ type: 'webauthn.create' }) } })).toBe('malformed');
      expect(await verify({ ...good, authenticatorAttachment: 'elsewhere' })).toBe('malformed');
    });

    it('a huge clientDataJSON is refused before it is decoded', async () => {
      const huge = clientData({ type: 'webauthn.create', challenge, origin: RP.origin, padding: 'x'.repeat(20_000) });
      expect(await verify({ ...good, response: { ...good.response, clientDataJSON: huge } })).toBe('too_large');
      expect(await verify({ ...good, response: { ...good.response, attestationObject: 'A'.repeat(200_000) } })).toBe('too_large');
    });

    it('webauthn.get where a create is expected, another challenge, another origin', async () => {
      const authenticator = kit.newAuthenticator();
      expect(await verify(await authenticator.create(json, { origin: RP.origin, type: 'webauthn.get' }))).toBe('wrong_type');
      expect(await verify(await authenticator.create(json, { origin: RP.origin, challenge: 'b3RoZXItY2hhbGxlbmdl' }))).toBe('challenge_mismatch');
      expect(await verify(await authenticator.create(json, { origin: 'https://evil.example' }))).toBe('wrong_origin');
      expect(await verify(good, { rpId: 'localhost', origin: 'http://localhost:9999' })).toBe('wrong_origin');
    });

    it('an RP ID hash of another site, a missing UP flag, a tampered authData', async () => {
      const authenticator = kit.newAuthenticator();
      expect(await verify(await authenticator.create(json, { origin: RP.origin, rpId: 'evil.example' }))).toBe('rp_id_mismatch');
      expect(await verify(good, { rpId: 'example.com', origin: RP.origin })).toBe('rp_id_mismatch');
      expect(await verify(await authenticator.create(json, { origin: RP.origin, userPresent: false }))).toBe('user_not_present');
      const attestation = Buffer.from(good.response.attestationObject, 'base64url');
      const truncated = attestation.subarray(0, attestation.length - 10).toString('base64url');
      expect(['malformed', 'verification_failed']).toContain(await verify({ ...good, response: { ...good.response, attestationObject: truncated } }));
    });
  });
});
