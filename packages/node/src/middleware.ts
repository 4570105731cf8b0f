import type { IncomingMessage, ServerResponse } from 'node:http';
import { GatehouseError, type Session } from '@gatehouse/client';
import type { Gatehouse } from './gatehouse.js';

export interface RequireSessionOptions {
  /** the assurance level the route needs: `urn:nist:aal:2` (or `2`) */
  aal?: 1 | 2 | `urn:nist:aal:${1 | 2}`;
  /** the app's own session cookie (default `gatehouse_session`); `Authorization: Bearer` works too */
  cookieName?: string;
}

export interface ErrorBody {
  code: string;
  message: string;
  details: Record<string, unknown>;
}

export type AuthOutcome =
  | { ok: true; session: Session; token: string }
  | { ok: false; status: 401 | 403 | 503; body: ErrorBody; headers: Record<string, string> };

export const DEFAULT_COOKIE = 'gatehouse_session';

/** One cookie's value from a Cookie header; a malformed header yields nothing (never a throw). */
export function cookieFrom(header: string | undefined, name: string): string | undefined {
  if (typeof header !== 'string' || header.length > 16_384) return undefined;
  for (const part of header.split(';')) {
    const at = part.indexOf('=');
    if (at < 0 || part.slice(0, at).trim() !== name) continue;
    const raw = part.slice(at + 1).trim();
    try {
      return decodeURIComponent(raw);
    } catch {
      return undefined;
    }
  }
  return undefined;
}

function tokenOf(headers: IncomingMessage['headers'], cookieName: string): string | undefined {
  const authorization = headers.authorization;
  if (typeof authorization === 'string') return /^Bearer ([^\s]+)$/i.exec(authorization)?.[1];
  return cookieFrom(headers.cookie, cookieName);
}

const levelOf = (aal: RequireSessionOptions['aal']) => (aal === undefined ? undefined : typeof aal === 'number' ? `urn:nist:aal:${aal}` : aal);

/**
 * The decision every adapter shares: 401 without an active session, 403 naming the missing level
 * (so a frontend can start a step-up flow with `session_id`), 503 when Gatehouse cannot answer.
 */
export async function authenticate(gatehouse: Gatehouse, headers: IncomingMessage['headers'], options: RequireSessionOptions = {}): Promise<AuthOutcome> {
  const token = tokenOf(headers, options.cookieName ?? DEFAULT_COOKIE);
  let session: Session | undefined;
  try {
    session = await gatehouse.verifySession(token);
  } catch (error) {
    const retry = error instanceof GatehouseError && error.retryAfterSeconds !== undefined ? String(error.retryAfterSeconds) : '1';
    return { ok: false, status: 503, headers: { 'retry-after': retry }, body: { code: 'unavailable', message: 'The sign-in service cannot be reached; try again shortly.', details: {} } };
  }
  if (!session || token === undefined) {
    return { ok: false, status: 401, headers: { 'www-authenticate': 'Bearer realm="app"' }, body: { code: 'auth.unauthorized', message: 'Sign in first.', details: {} } };
  }
  const required = levelOf(options.aal);
  if (required && !session.assurance_levels.includes(required)) {
    return {
      ok: false,
      status: 403,
      headers: {},
      body: {
        code: 'auth.forbidden',
        message: `This needs a stronger sign-in (${required}).`,
        details: { required_assurance_level: required, assurance_levels: session.assurance_levels, session_id: session.session_id },
      },
    };
  }
  return { ok: true, session, token };
}

/** What the adapters put on the request. */
export interface SessionContext {
  session: Session;
  token: string;
}

type ExpressRequest = IncomingMessage & { gatehouse?: SessionContext };
type ExpressResponse = ServerResponse & { status(code: number): ExpressResponse; set(headers: Record<string, string>): ExpressResponse; json(body: unknown): unknown };

export type Denied = Extract<AuthOutcome, { ok: false }>;

/**
 * Express middleware: `app.get('/account', requireSession(gatehouse, { aal: 2 }), handler)`;
 * `req.gatehouse.session` afterwards. A refusal answers JSON (401/403/503) unless `onDenied`
 * takes over, e.g. to send a browser to the sign-in page or to a step-up.
 */
export function requireSession<Req extends IncomingMessage = IncomingMessage, Res extends ServerResponse = ServerResponse>(
  gatehouse: Gatehouse,
  options: RequireSessionOptions & { onDenied?: (denied: Denied, request: Req, response: Res) => void } = {},
) {
  return (request: Req, response: Res, next: (error?: unknown) => void): void => {
    authenticate(gatehouse, request.headers, options).then((outcome) => {
      if (!outcome.ok) {
        if (options.onDenied) return options.onDenied(outcome, request, response);
        (response as unknown as ExpressResponse).status(outcome.status).set({ ...outcome.headers, 'cache-control': 'no-store' }).json(outcome.body);
        return;
      }
      (request as ExpressRequest).gatehouse = { session: outcome.session, token: outcome.token };
      next();
    }, next);
  };
}

/** Fastify `preHandler`: `app.get('/account', { preHandler: fastifyRequireSession(gatehouse) }, handler)`; `request.gatehouse.session`. */
export function fastifyRequireSession(gatehouse: Gatehouse, options: RequireSessionOptions = {}) {
  return async (
    request: { headers: IncomingMessage['headers']; gatehouse?: SessionContext },
    reply: { code(status: number): { headers(values: Record<string, string>): { send(body: unknown): unknown } } },
  ): Promise<unknown> => {
    const outcome = await authenticate(gatehouse, request.headers, options);
    if (!outcome.ok) return reply.code(outcome.status).headers({ ...outcome.headers, 'cache-control': 'no-store' }).send(outcome.body);
    request.gatehouse = { session: outcome.session, token: outcome.token };
    return undefined;
  };
}

/** Plain node:http: `http.createServer(withSession(gatehouse, (req, res) => …, { aal: 2 }))`; `req.gatehouse.session`. */
export function withSession(
  gatehouse: Gatehouse,
  handler: (request: IncomingMessage & { gatehouse: SessionContext }, response: ServerResponse) => unknown,
  options: RequireSessionOptions = {},
) {
  return async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const outcome = await authenticate(gatehouse, request.headers, options);
    if (!outcome.ok) {
      response.writeHead(outcome.status, { ...outcome.headers, 'content-type': 'application/json', 'cache-control': 'no-store' }).end(JSON.stringify(outcome.body));
      return;
    }
    await handler(Object.assign(request, { gatehouse: { session: outcome.session, token: outcome.token } }), response);
  };
}

/** The app's session cookie for a token from `exchangeHandoff` (HttpOnly, SameSite=Lax, Secure on https, ends with the session). */
export function sessionCookie(token: string, session: Session, options: { secure: boolean; cookieName?: string; now?: number }): string {
  const maxAge = Math.max(0, Math.floor((Date.parse(session.expires_at) - (options.now ?? Date.now())) / 1000));
  return `${options.cookieName ?? DEFAULT_COOKIE}=${encodeURIComponent(token)}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${maxAge}${options.secure ? '; Secure' : ''}`;
}

/** Clears the app's session cookie. */
export function clearSessionCookie(options: { secure: boolean; cookieName?: string }): string {
  return `${options.cookieName ?? DEFAULT_COOKIE}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0${options.secure ? '; Secure' : ''}`;
}
