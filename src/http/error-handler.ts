import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { maxHeaderSize, STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { AppError } from '../core/errors.js';
import { isConnectionError } from '../db/engine.js';
import { isDataException } from '../db/sql.js';
import { MethodIndex } from './method-not-allowed.js';

interface ValidationIssue {
  instancePath: string;
  keyword: string;
  message?: string;
  params: Record<string, unknown>;
}

/** `body/attributes/email`, or `body/extra` for a property that is not allowed. */
function issuePath(context: string, issue: ValidationIssue): string {
  let path = `${context}${issue.instancePath}`;
  if (issue.keyword === 'additionalProperties') path += `/${String(issue.params.additionalProperty)}`;
  if (issue.keyword === 'required') path += `/${String(issue.params.missingProperty)}`;
  return path;
}

function toAppError(error: FastifyError): AppError {
  if (error instanceof AppError) return error;
  if (error.validation) {
    const context = error.validationContext ?? 'body';
    const errors = (error.validation as ValidationIssue[]).map((issue) => ({
      path: issuePath(context, issue),
      message: issue.message ?? 'is invalid',
      keyword: issue.keyword,
    }));
    return new AppError('req.invalid', 'The request is invalid.', { errors });
  }
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new AppError('req.too_large', 'The request body is too large.', { limit_bytes: 1_048_576 });
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new AppError('req.invalid', 'The request body is not valid JSON.', { errors: [{ path: 'body', message: 'malformed JSON' }] });
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new AppError('req.unsupported_media_type', 'The request content type is not supported.', {
        content_type: 'application/json',
      });
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
    case 'FST_ERR_CTP_INVALID_TYPE':
      return new AppError('req.invalid', 'The request body is invalid.', {});
  }
  if (isConnectionError(error)) {
    return new AppError('unavailable', 'The service is temporarily unavailable.', {}, { 'retry-after': '5' });
  }
  if (isDataException(error)) {
    return new AppError('req.invalid', 'The request contains a value that cannot be stored.', {
      errors: [{ path: 'request', message: 'contains characters or numbers the database cannot store (such as NUL)' }],
    });
  }
  const status = error.statusCode ?? 500;
  if (status >= 400 && status < 500) return new AppError('req.invalid', error.message || 'The request is invalid.', {});
  return new AppError('internal', 'An internal error occurred.', {});
}

/**
 * Errors Fastify raises before routing (bad percent-encoding, a path segment over
 * `maxParamLength`); without this they would answer in Fastify's own shape. Passed to the
 * Fastify constructor as `frameworkErrors`.
 */
export function frameworkErrors(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const message = error.code === 'FST_ERR_MAX_PARAM_LENGTH' ? 'A path segment is too long.' : 'The URL is not valid.';
  void reply
    .status(400)
    .header('x-request-id', request.id)
    .type('application/json; charset=utf-8')
    .send({ code: 'req.invalid', message, details: { errors: [{ path: 'url', message }] } });
}

const CLIENT_ERRORS: Record<string, AppError> = {
  HPE_HEADER_OVERFLOW: new AppError('req.headers_too_large', 'The request headers are too large.', { limit_bytes: maxHeaderSize }),
  ERR_HTTP_REQUEST_TIMEOUT: new AppError('req.timeout', 'The request took too long to arrive.', {}),
};

/**
 * Errors Node's HTTP parser raises before Fastify sees a request (headers over the limit, a
 * request that never finishes, bytes that are not HTTP): answered with the `{code, message,
 * details}` body instead of Fastify's own, then the connection is closed as Node does. Passed to
 * the Fastify constructor as `clientErrorHandler`.
 */
export function clientErrorHandler(error: Error & { code?: string }, socket: Socket): void {
  // A reset connection has nobody left to answer.
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const appError = CLIENT_ERRORS[error.code ?? ''] ?? new AppError('req.invalid', 'The request is not valid HTTP.', {});
  const body = JSON.stringify({ code: appError.code, message: appError.message, details: appError.details });
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${appError.status} ${STATUS_CODES[appError.status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}

/**
 * Call before any route is registered: every route goes into the method index (`onRoute` hooks are
 * inherited by the plugins registered later), so that an unrouted request can tell "no such path"
 * (404 `route.not_found`) from "not with this method" (405 `req.method_not_allowed` with `Allow`).
 */
export function registerErrorHandling(app: FastifyInstance): void {
  const methods = new MethodIndex();
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) methods.add(route.url, method);
  });

  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    const appError = toAppError(error);
    if (appError.status >= 500) {
      request.log.error({ err: error, request_id: request.id }, 'request failed');
    } else if (isDataException(error)) {
      // Answered 400, but kept visible: a route may want to validate this value itself.
      request.log.warn({ err: error, request_id: request.id }, 'database refused a request value');
    }
    const details = appError.code === 'internal' ? { request_id: request.id } : appError.details;
    void reply
      .status(appError.status)
      .headers(appError.headers)
      .type('application/json; charset=utf-8')
      .send({ code: appError.code, message: appError.message, details });
  });

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0];
    const allowed = methods.allowed(request.url);
    // A route that sends its own 404 (reply.callNotFound) lands here with an allowed method.
    if (allowed.length > 0 && !allowed.includes(request.method)) {
      const error = new AppError('req.method_not_allowed', `${request.method} is not allowed on ${path}; allowed: ${allowed.join(', ')}.`, { allowed_methods: allowed }, { allow: allowed.join(', ') });
      void reply.status(error.status).headers(error.headers).type('application/json; charset=utf-8').send({ code: error.code, message: error.message, details: error.details });
      return;
    }
    void reply.status(404).send({
      code: 'route.not_found',
      message: `No route ${request.method} ${path}.`,
      details: {},
    });
  });
}
