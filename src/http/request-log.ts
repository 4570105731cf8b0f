import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';
import { loggableRequest } from './log-redaction.js';

/**
 * One access-log line per request instead of Fastify's two (`incoming request` + `request
 * completed`): the same fields (method, URL, remote address, status, response time, reqId) for
 * half the serialisation and half the writes at the default level `info`. Every line Fastify
 * writes about a request names its URL through `loggableRequest` (only allow-listed query values,
 * src/http/log-redaction.ts), whichever logger the app was given.
 */
export class OneLineRequestLog extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (this.isLogDisabled(request)) return;
    const req = loggableRequest(request);
    if (error) reply.log.error({ req, res: reply, err: error, responseTime: reply.elapsedTime }, 'request errored');
    else reply.log.info({ req, res: reply, responseTime: reply.elapsedTime }, 'request completed');
  }

  override defaultErrorLog(error: Error, request: FastifyRequest, reply: FastifyReply): void {
    if (this.isLogDisabled(request)) return;
    if (reply.statusCode >= 500) reply.log.error({ req: loggableRequest(request), res: reply, err: error }, error?.message);
    else reply.log.info({ res: reply, err: error }, error?.message);
  }

  override writeHeadError(error: Error, request: FastifyRequest, reply: FastifyReply): void {
    if (this.isLogDisabled(request)) return;
    reply.log.warn({ req: loggableRequest(request), res: reply, err: error }, error?.message);
  }

  override routeNotFound(request: FastifyRequest): void {
    if (this.isLogDisabled(request)) return;
    request.log.info(`Route ${request.method}:${loggableRequest(request).url} not found`);
  }
}
