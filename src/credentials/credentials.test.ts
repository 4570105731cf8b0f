import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, errorBody } from '../../test/helpers/app.js';
import { passkeyKit, type PasskeyKit } from '../passkeys/passkey-test-kit.js';

describe('credentials API', () => {
  let kit: PasskeyKit;
  let secret: string;
  let previewSecret: string;
  let projectId: string;
  let newUser: () => Promise<string>;
  // The kit gives the app and the software authenticator; this test's project is its own, for its secrets.
  beforeAll(async () => {
    kit = await passkeyKit();
    const project = await kit.t.createProject();
    projectId = project.id;
    secret = project.project_secret;
    previewSecret = project.preview_secret;
    const schema = (await kit.t.container.schemas.defaultFor(projectId))!;
    let n = 0;
    newUser = async () => (await kit.t.container.users.create(projectId, { schema: schema.id, attributes: { email: `c${++n}@example.com` } })).id;
  });
  afterAll(async () => kit.t.close());

  const list = (userId: string, token = secret) => kit.t.app.inject({ method: 'GET', url: `/users/${userId}/credentials`, headers: bearer(token) });
  const remove = (userId: string, credentialId: string, token = secret) =>
    kit.t.app.inject({ method: 'DELETE', url: `/users/${userId}/credentials/${credentialId}`, headers: bearer(token) });
  const setPassword = (userId: string) =>
    kit.t.app.inject({ method: 'PUT', url: `/users/${userId}/password`, headers: bearer(secret), payload: { password: 'correct horse battery staple 42' } });
  /** Enrols a passkey through the real service (and the software authenticator) in this test's project. */
  const addPasskey = async (userId: string, name?: string) => ({ id: (await kit.register(userId, { name, projectId })).rowId });

  it('lists every method, oldest first, without secrets, hashes or key material', async () => {
    const userId = await newUser();
    expect((await list(userId)).json()).toEqual({ credentials: [] });
    expect((await setPassword(userId)).statusCode).toBe(204);
    kit.t.clock.advance(1000);
    // The flow passes what a user typed: NUL (PostgreSQL text refuses it) and blanks are dropped.
    const passkey = await addPasskey(userId, '  Laptop\u0000 ');
    const response = await list(userId);
    expect(response.statusCode).toBe(200);
    const { credentials } = response.json();
    expect(credentials).toEqual([
      { id: expect.stringMatching(/^cred_/), method: 'password', name: null, created_at: expect.any(String), last_used_at: null },
      { id: passkey.id, method: 'passkey', name: 'Laptop', created_at: kit.t.clock.now().toISOString(), last_used_at: null },
    ]);
    const rows = await kit.t.container.db.selectFrom('credentials').select('secret').where('user_id', '=', userId).execute();
    const pk = await kit.t.container.db.selectFrom('passkeys').select(['public_key', 'webauthn_id']).where('user_id', '=', userId).executeTakeFirstOrThrow();
    for (const value of [...rows.map((r) => r.secret).filter(Boolean), Buffer.from(pk.public_key).toString('base64url'), Buffer.from(pk.public_key).toString('base64'), pk.webauthn_id]) {
      expect(response.body).not.toContain(value);
    }
    expect(response.body).not.toContain('argon2');
    // The admin token sees it too.
    expect((await list(userId, kit.t.adminToken)).json()).toEqual({ credentials });
  });

  it('deletes a passkey (its key goes with it) and the password, the last one too, each audited', async () => {
    const userId = await newUser();
    await setPassword(userId);
    const passkey = await addPasskey(userId);
    const password = (await list(userId)).json().credentials.find((c: { method: string }) => c.method === 'password');
    expect((await remove(userId, passkey.id)).statusCode).toBe(204);
    expect(await kit.t.container.db.selectFrom('passkeys').select('credential_row_id').where('user_id', '=', userId).execute()).toEqual([]);
    const last = await remove(userId, password.id);
    expect(last.statusCode).toBe(204);
    expect(last.body).toBe('');
    expect((await list(userId)).json()).toEqual({ credentials: [] });
    const audit = await kit.t.container.users.auditTrail(projectId, userId, {});
    const removals = audit.items.filter((e) => e.action === 'removed').map((e) => `${e.attribute}:${e.actor}`).sort();
    expect(removals).toEqual(['passkey:project_secret', 'password:project_secret']);
  });

  it("answers 404 for another user's or project's credential and changes nothing", async () => {
    const owner = await newUser();
    const stranger = await newUser();
    const passkey = await addPasskey(owner);
    const notFound = async (response: Awaited<ReturnType<typeof remove>>, code: string) => {
      expect(response.statusCode).toBe(404);
      expect(errorBody(response).code).toBe(code);
    };
    await notFound(await remove(stranger, passkey.id), 'cred.not_found');
    await notFound(await remove(owner, 'cred_00000000000000000000000000'), 'cred.not_found');
    await notFound(await remove(owner, 'not-an-id'), 'cred.not_found');
    await notFound(await remove('usr_00000000000000000000000000', passkey.id), 'user.not_found');
    const other = await kit.t.createProject();
    await notFound(await remove(owner, passkey.id, other.project_secret), 'user.not_found');
    await notFound(await list(owner, other.project_secret), 'user.not_found');
    expect((await list(owner)).json().credentials.map((c: { id: string }) => c.id)).toEqual([passkey.id]);
    const audit = await kit.t.container.users.auditTrail(projectId, owner, {});
    expect(audit.items.filter((e) => e.action === 'removed')).toEqual([]);
  });

  it('needs user.read to list and user.write to delete', async () => {
    const userId = await newUser();
    const passkey = await addPasskey(userId);
    expect((await list(userId, previewSecret)).statusCode).toBe(403);
    expect((await remove(userId, passkey.id, previewSecret)).statusCode).toBe(403);
    expect((await list(userId, 'nope')).statusCode).toBe(401);
    expect((await list(userId)).json().credentials).toHaveLength(1);
  });

  it('20 concurrent deletes of one credential: exactly one 204, one audit event', async () => {
    const userId = await newUser();
    const passkey = await addPasskey(userId);
    const responses = await Promise.all(Array.from({ length: 20 }, () => remove(userId, passkey.id)));
    expect(responses.filter((r) => r.statusCode === 204)).toHaveLength(1);
    expect(responses.filter((r) => r.statusCode === 404)).toHaveLength(19);
    const audit = await kit.t.container.users.auditTrail(projectId, userId, {});
    expect(audit.items.filter((e) => e.attribute === 'passkey' && e.action === 'removed')).toHaveLength(1);
  });
});
