import type { FastifyRequest } from 'fastify';
import { AppError } from '../core/errors.js';
import { ownOriginsOf } from '../core/public-url.js';

/**
 * CSRF defence for cookie-authenticated unsafe requests (DELETE /sessions/me, flow submit),
 * DESIGN §4.5: a request a browser marks as cross-site is refused with 403 `auth.csrf_invalid`.
 *
 * - `Sec-Fetch-Site: same-origin | none` passes (browsers set it; scripts cannot); `cross-site`
 *   fails unless `Origin` is one of `allowedOrigins` (the project's own frontends); `same-site`
 *   passes only when `Origin` is one of the accepted origins.
 * - `Origin` (when sent) must be the service's own origin (`publicUrl`, with its other loopback
 *   spellings when it is a loopback one; never the request's Host) or one of `allowedOrigins`
 *   (e.g. a project's preview origins). `Origin: null` fails.
 * - A request with neither header does not come from a browser's cross-site context (browsers
 *   send `Origin` on every unsafe cross-origin request) and passes.
 */
export interface CsrfOptions {
  /** The public base URL of the service (GATEHOUSE_PUBLIC_URL, or its loopback default). */
  publicUrl: string;
  /** Further origins allowed to send cookie-authenticated unsafe requests. */
  allowedOrigins?: readonly string[];
}

function csrfError(reason: string): AppError {
  return new AppError('auth.csrf_invalid', 'The request was refused as cross-site.', { reason });
}

function originOf(url: string): string | undefined {
  try {
    const parsed = new URL(url);
    return parsed.origin === 'null' ? undefined : parsed.origin;
  } catch {
    return undefined;
  }
}

/** The origins that count as "same origin" for this request. */
export function ownOrigins(options: CsrfOptions): Set<string> {
  const origins = new Set<string>(ownOriginsOf(options.publicUrl));
  for (const allowed of options.allowedOrigins ?? []) {
    const origin = originOf(allowed);
    if (origin) origins.add(origin);
  }
  return origins;
}

function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return typeof value === 'string' ? value.trim() : undefined;
}

/** Throws 403 `auth.csrf_invalid` when the browser says the request is cross-site. */
export function assertSameOrigin(request: FastifyRequest, options: CsrfOptions): void {
  const site = header(request, 'sec-fetch-site')?.toLowerCase();
  const origin = header(request, 'origin');
  // A cross-site request passes only from an origin the project listed itself (`preview_origins`):
  // its own frontend on another site, which CORS lets read the answers too.
  if (site === 'cross-site') {
    const listed = new Set((options.allowedOrigins ?? []).map((allowed) => originOf(allowed)));
    const from = origin !== undefined && origin !== 'null' ? originOf(origin) : undefined;
    if (from !== undefined && listed.has(from)) return;
    throw csrfError('cross-site request');
  }
  // Sec-Fetch-Site cannot be set by page scripts, so the browser's own verdict is trusted.
  if (site === 'same-origin' || site === 'none') return;
  if (origin !== undefined) {
    const normalized = origin === 'null' ? undefined : originOf(origin);
    if (!normalized || !ownOrigins(options).has(normalized)) throw csrfError('origin not allowed');
    return;
  }
  if (site === 'same-site') throw csrfError('same-site request without an allowed origin');
}
