import type { LightMyRequestResponse } from 'fastify';
import { bearer, type TestApp } from '../../../test/helpers/app.js';
import { createUser, handoffFor } from '../../sessions/test-fixtures.js';
import { basic, postForm } from '../testing.js';

/** Test support for the device authorization grant (RFC 8628): clients, codes, a signed-in browser, polls. */

export const DEVICE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';
export type Project = { id: string; project_secret: string };
export interface DeviceClient {
  client_id: string;
  client_secret?: string;
  grant_types: string[];
}
export interface DeviceCodes {
  device_code: string;
  user_code: string;
  verification_uri: string;
  verification_uri_complete: string;
  expires_in: number;
  interval: number;
}

export async function registerClient(t: TestApp, project: Project, body: Record<string, unknown>): Promise<LightMyRequestResponse> {
  return t.app.inject({ method: 'POST', url: `/projects/${project.id}/oauth_clients`, headers: bearer(project.project_secret), payload: body });
}

/** A client opted in to the device grant: public by default, device (+ refresh) only, no redirect URIs. */
export async function deviceClient(t: TestApp, project: Project, options: { confidential?: boolean; grantTypes?: string[]; name?: string } = {}): Promise<DeviceClient> {
  const response = await registerClient(t, project, {
    name: options.name ?? 'Living-room TV',
    grant_types: options.grantTypes ?? [DEVICE_GRANT, 'refresh_token'],
    ...(options.confidential ? {} : { token_endpoint_auth_method: 'none' }),
  });
  if (response.statusCode !== 201) throw new Error(`client: ${response.body}`);
  return response.json();
}

/** How the client authenticates a form: Basic for a confidential one, `client_id` for a public one. */
export function clientAuth(client: DeviceClient): { form: Record<string, string>; headers: Record<string, string> } {
  return client.client_secret ? { form: {}, headers: basic(client.client_id, client.client_secret) } : { form: { client_id: client.client_id }, headers: {} };
}

export async function requestCodes(t: TestApp, client: DeviceClient, extra: Record<string, string> = {}, headers: Record<string, string> = {}): Promise<LightMyRequestResponse> {
  const auth = clientAuth(client);
  return postForm(t, '/auth/device_authorization', { ...auth.form, ...extra }, { ...auth.headers, ...headers });
}

export async function deviceCodes(t: TestApp, client: DeviceClient, extra: Record<string, string> = {}): Promise<DeviceCodes> {
  const response = await requestCodes(t, client, extra);
  if (response.statusCode !== 200) throw new Error(`device_authorization: ${response.body}`);
  return response.json();
}

export async function poll(t: TestApp, client: DeviceClient, deviceCode: string): Promise<LightMyRequestResponse> {
  const auth = clientAuth(client);
  return postForm(t, '/auth/token', { grant_type: DEVICE_GRANT, device_code: deviceCode, ...auth.form }, auth.headers);
}

/** A user of the project signed in (a real handoff exchange): the browser's `__service_session`. */
export async function signedIn(t: TestApp, project: Project, factors: Array<{ method: string }> = [{ method: 'password' }]): Promise<{ userId: string; sessionId: string; sessionToken: string }> {
  const userId = await createUser(t, project.id);
  const handoff = await handoffFor(t, project.id, userId, { factors: factors as never });
  const exchanged = await t.app.inject({ method: 'POST', url: `/sessions/exchange?project_id=${project.id}`, headers: bearer(project.project_secret), payload: { handoff_token: handoff.token } });
  if (exchanged.statusCode !== 200) throw new Error(`exchange: ${exchanged.body}`);
  const body = exchanged.json();
  return { userId, sessionId: body.session.session_id, sessionToken: body.session_token };
}

/** The value of a cookie a response sets, if any. */
export function setCookie(response: LightMyRequestResponse, name: string): string | undefined {
  return response.cookies.find((cookie) => cookie.name === name)?.value;
}

/** A browser without JavaScript: types the code at /ui/device and returns the binding cookie (or the refusing answer). */
export async function typeCode(t: TestApp, userCode: string, headers: Record<string, string> = {}): Promise<{ response: LightMyRequestResponse; binding?: string }> {
  const response = await t.app.inject({
    method: 'POST',
    url: '/ui/device',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    payload: new URLSearchParams({ user_code: userCode }).toString(),
  });
  return { response, binding: setCookie(response, '__gh_device') };
}

export const cookies = (values: Record<string, string | undefined>) => ({
  cookie: Object.entries(values).filter((entry): entry is [string, string] => entry[1] !== undefined).map(([name, value]) => `${name}=${value}`).join('; '),
});

/** The consent page (or where it sends the browser) for the bound request and the signed-in session. */
export async function confirmPage(t: TestApp, binding: string, sessionToken?: string): Promise<LightMyRequestResponse> {
  return t.app.inject({ method: 'GET', url: '/ui/device/confirm', headers: cookies({ __gh_device: binding, __service_session: sessionToken }) });
}

/** Approves or denies from the consent page's form; `request` is the hidden field the page renders. */
export async function decide(t: TestApp, binding: string, sessionToken: string | undefined, decision: 'approve' | 'deny', request = binding, headers: Record<string, string> = {}): Promise<LightMyRequestResponse> {
  return t.app.inject({
    method: 'POST',
    url: '/ui/device/confirm',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...cookies({ __gh_device: binding, __service_session: sessionToken }), ...headers },
    payload: new URLSearchParams({ request, decision }).toString(),
  });
}

/** The whole approval a person makes in a browser: type the code, see the consent, approve (or deny). */
export async function answer(t: TestApp, userCode: string, sessionToken: string, decision: 'approve' | 'deny' = 'approve'): Promise<LightMyRequestResponse> {
  const { binding, response } = await typeCode(t, userCode);
  if (!binding) throw new Error(`typing the code: ${response.statusCode} ${response.body.slice(0, 200)}`);
  const consent = await confirmPage(t, binding, sessionToken);
  if (consent.statusCode !== 200) throw new Error(`consent: ${consent.statusCode} ${String(consent.headers.location)}`);
  return decide(t, binding, sessionToken, decision);
}

/**
 * A person approving (or denying) a device through the hosted pages, as a browser without
 * JavaScript would: the code form, the project's login flow (e-mail, password), back through
 * /ui/device/resume to the consent, and its button. `origin` is the Gatehouse public URL.
 */
export async function approveThroughPages(t: TestApp, origin: string, userCode: string, email: string, password: string, decision: 'approve' | 'deny' = 'approve'): Promise<LightMyRequestResponse> {
  const { PageClient } = await import('../../ui/page-test-kit.js');
  const browser = new PageClient(t);
  browser.origin = origin;
  const form = await browser.open(`/ui/device?user_code=${encodeURIComponent(userCode)}`);
  if (!form.body.includes(`value="${userCode}"`)) throw new Error(`code form: ${form.statusCode}`);
  const typed = await browser.post('/ui/device', { user_code: userCode });
  if (typed.statusCode !== 303) throw new Error(`typing the code: ${typed.statusCode}`);
  const identify = await browser.open(String(typed.headers.location));
  const password$ = await browser.submit(identify, 'continue', { email });
  const done = await browser.submit(password$, 'sign_in', { password });
  const resume = new URL(String(done.headers.location));
  if (resume.pathname !== '/ui/device/resume') throw new Error(`sign-in ended at ${done.statusCode} ${resume.href}`);
  const consent = await browser.open(`${resume.pathname}${resume.search}`);
  const request = /name="request" value="([^"]+)"/.exec(consent.body)?.[1];
  if (consent.statusCode !== 200 || !request) throw new Error(`consent: ${consent.statusCode}`);
  return browser.post('/ui/device/confirm', { request, decision });
}
