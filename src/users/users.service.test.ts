import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/helpers/app.js';

/** The service functions other domains (sessions, flows, userinfo) call. */
describe('user services', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t.close());

  it('gives every new project a default user schema', async () => {
    const project = await t.createProject();
    const schema = await t.container.schemas.defaultFor(project.id);
    expect(schema).toBeDefined();
    expect(schema!.objectType).toBe('user');
    expect(schema!.model.authMethods.password).toBe(true);
    expect(schema!.model.properties.find((p) => p.path === 'email')).toMatchObject({ unique: 'project', claim: 'email', audit: true });
    expect(await t.container.schemas.resolve(project.id, schema!.id)).toMatchObject({ id: schema!.id });
    expect(await t.container.schemas.resolve(project.id, schema!.uri)).toMatchObject({ id: schema!.id });
    const other = await t.createProject();
    expect(await t.container.schemas.resolve(other.id, schema!.id)).toBeUndefined();
    expect(await t.container.schemas.resolve(other.id, schema!.uri)).toBeUndefined();
  });

  it('creates users, finds them by normalised identifier, and maps claims and profile', async () => {
    const project = await t.createProject();
    const schema = (await t.container.schemas.defaultFor(project.id))!;
    const user = await t.container.users.create(project.id, {
      schema: schema.id,
      attributes: { email: 'Ada.Lovelace@Example.com', name: { given: 'Ada', family: 'Lovelace' } },
    });
    expect(user.id).toMatch(/^usr_/);
    const found = await t.container.users.findByIdentifier(project.id, undefined, '  ada.lovelace@EXAMPLE.com ');
    expect(found?.id).toBe(user.id);
    expect((await t.container.users.findByIdentifier(project.id, schema.uri, 'ada.lovelace@example.com'))?.id).toBe(user.id);
    expect(await t.container.users.findByIdentifier(project.id, undefined, 'nobody@example.com')).toBeUndefined();
    const other = await t.createProject();
    expect(await t.container.users.findByIdentifier(other.id, undefined, 'ada.lovelace@example.com')).toBeUndefined();
    expect(await t.container.users.claims(user)).toEqual({
      sub: user.id,
      email: 'Ada.Lovelace@Example.com',
      email_verified: false,
      given_name: 'Ada',
      family_name: 'Lovelace',
      name: 'Ada Lovelace',
    });
    expect(await t.container.users.profile(user)).toEqual({ name: 'Ada Lovelace', email: 'Ada.Lovelace@Example.com' });
    expect((await t.container.users.get(project.id, user.id)).attributes).toEqual(user.attributes);
  });

  it('sets and verifies passwords with argon2id', async () => {
    const project = await t.createProject();
    const schema = (await t.container.schemas.defaultFor(project.id))!;
    const user = await t.container.users.create(project.id, { schema: schema.id, attributes: { email: 'pw@example.com' } });
    expect(await t.container.passwords.verify(project.id, user.id, 'anything at all')).toBe(false);
    await t.container.passwords.setPassword(project.id, user.id, 'correct horse battery staple');
    const row = await t.container.db.selectFrom('credentials').selectAll().where('user_id', '=', user.id).executeTakeFirstOrThrow();
    expect(row.method).toBe('password');
    expect(row.secret).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(await t.container.passwords.verify(project.id, user.id, 'correct horse battery staple')).toBe(true);
    expect(await t.container.passwords.verify(project.id, user.id, 'correct horse battery stapler')).toBe(false);
    const other = await t.createProject();
    expect(await t.container.passwords.verify(other.id, user.id, 'correct horse battery staple')).toBe(false);
    expect(await t.container.passwords.dummyVerify()).toBe(false);
  });
});
