import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/helpers/app.js';
import { AppError } from '../core/errors.js';
import { PasswordHasher } from './hasher.js';
import { PasswordService } from './service.js';
import { PasswordStore } from './store.js';

const CHEAP = { memoryCost: 1024, timeCost: 1, parallelism: 1 };

async function rejection(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  if (!(error instanceof AppError)) throw new Error(`expected an AppError, got ${String(error)}`);
  return error;
}

describe('argon2 admission (bounded queue)', () => {
  it('runs `concurrency` hashes, queues `maxQueue` more and refuses the next with 429 auth.rate_limited and Retry-After', async () => {
    const hasher = new PasswordHasher(CHEAP, { concurrency: 1, maxQueue: 2 });
    const phc = await hasher.hash('right password');
    expect(hasher.pending).toBe(0);

    const admitted = [hasher.verify(phc, 'right password'), hasher.verify(phc, 'wrong password'), hasher.verify(phc, 'right password')];
    expect(hasher.pending).toBe(3);
    const refused = await rejection(hasher.verify(phc, 'right password'));
    expect(refused.code).toBe('auth.rate_limited');
    expect(refused.status).toBe(429);
    expect(refused.headers['retry-after']).toBe('1');
    await expect(rejection(hasher.hash('another'))).resolves.toMatchObject({ code: 'auth.rate_limited' });

    // Everything admitted completes with its real answer; then the gate is open again.
    expect(await Promise.all(admitted)).toEqual([true, false, true]);
    expect(hasher.pending).toBe(0);
    expect(await hasher.verify(phc, 'right password')).toBe(true);
  });

  it('never runs more than `concurrency` at once: waiting work starts as running work ends', async () => {
    const hasher = new PasswordHasher(CHEAP, { concurrency: 2, maxQueue: 10 });
    const phc = await hasher.hash('pw');
    const all = Array.from({ length: 12 }, (_, i) => hasher.verify(phc, i % 2 === 0 ? 'pw' : 'nope'));
    expect(hasher.pending).toBe(12);
    await expect(rejection(hasher.verify(phc, 'pw'))).resolves.toMatchObject({ code: 'auth.rate_limited' });
    const results = await Promise.all(all);
    expect(results.filter(Boolean)).toHaveLength(6);
    expect(hasher.pending).toBe(0);
  });
});

describe('PasswordService under a full hashing queue', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t.close());

  it('answers 429 instead of "wrong password", and the dummy hash recovers from a refused first attempt', async () => {
    const project = await t.createProject();
    const schema = (await t.container.schemas.defaultFor(project.id))!;
    const user = await t.container.users.create(project.id, { schema: schema.id, attributes: { email: 'queue@example.com' } });
    const hasher = new PasswordHasher(CHEAP, { concurrency: 1, maxQueue: 0 });
    const passwords = new PasswordService(new PasswordStore(t.container.db), t.container.users, hasher, t.clock, t.container.ids);
    await passwords.setPassword(project.id, user.id, 'a long enough Passw0rd!');

    let release!: () => void;
    const gateHolder = hasher.admit(() => new Promise<void>((resolve) => (release = resolve)));
    await expect(rejection(passwords.verify(project.id, user.id, 'a long enough Passw0rd!'))).resolves.toMatchObject({ code: 'auth.rate_limited' });
    // The first dummy verification is refused while it would have created the dummy hash...
    await expect(rejection(passwords.dummyVerify())).resolves.toMatchObject({ code: 'auth.rate_limited' });
    release();
    await gateHolder;
    // ...and is not remembered as a failure.
    expect(await passwords.dummyVerify()).toBe(false);
    expect(await passwords.verify(project.id, user.id, 'a long enough Passw0rd!')).toBe(true);
  });
});
