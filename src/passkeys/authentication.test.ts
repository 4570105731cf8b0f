import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { nonCanonicalTwin } from '../core/base64-test-kit.js';
import { PasskeyService } from './service.js';
import { PasskeyStore } from './store.js';
import { passkeyFailure, passkeyKit, RP, type PasskeyKit } from './passkey-test-kit.js';

describe('passkey authentication', () => {
  let kit: PasskeyKit;
  beforeAll(async () => {
    kit = await passkeyKit();
  });
  afterAll(async () => kit.t.close());

  const service = () => kit.t.container.passkeys;
  const stored = async (rowId: string) => {
    const row = await kit.t.container.db
      .selectFrom('passkeys')
      .innerJoin('credentials', 'credentials.id', 'passkeys.credential_row_id')
      .select(['passkeys.sign_count', 'credentials.last_used_at'])
      .where('credential_row_id', '=', rowId)
      .executeTakeFirstOrThrow();
    return { signCount: Number(row.sign_count), lastUsedAt: row.last_used_at };
  };

  it('after an identifier step: allowCredentials are the user, the assertion verifies and records the use', async () => {
    const userId = await kit.newUser();
    const { credentialId, rowId, authenticator } = await kit.register(userId);
    const allow = await service().credentialsFor(kit.projectId, userId);
    const { challenge, options } = await service().authenticationOptions({ rpId: RP.rpId, allowCredentialIds: allow });
    expect(options).toMatchObject({ challenge, rpId: 'localhost', userVerification: 'preferred', allowCredentials: [expect.objectContaining({ id: credentialId })] });
    kit.t.clock.advance(60_000);
    const response = await authenticator.get(options, { origin: RP.origin });
    const result = await service().verifyAuthentication({ projectId: kit.projectId, response, expectedChallenge: challenge, rp: RP, expectedUserId: userId });
    expect(result).toEqual({
      userId,
      credentialRowId: rowId,
      credentialId,
      userVerified: true,
      backupEligible: false,
      backupState: false,
      authenticatorAttachment: 'platform',
    });
    expect(await stored(rowId)).toEqual({ signCount: 1, lastUsedAt: kit.t.clock.now() });
  });

  it('usernameless: empty allowCredentials, the user comes from the userHandle; UV off is reported', async () => {
    const userId = await kit.newUser();
    const authenticator = kit.newAuthenticator({ userVerified: false, backupEligible: true, backupState: true });
    const { rowId } = await kit.register(userId, { authenticator });
    const { challenge, options } = await service().authenticationOptions({ rpId: RP.rpId });
    expect(options.allowCredentials ?? []).toEqual([]);
    const response = await authenticator.get(options, { origin: RP.origin });
    const result = await service().verifyAuthentication({ projectId: kit.projectId, response, expectedChallenge: challenge, rp: RP });
    expect(result).toMatchObject({ userId, credentialRowId: rowId, userVerified: false, backupEligible: true, backupState: true });
  });

  it("usernameless without the owner's userHandle, or another user's credential: refused", async () => {
    const userId = await kit.newUser();
    const { authenticator } = await kit.register(userId);
    const { challenge, options } = await service().authenticationOptions({ rpId: RP.rpId });
    const verify = async (userHandle: string | null, expectedUserId?: string) =>
      passkeyFailure(
        service().verifyAuthentication({
          projectId: kit.projectId,
          response: await authenticator.get(options, { origin: RP.origin, userHandle }),
          expectedChallenge: challenge,
          rp: RP,
          expectedUserId,
        }),
      );
    expect(await verify(null)).toBe('user_handle_mismatch');
    expect(await verify(service().newUserHandle())).toBe('user_handle_mismatch');
    expect(await verify(service().newUserHandle(), userId)).toBe('user_handle_mismatch');
    expect(await verify(null, await kit.newUser())).toBe('unknown_credential');
  });

  it("an unknown credential, and a credential of another project, are unknown_credential", async () => {
    const userId = await kit.newUser();
    const { authenticator } = await kit.register(userId);
    const { challenge, options } = await service().authenticationOptions({ rpId: RP.rpId });
    const response = await authenticator.get(options, { origin: RP.origin });
    const other = await kit.t.createProject();
    expect(await passkeyFailure(service().verifyAuthentication({ projectId: other.id, response, expectedChallenge: challenge, rp: RP }))).toBe('unknown_credential');
    const stranger = kit.newAuthenticator();
    await stranger.create((await service().registrationOptions({ rp: { id: RP.rpId, name: 'x' }, userHandle: service().newUserHandle(), userName: 'x', displayName: 'x', excludeCredentialIds: [] })).options, { origin: RP.origin });
    const unknown = await stranger.get(options, { origin: RP.origin });
    expect(await passkeyFailure(service().verifyAuthentication({ projectId: kit.projectId, response: unknown, expectedChallenge: challenge, rp: RP }))).toBe('unknown_credential');
  });

  it('a sign count going backwards is refused (and logged as a possible clone), nothing is written; forward again works', async () => {
    const userId = await kit.newUser();
    const { credentialId, rowId, authenticator } = await kit.register(userId);
    const logged: string[] = [];
    const c = kit.t.container;
    const watched = new PasskeyService({ store: new PasskeyStore(c.db), keys: c.keys, clock: c.clock, ids: c.ids, users: c.users, logger: pino({ level: 'warn' }, { write: (line: string) => logged.push(line) }) });
    const login = async (count?: number) => {
      if (count !== undefined) authenticator.setSignCount(credentialId, count);
      const { challenge, options } = await watched.authenticationOptions({ rpId: RP.rpId });
      const response = await authenticator.get(options, { origin: RP.origin });
      return watched.verifyAuthentication({ projectId: kit.projectId, response, expectedChallenge: challenge, rp: RP });
    };
    await login(10);
    expect((await stored(rowId)).signCount).toBe(10);
    const usedAt = (await stored(rowId)).lastUsedAt;
    kit.t.clock.advance(1000);
    expect(await passkeyFailure(login(5))).toBe('counter_regressed');
    expect(await passkeyFailure(login(10))).toBe('counter_regressed');
    expect(await stored(rowId)).toEqual({ signCount: 10, lastUsedAt: usedAt });
    expect(logged).toHaveLength(2);
    expect(JSON.parse(logged[0])).toMatchObject({ level: 40, user_id: userId, credential_id: rowId, msg: expect.stringContaining('cloned authenticator') });
    await login(11);
    expect((await stored(rowId)).signCount).toBe(11);
  });

  it('two assertions racing with the same count: the one-statement update lets exactly one through', async () => {
    const userId = await kit.newUser();
    const { credentialId, authenticator } = await kit.register(userId);
    const attempts = [];
    for (let i = 0; i < 5; i++) {
      authenticator.setSignCount(credentialId, 7);
      const { challenge, options } = await service().authenticationOptions({ rpId: RP.rpId });
      attempts.push({ challenge, response: await authenticator.get(options, { origin: RP.origin }) });
    }
    const results = await Promise.allSettled(
      attempts.map(({ challenge, response }) => service().verifyAuthentication({ projectId: kit.projectId, response, expectedChallenge: challenge, rp: RP })),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    for (const r of results) if (r.status === 'rejected') expect(r.reason).toMatchObject({ reason: 'counter_regressed' });
  });

  it('hostile assertions: wrong type, origin, RP ID, challenge, missing UP, bad signature, garbage', async () => {
    const userId = await kit.newUser();
    const { authenticator } = await kit.register(userId);
    const { challenge, options } = await service().authenticationOptions({ rpId: RP.rpId });
    const verify = async (response: unknown, rp = RP) => passkeyFailure(service().verifyAuthentication({ projectId: kit.projectId, response, expectedChallenge: challenge, rp }));
    const get = (overrides = {}) => authenticator.get(options, { origin: RP.origin, ...overrides });
    expect(await verify(await get({ type: 'webauthn.create' }))).toBe('wrong_type');
    expect(await verify(await get({ origin: 'https://evil.example' }))).toBe('wrong_origin');
    expect(await verify(await get({ rpId: 'evil.example' }))).toBe('rp_id_mismatch');
    expect(await verify(await get({ challenge: 'c29tZXRoaW5nLWVsc2U' }))).toBe('challenge_mismatch');
    expect(await verify(await get({ userPresent: false }))).toBe('user_not_present');
    const good = await get();
    const signature = Buffer.from(good.response.signature, 'base64url');
    signature[signature.length - 1] ^= 0xff;
    expect(await verify({ ...good, response: { ...good.response, signature: signature.toString('base64url') } })).toBe('verification_failed');
    expect(await verify({ ...good, response: { ...good.response, signature: '!!' } })).toBe('malformed');
    expect(await verify({ ...good, response: { ...good.response, authenticatorData: 'AAAA' } })).toBe('malformed');
    expect(await verify({ ...good, response: { ...good.response, authenticatorData: Buffer.alloc(37).toString('base64url') } })).toBe('rp_id_mismatch');
    expect(await verify({ ...good, response: { ...good.response, userHandle: 'x'.repeat(200) } })).toBe('too_large');
    expect(await verify({ ...good, response: { ...good.response, clientDataJSON: 'A'.repeat(30_000) } })).toBe('too_large');
    expect(await verify({ ...good, id: 'A'.repeat(2000), rawId: 'A'.repeat(2000) })).toBe('too_large');
    expect(await verify({ ...good, response: undefined })).toBe('malformed');
    expect(await verify(undefined)).toBe('malformed');
    // One textual form per field: texts the lenient decoder reads as the very same bytes (the twin
    // of the last character, padding, a dangling character) are malformed, not verified.
    const sameBytes = (text: string) => (text.length % 4 === 0 ? [`${text}A`] : [nonCanonicalTwin(text), `${text}${'='.repeat(4 - (text.length % 4))}`]);
    for (const field of ['clientDataJSON', 'authenticatorData', 'signature', 'userHandle'] as const) {
      for (const text of sameBytes(good.response[field]!)) {
        expect(Buffer.from(text, 'base64url').equals(Buffer.from(good.response[field]!, 'base64url'))).toBe(true);
        expect(await verify({ ...good, response: { ...good.response, [field]: text } }), `${field} ${text}`).toBe('malformed');
      }
    }
    for (const id of sameBytes(good.id)) expect(await verify({ ...good, id, rawId: id })).toBe('malformed');
    // The untouched assertion still verifies: the cases above failed for their own reason.
    await expect(service().verifyAuthentication({ projectId: kit.projectId, response: good, expectedChallenge: challenge, rp: RP })).resolves.toMatchObject({ userId });
  });
});
