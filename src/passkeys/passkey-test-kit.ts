import { createTestApp, type TestApp } from '../../test/helpers/app.js';
import { SoftwareAuthenticator, type AuthenticatorOptions } from '../../test/helpers/webauthn-authenticator.js';
import { expect } from 'vitest';
import { PasskeyError } from './errors.js';
import type { RelyingParty } from './relying-party.js';

/** The origin and RP every passkey test uses unless it is testing those. */
export const RP: RelyingParty = { rpId: 'localhost', origin: 'http://localhost:4455' };

export interface PasskeyKit {
  t: TestApp;
  projectId: string;
  /** A new user of the default schema. */
  newUser(email?: string): Promise<string>;
  /** Runs a whole registration for `userId` (in the kit's project unless named) and saves it; returns ids. */
  register(userId: string, options?: { authenticator?: SoftwareAuthenticator; name?: string; projectId?: string }): Promise<{ credentialId: string; rowId: string; authenticator: SoftwareAuthenticator }>;
  newAuthenticator(options?: AuthenticatorOptions): SoftwareAuthenticator;
}

let counter = 0;

/** A test app with one project, users and helpers to enrol passkeys through the real service. */
export async function passkeyKit(): Promise<PasskeyKit> {
  const t = await createTestApp();
  const project = await t.createProject();
  const schema = (await t.container.schemas.defaultFor(project.id))!;
  const passkeys = t.container.passkeys;
  const kit: PasskeyKit = {
    t,
    projectId: project.id,
    newUser: async (email) => (await t.container.users.create(project.id, { schema: schema.id, attributes: { email: email ?? `pk${++counter}@example.com` } })).id,
    newAuthenticator: (options) => new SoftwareAuthenticator(options),
    register: async (userId, { authenticator = new SoftwareAuthenticator(), name, projectId = project.id } = {}) => {
      const userHandle = (await passkeys.userHandleOf(projectId, userId)) ?? passkeys.newUserHandle();
      const existing = await passkeys.credentialsFor(projectId, userId);
      const { challenge, options } = await passkeys.registrationOptions({
        rp: { id: RP.rpId, name: 'Test' },
        userHandle,
        userName: 'user',
        displayName: 'User',
        excludeCredentialIds: existing.map((c) => c.id),
      });
      const response = await authenticator.create(options, { origin: RP.origin });
      const verified = await passkeys.verifyRegistration({ response, expectedChallenge: challenge, rp: RP });
      const saved = await t.container.db
        .transaction()
        .execute((trx) => passkeys.saveCredential(trx, { projectId, userId, userHandle, passkey: verified, name }));
      return { credentialId: verified.credentialId, rowId: saved.id, authenticator };
    },
  };
  return kit;
}

/** Awaits a promise that must reject with a PasskeyError and answers its reason. */
export async function passkeyFailure(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(PasskeyError);
  return (error as PasskeyError).reason;
}
