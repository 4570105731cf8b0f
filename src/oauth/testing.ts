import type { LightMyRequestResponse } from 'fastify';
import type { TestApp } from '../../test/helpers/app.js';

/** RFC 6749 §2.3.1 Basic credentials (form-urlencoded id and secret). */
export function basic(clientId: string, secret: string): { authorization: string } {
  const encode = (value: string) => encodeURIComponent(value).replace(/%20/g, '+');
  return { authorization: `Basic ${Buffer.from(`${encode(clientId)}:${encode(secret)}`).toString('base64')}` };
}

export const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

/** POSTs a form to an /auth endpoint through inject. */
export function postForm(t: TestApp, url: string, form: Record<string, string>, headers: Record<string, string> = {}): Promise<LightMyRequestResponse> {
  return t.app.inject({ method: 'POST', url, headers: { ...FORM, ...headers }, payload: new URLSearchParams(form).toString() });
}

/** Asserts that an OAuth error carries both vocabularies and returns it. */
export function oauthErrorBody(response: LightMyRequestResponse): { error: string; error_description: string; code: string; message: string; details: Record<string, unknown> } {
  const body = response.json();
  for (const field of ['error', 'error_description', 'code', 'message']) {
    if (typeof body[field] !== 'string') throw new Error(`missing ${field} in ${response.body}`);
  }
  if (typeof body.details !== 'object' || body.details === null) throw new Error(`missing details in ${response.body}`);
  return body;
}

export async function serviceKey(t: TestApp, project: { id: string; project_secret: string }, scopes: string[]) {
  const response = await t.app.inject({
    method: 'POST',
    url: `/projects/${project.id}/service_keys`,
    headers: { authorization: `Bearer ${project.project_secret}` },
    payload: { scopes },
  });
  if (response.statusCode !== 201) throw new Error(`service key: ${response.body}`);
  return response.json() as { client_id: string; client_secret: string };
}

export async function clientToken(t: TestApp, clientId: string, secret: string, scope?: string): Promise<string> {
  const response = await postForm(t, '/auth/token', { grant_type: 'client_credentials', ...(scope ? { scope } : {}) }, basic(clientId, secret));
  if (response.statusCode !== 200) throw new Error(`token: ${response.body}`);
  return response.json().access_token;
}

export const TOKEN_EXCHANGE = 'urn:ietf:params:oauth:grant-type:token-exchange';
export const SESSION_TOKEN_TYPE = 'urn:gatehouse:params:oauth:token-type:session_token';

export interface UserSession {
  project: { id: string; project_secret: string; preview_secret: string };
  key: { client_id: string; client_secret: string };
  userId: string;
  sessionId: string;
  sessionToken: string;
}

/** A project with a user signed in: an active session from a real handoff exchange. */
export async function userSession(t: TestApp, existing?: UserSession['project']): Promise<UserSession> {
  const { createUser, handoffFor } = await import('../sessions/test-fixtures.js');
  const project = existing ?? (await t.createProject());
  const userId = await createUser(t, project.id);
  const key = await serviceKey(t, project, ['session.write', 'session.delete', 'session.read']);
  const handoff = await handoffFor(t, project.id, userId);
  const exchanged = await t.app.inject({
    method: 'POST',
    url: `/sessions/exchange?project_id=${project.id}`,
    headers: { authorization: `Bearer ${project.project_secret}` },
    payload: { handoff_token: handoff.token },
  });
  if (exchanged.statusCode !== 200) throw new Error(`exchange: ${exchanged.body}`);
  const body = exchanged.json();
  return { project, key, userId, sessionId: body.session.session_id, sessionToken: body.session_token };
}

/** RFC 8693 exchange of the session token for user tokens. */
export async function exchangeSession(t: TestApp, session: UserSession, extra: Record<string, string> = {}) {
  return postForm(
    t,
    '/auth/token',
    { grant_type: TOKEN_EXCHANGE, subject_token: session.sessionToken, subject_token_type: SESSION_TOKEN_TYPE, ...extra },
    basic(session.key.client_id, session.key.client_secret),
  );
}

/** Signs a registered user in through the default login flow (over inject) and returns the handoff token. */
export async function loginHandoff(t: TestApp, projectId: string, email: string): Promise<string> {
  const { FlowClient, STRONG_PASSWORD } = await import('../flows/flow-test-kit.js');
  const client = new FlowClient(t);
  const started = (await client.start({ project_id: projectId, purpose: 'login' })).json();
  const identified = await client.submit(started.id, 'continue', { email });
  const done = await client.submit(identified.json().id, 'sign_in', { password: STRONG_PASSWORD });
  if (!done.json().handoff_token) throw new Error(`login flow: ${done.body}`);
  return done.json().handoff_token;
}

/** S256 of a verifier, as the client computes it. */
export async function challengeOf(verifier: string): Promise<string> {
  const { createHash } = await import('node:crypto');
  return createHash('sha256').update(verifier).digest('base64url');
}
