import type { FastifyRequest } from 'fastify';
import { pino, type DestinationStream, type Logger } from 'pino';

/**
 * Query parameters that carry a credential: a handoff token on the resume URL, OAuth codes,
 * state, PKCE verifiers, client secrets, tokens a client put in a URL. Their values never reach
 * a log line (issue 20, item 8).
 */
export const CREDENTIAL_PARAMS = ['handoff_token', 'token', 'code', 'state', 'code_verifier', 'client_secret'] as const;

export const REDACTED = '[REDACTED]';

// `?name=value` or `&name=value`, also percent-encoded inside another URL's parameter
// (`redirect_uri=https%3A%2F%2Fapp%2Fcb%3Fcode%3D...`); the value ends where the parameter,
// the URL or the JSON string does.
const PARAM = new RegExp(`((?:[?&]|%3F|%26)(?:${CREDENTIAL_PARAMS.join('|')})(?:=|%3D))(?:(?!%26)[^&\\s"#\\\\])*`, 'gi');

/** `text` with the value of every credential-bearing query parameter replaced by `[REDACTED]`. */
export function redactCredentials(text: string): string {
  return text.replace(PARAM, `$1${REDACTED}`);
}

/** What the access log writes as `req`: Fastify's usual fields, with the URL's credentials redacted. */
export function loggableRequest(request: FastifyRequest) {
  return {
    method: request.method,
    url: redactCredentials(request.url),
    version: request.headers['accept-version'],
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}

/**
 * The process logger: every serialised line passes `redactCredentials` before it is written, so
 * a URL logged by any module (an error's message, a redirect target, a library's line) loses
 * its credentials too, not only the access log's.
 */
export function createLogger(level: string, destination: DestinationStream = bufferedStdout()): Logger {
  return pino({ level, hooks: { streamWrite: redactCredentials } }, destination);
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
