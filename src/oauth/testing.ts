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
