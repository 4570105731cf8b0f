import type { FastifyError, FastifyInstance } from 'fastify';
import { AppError, type ErrorDetails } from '../core/errors.js';
import { isConnectionError } from '../db/engine.js';
import { isDataException } from '../db/sql.js';

/** The RFC 6749 / 6750 / 7009 / 8693 / 8628 error names; the Gatehouse code is `oauth.<name>`. */
export type OAuthErrorName =
  | 'invalid_request'
  | 'invalid_client'
  | 'invalid_grant'
  | 'unauthorized_client'
  | 'unsupported_grant_type'
  | 'invalid_scope'
  | 'unsupported_token_type'
  | 'invalid_token'
  | 'insufficient_scope'
  | 'access_denied'
  | 'unsupported_response_type'
  | 'invalid_target'
  | 'authorization_pending'
  | 'slow_down'
  | 'expired_token';

export function oauthError(name: OAuthErrorName, description: string, details: ErrorDetails = {}, headers: Record<string, string> = {}): AppError {
  return new AppError(`oauth.${name}`, description, details, headers);
}

/** RFC 6750 §3: the challenge a resource answers with when the access token is missing or bad. */
export function invalidToken(description = 'The access token is unknown, expired or revoked.'): AppError {
  return oauthError('invalid_token', description, {}, {
    'www-authenticate': `Bearer realm="gatehouse", error="invalid_token", error_description="${description}"`,
  });
}

export function missingToken(): AppError {
  // RFC 6750 §3.1: a request without any credential gets the challenge without an error code.
  return oauthError('invalid_token', 'The request lacks an access token.', {}, { 'www-authenticate': 'Bearer realm="gatehouse"' });
}

export function insufficientScope(scope: string): AppError {
  return oauthError('insufficient_scope', `The access token lacks the "${scope}" scope.`, { required_scope: scope }, {
    'www-authenticate': `Bearer realm="gatehouse", error="insufficient_scope", scope="${scope}"`,
  });
}

/** What the error name is when a non-OAuth error reaches an /auth route. */
function rfcName(code: string, status: number): string {
  if (code.startsWith('oauth.')) return code.slice('oauth.'.length);
  if (status >= 500) return code === 'unavailable' ? 'temporarily_unavailable' : 'server_error';
  if (status === 401) return 'invalid_client';
  // A per-IP budget (the device authorization endpoint's): RFC 6749 §4.1.2.1's name for "try again later".
  if (status === 429) return 'temporarily_unavailable';
  return 'invalid_request';
}

function asAppError(error: FastifyError): AppError {
  if (error instanceof AppError) return error;
  if (error.validation) {
    const context = error.validationContext ?? 'body';
    const errors = error.validation.map((issue) => ({ path: `${context}${issue.instancePath}`, message: issue.message ?? 'is invalid' }));
    return oauthError('invalid_request', 'The request is invalid.', { errors });
  }
  if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return new AppError('req.too_large', 'The request body is too large.');
  if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
    return oauthError('invalid_request', 'The request body must be application/x-www-form-urlencoded.', {
      content_type: 'application/x-www-form-urlencoded',
    });
  }
  if (isConnectionError(error)) return new AppError('unavailable', 'The service is temporarily unavailable.', {}, { 'retry-after': '5' });
  if (isDataException(error)) {
    // e.g. a NUL byte in a parameter that reaches a text column: the client's mistake, not ours.
    return oauthError('invalid_request', 'A parameter contains characters the service cannot store.', {
      errors: [{ path: 'request', message: 'contains characters or numbers the database cannot store (such as NUL)' }],
    });
  }
  const status = error.statusCode ?? 500;
  if (status >= 400 && status < 500) return oauthError('invalid_request', error.message || 'The request is invalid.');
  return new AppError('internal', 'An internal error occurred.');
}

/**
 * Errors of the /auth routes carry both vocabularies: the RFC fields standard clients read
 * (`error`, `error_description`) and Gatehouse's `{code, message, details}`.
 */
export function registerOAuthErrors(app: FastifyInstance): void {
  app.setErrorHandler((raw: FastifyError, request, reply) => {
    const error = asAppError(raw);
    if (error.status >= 500) request.log.error({ err: raw, request_id: request.id }, 'oauth request failed');
    const details = error.code === 'internal' ? { request_id: request.id } : error.details;
    void reply
      .status(error.status)
      .headers({ 'cache-control': 'no-store', pragma: 'no-cache', ...error.headers })
      .type('application/json; charset=utf-8')
      .send({
        error: rfcName(error.code, error.status),
        error_description: error.message,
        code: error.code,
        message: error.message,
        details,
      });
  });
}
