import type { TestApp } from '../../test/helpers/app.js';
import { exchangeSession, userSession } from '../oauth/testing.js';
import type { OperatorRole } from './service.js';

/** The system project with a usable secret (rotated once per app: the API never shows it). */
const systems = new WeakMap<TestApp, Promise<{ id: string; project_secret: string; preview_secret: string }>>();

export function systemProjectOf(t: TestApp): Promise<{ id: string; project_secret: string; preview_secret: string }> {
  let found = systems.get(t);
  if (!found) {
    found = (async () => {
      const id = await t.container.operators.systemProject();
      const { project_secret } = await t.container.projects.rotateSecret(id);
      return { id, project_secret, preview_secret: '' };
    })();
    systems.set(t, found);
  }
  return found;
}

export interface Operator {
  userId: string;
  sessionId: string;
  /** A real access token of the system project (RFC 8693 exchange of the user's session). */
  accessToken: string;
}

/**
 * A user of the system project, signed in, with an access token from the real token endpoint,
 * and the roles given (through the service; the routes are tested on their own).
 */
export async function operator(t: TestApp, roles: Array<{ role: OperatorRole; projectId?: string }> = []): Promise<Operator> {
  const system = await systemProjectOf(t);
  const session = await userSession(t, system);
  const exchanged = await exchangeSession(t, session);
  if (exchanged.statusCode !== 200) throw new Error(`exchange: ${exchanged.body}`);
  for (const { role, projectId } of roles) await t.container.operators.grant(session.userId, role, projectId);
  return { userId: session.userId, sessionId: session.sessionId, accessToken: exchanged.json().access_token };
}
