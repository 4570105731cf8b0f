/**
 * The service's public URL (GATEHOUSE_PUBLIC_URL) is the only base of the links, callbacks and
 * identifiers Gatehouse hands out (DESIGN §4.8). It is never taken from a request: whoever sends
 * a request would otherwise choose where a victim's sign-in link points.
 */

const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '::1', '[::1]']);

/** `localhost`, `127.x.y.z`, `::1` (bracketed or not) and `*.localhost`. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase();
  return LOOPBACK_NAMES.has(host) || /^127(\.\d{1,3}){3}$/.test(host) || host.endsWith('.localhost');
}

/** The default public URL of a server listening on a loopback `host` and `port`. */
export function loopbackPublicUrl(port: number): string {
  return `http://localhost:${port}`;
}

/** The public URL is one value for the process: its own origins are derived once, not per request. */
let derived: { publicUrl: string; origins: readonly string[] } | undefined;

/**
 * The origins that count as the service's own: the public origin and, when that is a loopback
 * one, its other loopback spellings on the same scheme and port (a developer may open
 * `http://127.0.0.1:8080` as well as `http://localhost:8080`).
 */
export function ownOriginsOf(publicUrl: string): readonly string[] {
  if (derived?.publicUrl !== publicUrl) derived = { publicUrl, origins: originsOf(publicUrl) };
  return derived.origins;
}

function originsOf(publicUrl: string): readonly string[] {
  const url = new URL(publicUrl);
  if (!isLoopbackHost(url.hostname)) return [url.origin];
  const port = url.port === '' ? '' : `:${url.port}`;
  return [...new Set([url.origin, ...['localhost', '127.0.0.1', '[::1]'].map((host) => `${url.protocol}//${host}${port}`)])];
}
