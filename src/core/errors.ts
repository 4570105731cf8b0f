/**
 * The one error type services throw. The HTTP layer turns it into `{code, message, details}`
 * with the status of DESIGN §4.1; the status is derived from the code so the two never drift.
 */
export type ErrorDetails = Record<string, unknown>;

const STATUS_BY_CODE: Record<string, number> = {
  'req.invalid': 400,
  'att.invalid_request': 400,
  'enc_key.decrypt_failed': 400,
  'flow.invalid_action': 400,
  'flow.validation_failed': 400,
  'flow.invalid_credentials': 400,
  'flow.code_exhausted': 400,
  'flow.sso_failed': 400,
  'user.invalid': 400,
  'sch.invalid': 400,
  'flowdef.invalid': 400,
  'sess.invalid_ttl': 400,
  'auth.password_policy': 400,
  'auth.unauthorized': 401,
  'auth.forbidden': 403,
  'auth.csrf_invalid': 403,
  'proj.not_found': 404,
  'team.not_found': 404,
  'user.not_found': 404,
  'sch.not_found': 404,
  'flowdef.not_found': 404,
  'sess.not_found': 404,
  'att.not_found': 404,
  'flow.not_found': 404,
  'key.not_found': 404,
  'cred.not_found': 404,
  'sso.not_found': 404,
  'saml.not_found': 404,
  'route.not_found': 404,
  'asset.not_found': 404,
  'req.method_not_allowed': 405,
  'att.already_handed_off': 409,
  'att.not_completed': 409,
  'att.invalid_state': 409,
  'req.idempotency_conflict': 409,
  'user.already_exists': 409,
  'sch.already_exists': 409,
  'team.already_exists': 409,
  'team.in_use': 409,
  'user.no_address': 409,
  'flowdef.in_use': 409,
  'saml.domain_taken': 409,
  'flowdef.last_active': 409,
  'flow.expired': 410,
  'req.precondition_failed': 412,
  'flow.completed': 410,
  'link.invalid': 410,
  'req.too_large': 413,
  'req.unsupported_media_type': 415,
  'req.timeout': 408,
  'req.headers_too_large': 431,
  'auth.rate_limited': 429,
  // OAuth2 / OIDC plane: the RFC error name after `oauth.`.
  'oauth.invalid_request': 400,
  'oauth.invalid_client': 401,
  'oauth.invalid_grant': 400,
  'oauth.unauthorized_client': 400,
  'oauth.unsupported_grant_type': 400,
  'oauth.invalid_scope': 400,
  'oauth.unsupported_token_type': 400,
  'oauth.unsupported_response_type': 400,
  'oauth.invalid_target': 400,
  // RFC 6749 §5.2 / RFC 8628 §3.5: token endpoint errors are 400, the device grant's included.
  'oauth.access_denied': 400,
  'oauth.authorization_pending': 400,
  'oauth.slow_down': 400,
  'oauth.expired_token': 400,
  'oauth.invalid_token': 401,
  'oauth.insufficient_scope': 403,
  'client.not_found': 404,
  // Operators (docs/operators.md).
  'operator.role_not_found': 404,
  // Webhooks (docs/events.md).
  'webhook.not_found': 404,
  'webhook.delivery_not_found': 404,
  'operator.last_instance_admin': 409,
  'proj.system_project': 409,
  internal: 500,
  unavailable: 503,
};

export function statusForCode(code: string): number {
  return STATUS_BY_CODE[code] ?? 400;
}

export function knownErrorCodes(): Record<string, number> {
  return { ...STATUS_BY_CODE };
}

export class AppError extends Error {
  readonly status: number;
  /** Extra response headers, e.g. Retry-After or WWW-Authenticate. */
  readonly headers: Record<string, string>;

  constructor(
    readonly code: string,
    message: string,
    readonly details: ErrorDetails = {},
    headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'AppError';
    this.status = statusForCode(code);
    this.headers = headers;
  }
}

export const MESSAGES = {
  bearerUnauthorized: 'The request lacks valid authentication credentials.',
  sessionUnauthorized: 'Missing or invalid session token',
  attemptNotFound: 'The auth attempt was not found.',
  alreadyHandedOff:
    'The auth attempt was already handed off; no new handoff can be created and the previous token is only returned with the same retry key.',
  invalidRequest: 'invalid request',
  decryptFailed: 'failed to decrypt data',
} as const;

export const notFound = (code: string, what: string, details: ErrorDetails = {}) =>
  new AppError(code, `${what} was not found.`, details);

const RESOURCE_BY_PREFIX: Record<string, string> = {
  proj: 'The project',
  team: 'The team',
  user: 'The user',
  sch: 'The schema',
  flowdef: 'The flow definition',
  sess: 'The session',
  att: 'The auth attempt',
  flow: 'The flow',
  key: 'The service key',
  saml: 'The SAML provider',
  operator: 'The operator role',
};

export function notFoundMessage(code: string): string {
  if (code === 'att.not_found') return 'The auth attempt was not found.';
  const prefix = code.split('.')[0];
  return `${RESOURCE_BY_PREFIX[prefix] ?? 'The resource'} was not found.`;
}

export function notFoundError(code: string, details: ErrorDetails = {}): AppError {
  return new AppError(code, notFoundMessage(code), details);
}

export const invalid = (message: string, details: ErrorDetails = {}) => new AppError('req.invalid', message, details);
