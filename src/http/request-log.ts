import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';
import { loggableRequest } from './log-redaction.js';

/**
 * One access-log line per request instead of Fastify's two (`incoming request` + `request
 * completed`): the same fields (method, URL, remote address, status, response time, reqId) for
 * half the serialisation and half the writes at the default level `info`. The URL is logged with
 * its credential-bearing query parameters redacted (src/http/log-redaction.ts).
 */
export class OneLineRequestLog extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (this.isLogDisabled(request)) return;
    const req = loggableRequest(request);
    if (error) reply.log.error({ req, res: reply, err: error, responseTime: reply.elapsedTime }, 'request errored');
    else reply.log.info({ req, res: reply, responseTime: reply.elapsedTime }, 'request completed');
  }
}
