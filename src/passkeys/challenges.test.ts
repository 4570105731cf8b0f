import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testConfig } from '../config.js';
import { systemClock } from '../core/clock.js';
import { randomIds } from '../core/ids.js';
import { KeyRing } from '../core/keys.js';
import { passkeyKit, RP, type PasskeyKit } from './passkey-test-kit.js';
import { PasskeyService } from './service.js';
import { PasskeyStore } from './store.js';

describe('passkey challenges and fake credential ids', () => {
  let kit: PasskeyKit;
  beforeAll(async () => {
    kit = await passkeyKit();
  });
  afterAll(async () => kit.t.close());

  const service = () => kit.t.container.passkeys;
  const inFiveMinutes = () => new Date(kit.t.clock.now().getTime() + 5 * 60_000);

  it('consumes a challenge exactly once, even with 20 concurrent calls', async () => {
    const { challenge } = await service().authenticationOptions({ rpId: RP.rpId });
    const results = await Promise.all(Array.from({ length: 20 }, () => service().consumeChallenge(kit.projectId, challenge, inFiveMinutes())));
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(await service().consumeChallenge(kit.projectId, challenge, inFiveMinutes())).toBe(false);
    // Another challenge is its own.
    expect(await service().consumeChallenge(kit.projectId, (await service().authenticationOptions({ rpId: RP.rpId })).challenge, inFiveMinutes())).toBe(true);
  });

  it('draws every challenge fresh: 32 random bytes, none repeated', async () => {
    const drawn = await Promise.all(Array.from({ length: 200 }, (_, i) =>
      i % 2 === 0
        ? service().authenticationOptions({ rpId: RP.rpId }).then((o) => [o.challenge, o.options.challenge])
        : service().registrationOptions({ rp: { id: RP.rpId, name: 'Test' }, userHandle: 'aGFuZGxl', userName: 'u', displayName: 'U', excludeCredentialIds: [] }).then((o) => [o.challenge, o.options.challenge]),
    ));
    for (const [challenge, inOptions] of drawn) {
      expect(inOptions).toBe(challenge);
      expect(Buffer.from(challenge, 'base64url')).toHaveLength(32);
    }
    expect(new Set(drawn.map(([challenge]) => challenge)).size).toBe(drawn.length);
  });

  it('stores a hash, never the challenge, and sweeps records whose challenge expired', async () => {
    const challenge = 'sweep-me-challenge';
    expect(await service().consumeChallenge(kit.projectId, challenge, inFiveMinutes())).toBe(true);
    const rows = await kit.t.container.db.selectFrom('webauthn_used_challenges').selectAll().execute();
    expect(JSON.stringify(rows)).not.toContain(challenge);
    expect(await service().deleteExpiredChallenges()).toBe(0);
    kit.t.clock.advance(5 * 60_000 + 1);
    expect(await service().deleteExpiredChallenges()).toBeGreaterThanOrEqual(1);
    expect(await kit.t.container.db.selectFrom('webauthn_used_challenges').selectAll().execute()).toEqual([]);
  });

  it('gives stable fake ids per (project, identifier) that look like real ones and reveal nothing', async () => {
    const fake = service().fakeCredentialIds(kit.projectId, 'nobody@example.com');
    expect(fake).toHaveLength(1);
    expect(fake[0].id).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(service().fakeCredentialIds(kit.projectId, 'nobody@example.com')).toEqual(fake);
    expect(service().fakeCredentialIds(kit.projectId, '  NOBODY@example.com ')).toEqual(fake);
    expect(service().fakeCredentialIds(kit.projectId, 'somebody@example.com')).not.toEqual(fake);
    expect(service().fakeCredentialIds((await kit.t.createProject()).id, 'nobody@example.com')).not.toEqual(fake);
    // Another process with the same secret derives the same list; another secret does not.
    const otherProcess = (secret: Buffer) =>
      new PasskeyService({ store: new PasskeyStore(kit.t.container.db), keys: new KeyRing([secret]), clock: systemClock, ids: randomIds, logger: pino({ level: 'silent' }), users: kit.t.container.users });
    expect(otherProcess(testConfig().secrets[0]).fakeCredentialIds(kit.projectId, 'nobody@example.com')).toEqual(fake);
    expect(otherProcess(Buffer.from('another-secret-another-secret-0123456789')).fakeCredentialIds(kit.projectId, 'nobody@example.com')).not.toEqual(fake);
    // Options built from fake ids have the shape of a real user's.
    const userId = await kit.newUser();
    await kit.register(userId);
    const real = await service().authenticationOptions({ rpId: RP.rpId, allowCredentialIds: await service().credentialsFor(kit.projectId, userId) });
    const pretend = await service().authenticationOptions({ rpId: RP.rpId, allowCredentialIds: fake });
    expect(Object.keys(pretend.options).sort()).toEqual(Object.keys(real.options).sort());
    expect(pretend.options.allowCredentials).toHaveLength(real.options.allowCredentials!.length);
  });
});
