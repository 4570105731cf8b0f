import fc from 'fast-check';
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hostileJson } from '../../test/helpers/arbitraries.js';
import { PasskeyError } from './errors.js';
import { passkeyKit, RP, type PasskeyKit } from './passkey-test-kit.js';

const RUNS = Number(process.env.PROPERTY_RUNS ?? 150);

type Json = Record<string, unknown>;

/** A copy of `value` with the dotted `path` replaced (undefined deletes it). */
function withPath(value: Json, path: string, replacement: unknown): Json {
  const copy = structuredClone(value);
  const keys = path.split('.');
  let node = copy;
  for (const key of keys.slice(0, -1)) node = node[key] as Json;
  if (replacement === undefined) delete node[keys.at(-1)!];
  else node[keys.at(-1)!] = replacement;
  return copy;
}

function get(value: Json, path: string): unknown {
  return path.split('.').reduce<unknown>((node, key) => (node as Json)[key], value);
}

/** Byte-level damage to a base64url field: flip, truncate, extend. */
const damage = fc.oneof(
  fc.record({ kind: fc.constant('flip' as const), at: fc.nat(), mask: fc.integer({ min: 1, max: 255 }) }),
  fc.record({ kind: fc.constant('cut' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('grow' as const), bytes: fc.uint8Array({ minLength: 1, maxLength: 40 }) }),
);

function damaged(encoded: string, change: { kind: string; at?: number; mask?: number; bytes?: Uint8Array }): string {
  const bytes = Buffer.from(encoded, 'base64url');
  if (change.kind === 'flip') bytes[change.at! % bytes.length] ^= change.mask!;
  if (change.kind === 'cut') return bytes.subarray(0, change.at! % bytes.length).toString('base64url');
  if (change.kind === 'grow') return Buffer.concat([bytes, change.bytes!]).toString('base64url');
  return bytes.toString('base64url');
}

/** Every rejection must be a PasskeyError; a few mutations are harmless (e.g. rawId set to id) and may pass. */
async function onlyPasskeyErrors(run: () => Promise<unknown>): Promise<void> {
  try {
    await run();
  } catch (error) {
    if (!(error instanceof PasskeyError)) throw new Error(`not a PasskeyError: ${String(error)}`);
  }
}

describe('hostile passkey responses end as PasskeyError, never another error', () => {
  let kit: PasskeyKit;
  let registration: { challenge: string; response: RegistrationResponseJSON };
  let assertion: { challenge: string; response: AuthenticationResponseJSON };
  beforeAll(async () => {
    kit = await passkeyKit();
    const passkeys = kit.t.container.passkeys;
    const created = await passkeys.registrationOptions({ rp: { id: RP.rpId, name: 'x' }, userHandle: passkeys.newUserHandle(), userName: 'u', displayName: 'u', excludeCredentialIds: [] });
    registration = { challenge: created.challenge, response: await kit.newAuthenticator().create(created.options, { origin: RP.origin }) };
    const { authenticator } = await kit.register(await kit.newUser());
    const requested = await passkeys.authenticationOptions({ rpId: RP.rpId });
    assertion = { challenge: requested.challenge, response: await authenticator.get(requested.options, { origin: RP.origin }) };
  });
  afterAll(async () => kit.t.close());

  const registrationFields = ['id', 'rawId', 'type', 'response', 'response.clientDataJSON', 'response.attestationObject', 'response.transports', 'authenticatorAttachment', 'clientExtensionResults'];
  const assertionFields = ['id', 'rawId', 'type', 'response', 'response.clientDataJSON', 'response.authenticatorData', 'response.signature', 'response.userHandle', 'authenticatorAttachment'];
  const binaryOf = (fields: string[]) => fields.filter((f) => /clientDataJSON|attestationObject|authenticatorData|signature/.test(f));

  it('registration: any field replaced by hostile JSON, or its bytes damaged', async () => {
    const verify = (response: unknown) => kit.t.container.passkeys.verifyRegistration({ response, expectedChallenge: registration.challenge, rp: RP });
    const good = registration.response as unknown as Json;
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...registrationFields), hostileJson(), async (field, value) => onlyPasskeyErrors(() => verify(withPath(good, field, value)))),
      { numRuns: RUNS },
    );
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...binaryOf(registrationFields)), damage, async (field, change) => {
        // A `none` attestation signs nothing: damage outside the checked parts (AAGUID, counter, an
        // unknown clientData key, bytes after the CBOR) may verify; everything else must be a PasskeyError.
        await onlyPasskeyErrors(() => verify(withPath(good, field, damaged(get(good, field) as string, change))));
      }),
      { numRuns: RUNS },
    );
    await fc.assert(fc.asyncProperty(hostileJson(), async (value) => {
        await expect(verify(value)).rejects.toBeInstanceOf(PasskeyError);
      }), { numRuns: RUNS });
  });

  it('authentication: any field replaced by hostile JSON, or its bytes damaged; nothing is recorded', async () => {
    const verify = (response: unknown) =>
      kit.t.container.passkeys.verifyAuthentication({ projectId: kit.projectId, response, expectedChallenge: assertion.challenge, rp: RP });
    const good = assertion.response as unknown as Json;
    const before = await kit.t.container.db.selectFrom('passkeys').select(['credential_row_id', 'sign_count']).execute();
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...binaryOf(assertionFields)), damage, async (field, change) => {
        await expect(verify(withPath(good, field, damaged(get(good, field) as string, change)))).rejects.toBeInstanceOf(PasskeyError);
      }),
      { numRuns: RUNS },
    );
    await fc.assert(fc.asyncProperty(hostileJson(), async (value) => {
        await expect(verify(value)).rejects.toBeInstanceOf(PasskeyError);
      }), { numRuns: RUNS });
    expect(await kit.t.container.db.selectFrom('passkeys').select(['credential_row_id', 'sign_count']).execute()).toEqual(before);
    // Last, field replacements: a harmless one (rawId = id) may verify and move the counter.
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...assertionFields), hostileJson(), async (field, value) => onlyPasskeyErrors(() => verify(withPath(good, field, value)))),
      { numRuns: RUNS },
    );
  });
});
