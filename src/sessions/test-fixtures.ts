import type { TestApp } from '../../test/helpers/app.js';
import { createCompletedAttempt } from '../attempts/testing.js';
import type { VerifiedFactorInput } from '../attempts/service.js';

/** Test fixtures of the sessions domain: users, completed attempts, handoff tokens. */
export interface Fixture {
  project: { id: string; project_secret: string; preview_secret: string };
  userId: string;
}

let counter = 0;

export async function projectWithUser(t: TestApp, name = { given: 'Ada', family: 'Lovelace' }): Promise<Fixture> {
  const project = await t.createProject();
  const userId = await createUser(t, project.id, name);
  return { project, userId };
}

export async function createUser(t: TestApp, projectId: string, name = { given: 'Ada', family: 'Lovelace' }): Promise<string> {
  const schema = await t.container.schemas.defaultFor(projectId);
  if (!schema) throw new Error('project has no default schema');
  const user = await t.container.users.create(projectId, {
    schema: schema.id,
    attributes: { email: `user${++counter}-${Date.now()}@example.com`, name },
  });
  return user.id;
}

/** A completed attempt plus its handoff token (through the service, as flows will mint it). */
export async function handoffFor(
  t: TestApp,
  projectId: string,
  userId: string,
  options: { sessionId?: string; factors?: Array<Omit<VerifiedFactorInput, 'userId'>> } = {},
): Promise<{ attemptId: string; token: string; expiresAt: string }> {
  const attempt = await createCompletedAttempt(t.container.attempts, projectId, userId, options);
  const handoff = await t.container.attempts.handoff(projectId, attempt.id);
  return { attemptId: attempt.id, token: handoff.handoff_token, expiresAt: handoff.handoff_token_expires_at };
}

export const sessionCookie = (token: string) => ({ cookie: `__service_session=${token}` });
