import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/helpers/app.js';
import { SELF } from '../events/types.js';

/** What a registration flow does: a user and its password together, or neither. */
describe('registration with a password', () => {
  let t: TestApp;
  let projectId: string;
  const count = async (table: 'users' | 'credentials') =>
    Number((await t.container.db.selectFrom(table).select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow()).n);

  beforeAll(async () => {
    t = await createTestApp();
    projectId = (await t.createProject()).id;
  });
  afterAll(async () => t.close());

  it('creates the user and its password in one go', async () => {
    const schema = (await t.container.schemas.defaultFor(projectId))!;
    const user = await t.container.passwords.createUserWithPassword(projectId, { schema: schema.uri, attributes: { email: 'reg@example.com' } }, 'registered password', { actor: SELF });
    expect(await t.container.passwords.verify(projectId, user.id, 'registered password')).toBe(true);
    expect(await t.container.passwords.hasPassword(projectId, user.id)).toBe(true);
  });

  it('reports bad attributes before the password, and a bad password before writing anything', async () => {
    const schema = (await t.container.schemas.defaultFor(projectId))!;
    const users = await count('users');
    const credentials = await count('credentials');
    await expect(
      t.container.passwords.createUserWithPassword(projectId, { schema: schema.id, attributes: { email: 'not an email' } }, 'short'),
    ).rejects.toMatchObject({ code: 'user.invalid' });
    await expect(
      t.container.passwords.createUserWithPassword(projectId, { schema: schema.id, attributes: { email: 'ok@example.com' } }, 'short'),
    ).rejects.toMatchObject({ code: 'auth.password_policy', details: { rule: 'min_length' } });
    await expect(
      t.container.passwords.createUserWithPassword(projectId, { schema: schema.id, attributes: { email: 'REG@example.com' } }, 'another fine password'),
    ).rejects.toMatchObject({ code: 'user.already_exists' });
    expect(await count('users')).toBe(users);
    expect(await count('credentials')).toBe(credentials);
  });

  it('works inside a caller transaction with nothing cached (no read escapes the transaction)', async () => {
    const fresh = await t.container.schemas.create(projectId, {
      type: 'object',
      objectType: 'fresh',
      'x-auth-methods': { password: { enabled: true } },
      properties: { login: { type: 'string', 'x-unique': 'project' } },
    });
    const team = await t.container.teams.create(projectId, 'Registrations');
    const userId = await t.container.db.transaction().execute(async (trx) => {
      const user = await t.container.users.create(projectId, { schema: fresh.uri, attributes: { login: 'inside' } }, { trx, teamId: team.id });
      await t.container.passwords.setPassword(projectId, user.id, 'inside a transaction', { trx });
      return user.id;
    });
    expect(await t.container.passwords.verify(projectId, userId, 'inside a transaction')).toBe(true);

    // A caller that catches the 409 inside its transaction keeps no half-created user.
    const kept = await count('users');
    await t.container.db.transaction().execute(async (trx) => {
      await expect(t.container.users.create(projectId, { schema: fresh.id, attributes: { login: 'INSIDE' } }, { trx })).rejects.toMatchObject({
        code: 'user.already_exists',
      });
    });
    expect(await count('users')).toBe(kept);

    const before = await count('users');
    await expect(
      t.container.db.transaction().execute(async (trx) => {
        const user = await t.container.users.create(projectId, { schema: fresh.id, attributes: { login: 'rolled back' } }, { trx });
        await t.container.passwords.setPassword(projectId, user.id, 'password', { trx });
      }),
    ).rejects.toMatchObject({ code: 'auth.password_policy' });
    expect(await count('users')).toBe(before);
  });
});
