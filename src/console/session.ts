import type { FastifyReply, FastifyRequest } from 'fastify';
import type { SealedBox } from '../core/sealed-box.js';
import { cookieValue, needsSecure } from '../http/cookies.js';

/** The operator's console session: their access token, sealed, in an HttpOnly cookie on /console only. */
export const CONSOLE_COOKIE = '_zconsole';
/** The sign-in in progress (PKCE verifier, state, nonce, a set-up token), for ten minutes. */
export const CONSOLE_LOGIN_COOKIE = '_zconsole_login';
export const LOGIN_TTL_MS = 10 * 60 * 1000;
/**
 * How long the console cookie lasts without a request: each refresh stores it anew. The operator's
 * Gatehouse session bounds it too (its refresh token ends with the session).
 */
export const SESSION_TTL_MS = 60 * 60 * 1000;

export interface ConsoleSession {
  /** the system project's access token of the console client */
  accessToken: string;
  /** when the access token ends (ms since the epoch): the console refreshes it then */
  expiresAt: number;
  /** the refresh token (rotated on each use; it ends with the operator's Gatehouse session) */
  refreshToken: string;
  /** the operator's newest factor (seconds since the epoch), for the step-up of destructive actions */
  authTime: number;
  /** the operator's user id (the id token's `sub`) */
  userId: string;
  /** the id token, for the sign-out at /auth/logout */
  idToken: string;
  /** the session's assurance when signing in (`urn:nist:aal:2` unless a set-up signed up with a password alone) */
  acr?: string;
}

export interface LoginState {
  /** when the sign-in started (ms since the epoch): the sealed value itself expires, not only the cookie */
  startedAt: number;
  verifier: string;
  state: string;
  nonce: string;
  /** a set-up token: the user who signs up becomes the first instance admin */
  setup?: string;
  /** the console page to return to (a path under /console) */
  next?: string;
}

/**
 * Strict and scoped to /console: no other page of the origin, and no cross-site request, ever
 * carries the operator's token. `Secure` unless plain-http loopback, like every Gatehouse cookie.
 */
function setConsoleCookie(request: FastifyRequest, reply: FastifyReply, name: string, value: string, maxAgeMs: number): void {
  void reply.setCookie(name, value, { httpOnly: true, sameSite: 'strict', path: '/console', secure: needsSecure(request), maxAge: Math.max(0, Math.floor(maxAgeMs / 1000)) });
}

/** The sealed cookies of the console; a cookie no key opens, or of the wrong shape, reads as absent. */
export class ConsoleCookies {
  constructor(private readonly box: SealedBox) {}

  private read<T>(request: FastifyRequest, name: string, valid: (value: Record<string, unknown>) => boolean): T | undefined {
    const sealed = cookieValue(request, name);
    if (!sealed || sealed.length > 8192) return undefined;
    const plain = this.box.open(sealed);
    if (plain === undefined) return undefined;
    try {
      const value = JSON.parse(plain) as Record<string, unknown> & { kind?: unknown };
      return value && typeof value === 'object' && value.kind === name && valid(value) ? (value as T) : undefined;
    } catch {
      return undefined;
    }
  }

  /** The console session, its access token possibly expired (the caller refreshes it); undefined past SESSION_TTL_MS. */
  session(request: FastifyRequest, now: Date): ConsoleSession | undefined {
    const session = this.read<ConsoleSession & { storedAt: number }>(
      request,
      CONSOLE_COOKIE,
      (v) => typeof v.accessToken === 'string' && typeof v.refreshToken === 'string' && typeof v.expiresAt === 'number' && typeof v.userId === 'string' && typeof v.storedAt === 'number',
    );
    return session && now.getTime() - session.storedAt < SESSION_TTL_MS ? session : undefined;
  }

  login(request: FastifyRequest, now: Date): LoginState | undefined {
    const login = this.read<LoginState>(request, CONSOLE_LOGIN_COOKIE, (v) => typeof v.startedAt === 'number' && typeof v.verifier === 'string' && typeof v.state === 'string' && typeof v.nonce === 'string');
    return login && now.getTime() - login.startedAt < LOGIN_TTL_MS ? login : undefined;
  }

  setSession(request: FastifyRequest, reply: FastifyReply, session: ConsoleSession, now: Date): void {
    const sealed = this.box.seal(JSON.stringify({ kind: CONSOLE_COOKIE, ...session, storedAt: now.getTime() }));
    setConsoleCookie(request, reply, CONSOLE_COOKIE, sealed, SESSION_TTL_MS);
  }

  setLogin(request: FastifyRequest, reply: FastifyReply, login: LoginState): void {
    setConsoleCookie(request, reply, CONSOLE_LOGIN_COOKIE, this.box.seal(JSON.stringify({ kind: CONSOLE_LOGIN_COOKIE, ...login })), LOGIN_TTL_MS);
  }

  clear(request: FastifyRequest, reply: FastifyReply, name: typeof CONSOLE_COOKIE | typeof CONSOLE_LOGIN_COOKIE): void {
    setConsoleCookie(request, reply, name, '', 0);
  }
}
