import { AppError } from './errors.js';

/**
 * The one rule for redirect allow-lists (DESIGN §4.6a "Allow-lists are exact"): flow settings'
 * `redirect_uris` and OAuth clients' redirect URIs are compared character for character, so
 * every entry must be one absolute URL that means exactly itself: no wildcard, no userinfo, no
 * fragment, and only http(s) (clients may also register RFC 8252 private-use schemes).
 */
export interface RedirectUriRule {
  /** `com.example.app:/cb` (a scheme with a dot, RFC 8252 §7.1), for native OAuth clients. */
  privateUseSchemes: boolean;
  /** Plain http only on localhost / 127.0.0.1 / [::1] (OAuth clients); otherwise http and https. */
  httpOnlyOnLoopback: boolean;
}

/** Flow settings: absolute http(s) URLs of the project's own frontends. */
export const WEB_REDIRECTS: RedirectUriRule = { privateUseSchemes: false, httpOnlyOnLoopback: false };
/** OAuth clients: https, loopback http (development, native apps) or a private-use scheme. */
export const CLIENT_REDIRECTS: RedirectUriRule = { privateUseSchemes: true, httpOnlyOnLoopback: true };

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);
const PRIVATE_USE_SCHEME = /^[a-z][a-z0-9+.-]*\.[a-z0-9+.-]+:$/;

/** Why `value` cannot be an allow-list entry, or undefined when it can. */
export function redirectUriProblem(value: string, rule: RedirectUriRule): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'is not an absolute URI';
  }
  if (value.includes('#')) return 'must not contain a fragment';
  // `https://*.example.com/` parses (a `*` is a valid host character), but matches exactly one
  // host literally named so: refused, so nobody believes it is a pattern. `%2A` decodes to `*`.
  if (value.includes('*') || url.hostname.includes('*')) return 'must not contain a wildcard: entries are compared exactly';
  if (url.username !== '' || url.password !== '' || /^[^:]+:\/\/[^/?#]*@/.test(value)) return 'must not contain userinfo (user:password@)';
  if (url.protocol === 'https:') return undefined;
  if (url.protocol === 'http:') {
    return !rule.httpOnlyOnLoopback || LOOPBACK.has(url.hostname) ? undefined : 'must use https (http only on a loopback host)';
  }
  if (rule.privateUseSchemes) {
    return PRIVATE_USE_SCHEME.test(url.protocol) ? undefined : 'must use https, loopback http, or a private-use scheme such as com.example.app:';
  }
  return 'must be an http(s) URL';
}

/** `{path, message}` for every refused entry of `values`, as `details.errors` lists them. */
export function redirectUriErrors(values: readonly string[], path: string, rule: RedirectUriRule): Array<{ path: string; message: string }> {
  return values.flatMap((value, index) => {
    const problem = redirectUriProblem(value, rule);
    return problem === undefined ? [] : [{ path: `${path}/${index}`, message: `"${value}" ${problem}` }];
  });
}

/** Throws 400 `req.invalid` naming each refused entry. */
export function assertRedirectUris(values: readonly string[] | undefined, path: string, rule: RedirectUriRule): void {
  const errors = redirectUriErrors(values ?? [], path, rule);
  if (errors.length > 0) throw new AppError('req.invalid', 'The redirect allow-list is invalid: entries must be exact URLs.', { errors });
}

/** `http://127.0.0.1:PORT/rest` or `http://[::1]:PORT/rest` split into host, port and the exact rest. */
const LOOPBACK_IP_URI = /^http:\/\/(127\.0\.0\.1|\[::1\])(?::(\d{1,5}))?([/?][^#]*)?$/;

/**
 * Whether a client's registered redirect URI admits `given`: character for character, except that
 * RFC 8252 §7.3 lets native apps on a loopback IP literal (not `localhost`, §8.3) use any port,
 * since the OS picks it at run time. Host, path and query must still match exactly.
 */
export function clientRedirectMatches(registered: string, given: string): boolean {
  if (registered === given) return true;
  const want = LOOPBACK_IP_URI.exec(registered);
  const got = LOOPBACK_IP_URI.exec(given);
  if (!want || !got) return false;
  const port = got[2] === undefined ? 80 : Number(got[2]);
  if (!(port >= 1 && port <= 65535) || (got[2] !== undefined && got[2].startsWith('0'))) return false;
  return want[1] === got[1] && (want[3] ?? '') === (got[3] ?? '');
}
