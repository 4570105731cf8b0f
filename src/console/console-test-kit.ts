import type { LightMyRequestResponse } from 'fastify';
import type { TestApp } from '../../test/helpers/app.js';
import type { OperatorRole } from '../operators/service.js';
import { operator } from '../operators/testing.js';

/** The `name=value` of the cookies an answer sets (the empty ones are deletions and left out). */
export function cookiesOf(response: LightMyRequestResponse): Record<string, string> {
  return Object.fromEntries(response.cookies.filter((c) => c.value !== '').map((c) => [c.name, c.value]));
}

export const cookieHeader = (cookies: Record<string, string>) => Object.entries(cookies).map(([name, value]) => `${name}=${value}`).join('; ');

export interface ConsoleBrowser {
  userId: string;
  /** the operator's Gatehouse session and its token (the hosted pages' cookie `__service_session`) */
  sessionId: string;
  sessionToken: string;
  /** the `cookie` header of a browser signed in to the console */
  cookie: string;
  get(url: string): Promise<LightMyRequestResponse>;
  /** a same-origin form post, as the console's pages send them */
  post(url: string, form?: Record<string, string | string[]>): Promise<LightMyRequestResponse>;
}

/**
 * A browser signed in to the console as a new operator with the roles given: the operator's
 * Gatehouse session (a password and a TOTP code: AAL2) answers the console's authorization
 * request at once, as after a hosted sign-in. `origin` is the app's public URL (the console's form posts must come from it).
 */
export async function consoleBrowser(t: TestApp, roles: Array<{ role: OperatorRole; projectId?: string }>, origin: string): Promise<ConsoleBrowser> {
  const signedIn = await operator(t, roles);
  const started = await t.app.inject({ method: 'GET', url: '/console/login' });
  const authorize = new URL(String(started.headers.location));
  const authorized = await t.app.inject({ method: 'GET', url: authorize.pathname + authorize.search, headers: { cookie: `__service_session=${signedIn.sessionToken}` } });
  const callback = new URL(String(authorized.headers.location));
  const answered = await t.app.inject({ method: 'GET', url: callback.pathname + callback.search, headers: { cookie: cookieHeader(cookiesOf(started)) } });
  if (answered.statusCode !== 303) throw new Error(`console callback: ${answered.statusCode} ${answered.body.slice(0, 300)}`);
  const cookie = cookieHeader(cookiesOf(answered));
  return {
    userId: signedIn.userId,
    sessionId: signedIn.sessionId,
    sessionToken: signedIn.sessionToken,
    cookie,
    get: (url) => t.app.inject({ method: 'GET', url, headers: { cookie } }),
    post: (url, form = {}) => {
      const body = new URLSearchParams();
      for (const [name, value] of Object.entries(form)) for (const one of [value].flat()) body.append(name, one);
      return t.app.inject({ method: 'POST', url, headers: { cookie, origin, 'content-type': 'application/x-www-form-urlencoded' }, payload: body.toString() });
    },
  };
}
