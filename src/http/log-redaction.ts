import type { FastifyRequest } from 'fastify';
import { pino, type DestinationStream, type Logger } from 'pino';

/**
 * The query parameters whose values may reach a log line (DESIGN §4.6a "Logs hold no
 * credentials"): ids, choices and public addresses that Gatehouse's own routes take, none of
 * which proves anything. Every other value is written as `[redacted]`, whatever its name: a
 * deny-list missed `id_token_hint`, `access_token`, `subject_token` and whatever a client puts
 * in a URL next. Names stay, so an operator sees which parameters came.
 */
export const LOGGABLE_PARAMS: ReadonlySet<string> = new Set([
  // Which project, flow, client, page, resource.
  'project_id', 'team_id', 'user_id', 'session_id', 'authorization_id', 'flow', 'purpose', 'app_id', 'client_id', 'done', 'confirm', 'revisions',
  // Languages.
  'lang', 'ui_locales',
  // OAuth / OpenID Connect choices (never `state`, `nonce`, `code`, hints or tokens).
  'response_type', 'response_mode', 'scope', 'prompt', 'max_age', 'display', 'acr_values', 'code_challenge_method', 'error', 'error_description',
  // Lists: page size and cursor (a position in a list, not a credential).
  'limit', 'page_token',
  // Where the browser returns: logged, but their own queries pass this list too (`?code=` of a callback).
  'redirect_uri', 'post_logout_redirect_uri', 'return_to', 'resume_uri',
]);

/** Allow-listed parameters whose value is a URL that can carry a query of its own. */
const URL_PARAMS: ReadonlySet<string> = new Set(['redirect_uri', 'post_logout_redirect_uri', 'return_to', 'resume_uri']);

export const REDACTED = '[redacted]';

/** A parameter name as the log keeps it; anything longer or stranger may be a value sent as a name. */
const NAME = /^[A-Za-z0-9_.\-[\]]{1,40}$/;

function decoded(text: string): string | undefined {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return undefined;
  }
}

/**
 * A URL as the request log writes it: the path, and each query parameter by name with its value
 * only when the name is on `LOGGABLE_PARAMS` (a URL-valued one passes through this again); a
 * fragment is dropped. `depth` bounds URLs nested in URLs.
 */
export function loggableUrl(url: string, depth = 0): string {
  const hash = url.indexOf('#');
  const whole = hash < 0 ? url : url.slice(0, hash);
  const fragment = hash < 0 || hash === url.length - 1 ? '' : `#${REDACTED}`;
  const mark = whole.indexOf('?');
  if (mark < 0) return whole + fragment;
  const query = whole.slice(mark + 1);
  const parts = query.split('&').map((part) => {
    const eq = part.indexOf('=');
    const name = eq < 0 ? part : part.slice(0, eq);
    const value = eq < 0 ? undefined : part.slice(eq + 1);
    if (part === '') return part;
    // A part without `=` may be a value sent bare (`/cb?<token>`): only a listed name stays.
    if (!NAME.test(name) || (value === undefined && !LOGGABLE_PARAMS.has(name))) return REDACTED;
    if (value === undefined || value === '') return part;
    if (!LOGGABLE_PARAMS.has(name)) return `${name}=${REDACTED}`;
    if (!URL_PARAMS.has(name)) return part;
    const inner = decoded(value);
    if (inner === undefined || depth >= 2) return `${name}=${REDACTED}`;
    const safe = loggableUrl(inner, depth + 1);
    return safe === inner ? part : `${name}=${encodeURIComponent(safe).replaceAll('%5Bredacted%5D', REDACTED)}`;
  });
  return `${whole.slice(0, mark)}?${parts.join('&')}${fragment}`;
}

// The safety net over whole log lines: `?name=value`, `&name=value` or `#name=value` (a
// fragment's `access_token`), also percent-encoded
// inside another URL's parameter (`redirect_uri=https%3A%2F%2Fapp%2Fcb%3Fcode%3D...`). A value
// ends where the parameter, the URL or the JSON string does.
const PARAM = /((?:[?&#]|%3F|%26|%23)((?:(?!%3D|%26|%3F|%23)[^=&?#\s"\\])+)(?:=|%3D))((?:(?!%26|%23)[^&#\s"\\])*)/gi;
const ENCODED_SEPARATOR = /%(?:3F|26|23)/i;

/** Whether `text` holds `?`, `&`, `#` or their percent forms: four plain scans first, since almost no line has any. */
function mayHoldParams(text: string): boolean {
  return text.includes('?') || text.includes('&') || text.includes('#') || (text.includes('%') && ENCODED_SEPARATOR.test(text));
}

/**
 * `text` with the value of every query parameter not on `LOGGABLE_PARAMS` replaced by
 * `[redacted]`, wherever in the text a URL stands; an allowed value is searched in turn, so a
 * callback URL inside `redirect_uri` loses its `code`. Text without `?`, `&`, `#` (or their
 * percent forms) returns at once: the common line costs four plain scans (`mayHoldParams`).
 */
export function redactCredentials(text: string): string {
  if (!mayHoldParams(text)) return text;
  return text.replace(PARAM, (_match, prefix: string, name: string, value: string) => {
    if (value === '') return prefix;
    return LOGGABLE_PARAMS.has(name) ? prefix + redactCredentials(value) : prefix + REDACTED;
  });
}

/** What the access log writes as `req` (a class, so that the logger's serializer can tell it from a request). */
class LoggedRequest {
  constructor(
    readonly method: string,
    readonly url: string | undefined,
    readonly version: string | string[] | undefined,
    readonly host: string,
    readonly remoteAddress: string,
    readonly remotePort: number | undefined,
  ) {}
}

/**
 * What the access log writes as `req`: Fastify's usual fields, with the URL through `loggableUrl`.
 * Given what it returned before, it returns that as it is: the access log hands the logger a
 * `LoggedRequest` (so that any logger an app is given writes no credentials), and the process
 * logger's `req` serializer, which is this function, would otherwise read `ip` and `socket` off
 * it, which it does not have, and drop the client's address from every line.
 */
export function loggableRequest(request: Pick<FastifyRequest, 'method' | 'url' | 'headers' | 'host' | 'ip' | 'socket'> | LoggedRequest): LoggedRequest {
  if (request instanceof LoggedRequest) return request;
  return new LoggedRequest(
    request.method,
    typeof request.url === 'string' ? loggableUrl(request.url) : undefined,
    request.headers?.['accept-version'],
    request.host,
    request.ip,
    request.socket?.remotePort,
  );
}

/**
 * The process logger. `req`, however logged (the access log, Fastify's own error lines), goes
 * through `loggableRequest`; and every serialised line passes `redactCredentials` before it is
 * written, so a URL logged by any module (an error's message, a redirect target, a library's
 * line) loses its credentials too.
 */
export function createLogger(level: string, destination: DestinationStream = bufferedStdout()): Logger {
  return pino({ level, serializers: { req: loggableRequest }, hooks: { streamWrite: redactCredentials } }, destination);
}

/** Standard output written at once: for a line that must not wait or be lost (the generated admin token before a start that may fail). */
export function immediateStdout(): DestinationStream {
  return pino.destination({ dest: 1, sync: true });
}

/**
 * Standard output, written in batches: a write per log line (three per sign-in journey) cost
 * about as much CPU as a database round trip. Lines wait at most `periodicFlush` ms or until 4 KiB
 * gather; pino flushes what is left synchronously when the process exits.
 */
function bufferedStdout(): DestinationStream {
  return pino.destination({ dest: 1, sync: false, minLength: 4096, periodicFlush: 200 });
}
