import type { TestApp } from '../../test/helpers/app.js';
import { challengeOf, postForm } from '../oauth/testing.js';
import { createUser, handoffFor } from '../sessions/test-fixtures.js';
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
  /** A real access token of the system project, issued to the console's client. */
  accessToken: string;
  /** The operator's Gatehouse session token (the hosted pages' session cookie). */
  sessionToken: string;
}

/**
 * A user of the system project, signed in, with an access token from the real token endpoint,
 * and the roles given (through the service; the routes are tested on their own).
 */
export async function operator(t: TestApp, roles: Array<{ role: OperatorRole; projectId?: string }> = []): Promise<Operator> {
  const system = await systemProjectOf(t);
  const userId = await createUser(t, system.id);
  // A password and a TOTP code: AAL2, as the console asks of operators.
  const handoff = await handoffFor(t, system.id, userId, { factors: [{ method: 'password' }, { method: 'totp' }] });
  const exchanged = await t.app.inject({ method: 'POST', url: `/sessions/exchange?project_id=${system.id}`, headers: { authorization: `Bearer ${system.project_secret}` }, payload: { handoff_token: handoff.token } });
  if (exchanged.statusCode !== 200) throw new Error(`exchange: ${exchanged.body}`);
  const { session, session_token: sessionToken } = exchanged.json() as { session: { session_id: string }; session_token: string };
  for (const { role, projectId } of roles) await t.container.operators.grant(userId, role, projectId);
  return { userId, sessionId: session.session_id, sessionToken, accessToken: await consoleAccessToken(t, sessionToken) };
}

/**
 * An access token of the console's client for the signed-in system-project user whose session
 * token is given, as the console gets one: authorization code + PKCE, the live session answering
 * the authorization request at once. Only such tokens are operator credentials.
 */
export async function consoleAccessToken(t: TestApp, sessionToken: string): Promise<string> {
  const client = await t.container.consoleAccess.consoleClient();
  const verifier = 'operator-test-verifier-'.padEnd(64, 'v');
  const query = new URLSearchParams({ response_type: 'code', client_id: client.clientId, redirect_uri: client.redirectUri, scope: 'openid', state: 's', code_challenge: await challengeOf(verifier), code_challenge_method: 'S256' });
  const authorized = await t.app.inject({ method: 'GET', url: `/auth/authorize?${query}`, headers: { cookie: `__service_session=${sessionToken}` } });
  const code = new URL(String(authorized.headers.location)).searchParams.get('code');
  if (!code) throw new Error(`authorize: ${authorized.statusCode} ${authorized.headers.location}`);
  const token = await postForm(t, '/auth/token', { grant_type: 'authorization_code', code, redirect_uri: client.redirectUri, client_id: client.clientId, code_verifier: verifier });
  if (token.statusCode !== 200) throw new Error(`token: ${token.body}`);
  return token.json().access_token;
}
