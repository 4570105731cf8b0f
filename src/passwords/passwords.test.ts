import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, errorBody, type TestApp } from '../../test/helpers/app.js';
import { PasswordHasher } from './hasher.js';
import { PasswordService } from './service.js';
import { PasswordStore } from './store.js';

type Project = { id: string; project_secret: string; preview_secret: string };

describe('PUT /users/{id}/password', () => {
  let t: TestApp;
  let project: Project;
  let other: Project;
  const put = (userId: string, payload: unknown, token = project.project_secret) =>
    t.app.inject({ method: 'PUT', url: `/users/${userId}/password`, headers: bearer(token), payload: payload as object });
  const newUser = async (email: string) => {
    const schema = (await t.container.schemas.defaultFor(project.id))!;
    return t.container.users.create(project.id, { schema: schema.id, attributes: { email } });
  };
  const secretOf = async (userId: string) =>
    (await t.container.db.selectFrom('credentials').select('secret').where('user_id', '=', userId).executeTakeFirst())?.secret;

  beforeAll(async () => {
    t = await createTestApp();
    project = await t.createProject();
    other = await t.createProject();
  });
  afterAll(async () => t.close());

  it('sets a password that then verifies, answering an empty 204', async () => {
    const user = await newUser('set@example.com');
    const response = await put(user.id, { password: 'Ünïcødé pässwörd 🦄' });
    expect(response.statusCode).toBe(204);
    expect(response.body).toBe('');
    expect(await secretOf(user.id)).toMatch(/^\$argon2id\$/);
    expect(await t.container.passwords.verify(project.id, user.id, 'Ünïcødé pässwörd 🦄')).toBe(true);
    // NFKC: the decomposed spelling of the same text verifies too.
    expect(await t.container.passwords.verify(project.id, user.id, 'Ünïcødé pässwörd 🦄'.normalize('NFD'))).toBe(true);
    expect(await t.container.passwords.verify(project.id, user.id, 'Ünïcødé pässwörd')).toBe(false);
  });

  it('refuses policy violations with the rule and keeps the old password', async () => {
    const user = await newUser('policy@example.com');
    expect((await put(user.id, { password: 'the original one' })).statusCode).toBe(204);
    const before = await secretOf(user.id);
    const cases: Array<[string, string]> = [
      ['7chars!', 'min_length'],
      ['Zq7!'.repeat(32) + 'x', 'max_length'],
      ['🦄'.repeat(129), 'max_length'],
      ['password1', 'common_password'],
      ['Policy@Example.com', 'matches_identifier'],
    ];
    for (const [password, rule] of cases) {
      const response = await put(user.id, { password });
      expect(response.statusCode, password).toBe(400);
      expect(errorBody(response)).toMatchObject({ code: 'auth.password_policy', details: { rule } });
    }
    expect((await put(user.id, { password: 'Zq7!'.repeat(32) })).statusCode).toBe(204);
    expect((await put(user.id, { password: '8 chars!' })).statusCode).toBe(204);
    expect(await secretOf(user.id)).not.toBe(before);
    const final = await secretOf(user.id);
    for (const payload of [{}, { password: 12345678 }, { password: 'fine password', extra: 1 }]) {
      const response = await put(user.id, payload);
      expect(response.statusCode).toBe(400);
      expect(errorBody(response).code).toBe('req.invalid');
    }
    expect(await secretOf(user.id)).toBe(final);
  });

  it('answers 401, 403 and 404 (other project, unknown user)', async () => {
    const user = await newUser('guarded@example.com');
    expect((await t.app.inject({ method: 'PUT', url: `/users/${user.id}/password`, payload: { password: 'whatever pass' } })).statusCode).toBe(401);
    expect((await put(user.id, { password: 'whatever pass' }, project.preview_secret)).statusCode).toBe(403);
    const foreign = await put(user.id, { password: 'whatever pass' }, other.project_secret);
    expect(foreign.statusCode).toBe(404);
    expect(errorBody(foreign).code).toBe('user.not_found');
    expect((await put('usr_00000000000000000000000000', { password: 'whatever pass' })).statusCode).toBe(404);
    expect(await secretOf(user.id)).toBeUndefined();
  });

  it('refuses passwords for a schema that does not enable them', async () => {
    const schema = await t.container.schemas.create(project.id, {
      type: 'object',
      objectType: 'passkey-only',
      'x-auth-methods': { password: { enabled: false }, passkey: { enabled: true } },
      properties: { email: { type: 'string', 'x-unique': 'project' } },
    });
    const user = await t.container.users.create(project.id, { schema: schema.id, attributes: { email: 'pk@example.com' } });
    const response = await put(user.id, { password: 'a perfectly fine one' });
    expect(response.statusCode).toBe(400);
    expect(errorBody(response)).toMatchObject({ code: 'auth.password_policy', details: { rule: 'method_disabled' } });
  });

  it('rehashes on a successful verify when the parameters changed', async () => {
    const user = await newUser('rehash@example.com');
    const weak = new PasswordService(new PasswordStore(t.container.db), t.container.users, new PasswordHasher({ memoryCost: 8192, timeCost: 1, parallelism: 1 }), t.clock, t.container.ids);
    await weak.setPassword(project.id, user.id, 'old parameters here');
    const old = await secretOf(user.id);
    expect(old).toMatch(/m=8192,t=1,p=1/);
    expect(await t.container.passwords.verify(project.id, user.id, 'wrong parameters here')).toBe(false);
    expect(await secretOf(user.id)).toBe(old);
    expect(await t.container.passwords.verify(project.id, user.id, 'old parameters here')).toBe(true);
    const upgraded = await secretOf(user.id);
    expect(upgraded).toMatch(/m=19456,t=2,p=1/);
    expect(await t.container.passwords.verify(project.id, user.id, 'old parameters here')).toBe(true);
    expect(await secretOf(user.id)).toBe(upgraded);
  });

  it('records password changes in the audit trail without values', async () => {
    const user = await newUser('audited@example.com');
    t.clock.advance(1000);
    await put(user.id, { password: 'first password' });
    t.clock.advance(1000);
    await put(user.id, { password: 'second password' });
    const trail = await t.app.inject({ method: 'GET', url: `/users/${user.id}/audit`, headers: bearer(project.project_secret) });
    expect(trail.statusCode).toBe(200);
    const events = trail.json().events;
    expect(events.map((e: { attribute: string; action: string }) => [e.attribute, e.action])).toEqual([
      ['email', 'set'],
      ['password', 'set'],
      ['password', 'changed'],
    ]);
    expect(events[1].actor).toBe('project_secret');
    expect(trail.body).not.toContain('first password');
    expect(trail.body).not.toContain('audited@example.com');
  });
});
