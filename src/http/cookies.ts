import type { CookieSerializeOptions } from '@fastify/cookie';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { isLoopbackHost } from '../core/public-url.js';

/** `localhost:8080` -> `localhost`, `[::1]:80` -> `[::1]`. */
function hostnameOf(host: string): string {
  if (host.startsWith('[')) return host.slice(0, host.indexOf(']') + 1);
  return host.split(':')[0].toLowerCase();
}

/**
 * `Secure` is dropped only for plain HTTP on a loopback host (local development); everywhere else
 * a cookie is never sent over an unencrypted connection.
 */
export function needsSecure(request: FastifyRequest): boolean {
  if (request.protocol === 'https') return true;
  return !isLoopbackHost(hostnameOf(request.host ?? ''));
}

/**
 * The attributes every Gatehouse cookie carries: `HttpOnly; SameSite=Lax; Path=/; Max-Age=<n>`
 * and `Secure` unless plain-http loopback. `maxAgeSeconds` is rounded down and never negative.
 */
export function cookieOptions(request: FastifyRequest, maxAgeSeconds: number): CookieSerializeOptions {
  const crossSite = crossSiteFrontend(request);
  return {
    httpOnly: true,
    sameSite: crossSite ? 'none' : 'lax',
    path: '/',
    maxAge: Math.max(0, Math.floor(maxAgeSeconds)),
    secure: crossSite || needsSecure(request),
  };
}

/**
 * A browser-plane request (a CORS route that named its project) from a frontend on another site,
 * over https: its cookies must be `SameSite=None; Secure`, or the browser would not send them back
 * from that site. Plain http keeps Lax (browsers refuse None without Secure). Which origins may
 * read the answers and write is still decided per project (CORS and the CSRF check).
 */
function crossSiteFrontend(request: FastifyRequest): boolean {
  return request.protocol === 'https' && request.corsProjectId !== undefined && request.headers['sec-fetch-site'] === 'cross-site';
}

/** Sets a cookie that lives until `expiresAt` (Max-Age counted from `now`). */
export function setCookieUntil(request: FastifyRequest, reply: FastifyReply, name: string, value: string, now: Date, expiresAt: Date): void {
  void reply.setCookie(name, value, cookieOptions(request, (expiresAt.getTime() - now.getTime()) / 1000));
}

/** Deletes a cookie in the browser: empty value, `Max-Age=0`, same path and attributes. */
export function clearCookie(request: FastifyRequest, reply: FastifyReply, name: string): void {
  void reply.setCookie(name, '', cookieOptions(request, 0));
}

/** A cookie's value as sent by the client, or undefined when absent or empty. */
export function cookieValue(request: FastifyRequest, name: string): string | undefined {
  const value = request.cookies?.[name];
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}
