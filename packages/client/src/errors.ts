import type { components } from './generated/openapi.js';

/** Every code the service answers (`{code, message, details}`), generated from its OpenAPI document. */
export type ErrorCode = components['schemas']['ErrorBody']['code'];

/** `api`: the service answered an error; `network`: no answer (refused, reset, DNS); `timeout`: no answer in time. */
export type ErrorKind = 'api' | 'network' | 'timeout';

/**
 * What every failed call throws: typed by `code`, with a retry hint. Network failures and
 * timeouts become this too, so a caller handles one type and never sees a raw rejection.
 */
export class GatehouseError extends Error {
  override readonly name = 'GatehouseError';
  readonly kind: ErrorKind;
  /** the service's code; `network` / `timeout` when it did not answer */
  readonly code: ErrorCode | 'network' | 'timeout';
  /** the HTTP status (undefined without an answer) */
  readonly status: number | undefined;
  readonly details: Record<string, unknown>;
  /** whether the same call may succeed later (429, 502-504, 503 `unavailable`, network, timeout) */
  readonly retryable: boolean;
  /** seconds to wait before retrying, from `Retry-After` when the service sent one */
  readonly retryAfterSeconds: number | undefined;

  constructor(init: { kind: ErrorKind; code: GatehouseError['code']; message: string; status?: number; details?: Record<string, unknown>; retryAfterSeconds?: number; cause?: unknown }) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.kind = init.kind;
    this.code = init.code;
    this.status = init.status;
    this.details = init.details ?? {};
    this.retryAfterSeconds = init.retryAfterSeconds;
    this.retryable = init.kind !== 'api' || init.status === 429 || (init.status !== undefined && init.status >= 502 && init.status <= 504);
  }
}

/** Narrows an unknown error to a GatehouseError, optionally of one code: `if (isGatehouseError(e, 'user.not_found'))`. */
export function isGatehouseError<C extends GatehouseError['code']>(error: unknown, code?: C): error is GatehouseError & { code: C } {
  return error instanceof GatehouseError && (code === undefined || error.code === code);
}

function retryAfter(response: Response): number | undefined {
  const value = response.headers.get('retry-after');
  if (value === null) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - Date.now()) / 1000));
}

/** The error an answer with a non-2xx status means; a body that is not the service's shape still yields one. */
export function errorFromResponse(response: Response, body: unknown): GatehouseError {
  const shaped = body && typeof body === 'object' ? (body as { code?: unknown; message?: unknown; details?: unknown; error?: unknown; error_description?: unknown }) : {};
  // OAuth endpoints answer RFC 6749 bodies ({error, error_description}); name them like the rest.
  const code = typeof shaped.code === 'string' ? shaped.code : typeof shaped.error === 'string' ? `oauth.${shaped.error}` : response.status >= 500 ? 'internal' : 'req.invalid';
  const message = typeof shaped.message === 'string' ? shaped.message : typeof shaped.error_description === 'string' ? shaped.error_description : `HTTP ${response.status}`;
  const details = shaped.details && typeof shaped.details === 'object' ? (shaped.details as Record<string, unknown>) : {};
  return new GatehouseError({ kind: 'api', code: code as ErrorCode, message, status: response.status, details, retryAfterSeconds: retryAfter(response) });
}

/** A fetch failure (no answer) as a GatehouseError. */
export function errorFromFailure(error: unknown, timedOut: boolean): GatehouseError {
  const message = error instanceof Error ? error.message : String(error);
  return timedOut
    ? new GatehouseError({ kind: 'timeout', code: 'timeout', message: 'Gatehouse did not answer in time.', cause: error })
    : new GatehouseError({ kind: 'network', code: 'network', message: `Gatehouse could not be reached: ${message}`, cause: error });
}
