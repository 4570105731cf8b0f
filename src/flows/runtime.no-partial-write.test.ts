import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, errorBody, type TestApp } from '../../test/helpers/app.js';
import { FlowClient } from './flow-test-kit.js';

/**
 * A submit succeeds whole or changes nothing (issue 12 item 2): when the flow's session is gone,
 * a registration must not leave a user behind while it answers an error.
 */
describe('no write before an error', () => {
  let t: TestApp;
  let project: { id: string; project_secret: string };

  beforeAll(async () => {
    t = await createTestApp();
    project = await t.createProject();
  });
  afterAll(async () => t.close());

  const users = async () => (await t.container.db.selectFrom('users').select('id').where('project_id', '=', project.id).execute()).length;

  it('a registration whose session was deleted answers 404 sess.not_found and creates no user', async () => {
    const client = new FlowClient(t);
    const started = await client.start({ project_id: project.id, purpose: 'register' });
    const deleted = await t.app.inject({ method: 'DELETE', url: `/sessions/${started.json().session_id}`, headers: bearer(project.project_secret) });
    expect(deleted.statusCode).toBe(204);
    const before = await users();
    const answer = await client.submit(started.json().id, 'create', { email: 'orphan@example.com', 'name.given': 'O', 'name.family': 'R', password: 'correct horse battery staple 42' });
    expect(answer.statusCode, answer.body).toBe(404);
    expect(errorBody(answer).code).toBe('sess.not_found');
    expect(await users()).toBe(before);
    expect(await t.container.users.findByIdentifier(project.id, undefined, 'orphan@example.com')).toBeUndefined();
  });

  it('a sign-in whose session was deleted answers 404 and writes no attempt or handoff', async () => {
    const register = new FlowClient(t);
    const r = await register.start({ project_id: project.id, purpose: 'register' });
    await register.submit(r.json().id, 'create', { email: 'present@example.com', 'name.given': 'P', 'name.family': 'R', password: 'correct horse battery staple 42' });
    const client = new FlowClient(t);
    const started = await client.start({ project_id: project.id, purpose: 'login' });
    const atPassword = await client.submit(started.json().id, 'continue', { email: 'present@example.com' });
    await t.app.inject({ method: 'DELETE', url: `/sessions/${started.json().session_id}`, headers: bearer(project.project_secret) });
    const attempts = async () => (await t.container.db.selectFrom('auth_attempts').select('id').where('session_id', '=', started.json().session_id).execute()).length;
    const answer = await client.submit(atPassword.json().id, 'sign_in', { password: 'correct horse battery staple 42' });
    expect(answer.statusCode, answer.body).toBe(404);
    expect(errorBody(answer).code).toBe('sess.not_found');
    expect(await attempts()).toBe(0);
  });
});
