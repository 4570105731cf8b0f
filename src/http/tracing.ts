import { context, propagation, SpanKind, SpanStatusCode, trace, type Span } from '@opentelemetry/api';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { looksLikeId } from '../core/ids.js';
import { tracer } from '../core/tracing.js';
import { routeOf } from './route-of.js';

const spans = new WeakMap<FastifyRequest, Span>();

/**
 * The project a request acted in: the one tenancy resolved, or the flow's (the flow routes name it
 * for CORS), or the credential's, else a well-formed `project_id` it named.
 */
function projectOf(request: FastifyRequest): string | undefined {
  if (request.tenantProjectId !== undefined) return request.tenantProjectId;
  const principal = request.principal as { projectId?: unknown } | undefined;
  for (const candidate of [request.corsProjectId, principal?.projectId, (request.query as Record<string, unknown> | undefined)?.project_id, (request.body as Record<string, unknown> | undefined)?.project_id]) {
    if (typeof candidate === 'string' && looksLikeId(candidate, 'proj')) return candidate;
  }
  return undefined;
}

/**
 * One server span per request, named by method and route pattern (a child of the caller's span when
 * it sends a W3C `traceparent`), the parent of every span made
 * while it is served (SQL statements, src/db/traced-pool.ts). Registered first, so that the other
 * hooks (credentials, tenancy) run inside it. Attributes: method, route pattern, status code and
 * project id; never the URL (its query may hold tokens), headers, client address or body.
 * Registered only when tracing is on (src/app.ts).
 */
export function registerRequestSpans(app: FastifyInstance): void {
  const requestTracer = tracer();
  app.addHook('onRequest', (request, _reply, done) => {
    const route = routeOf(request).url ?? 'unmatched';
    // A caller's W3C `traceparent` makes the request part of its trace.
    const parent = request.headers.traceparent === undefined ? context.active() : propagation.extract(context.active(), request.headers);
    const span = requestTracer.startSpan(`${request.method} ${route}`, {
      kind: SpanKind.SERVER,
      attributes: { 'http.request.method': request.method, 'http.route': route },
    }, parent);
    spans.set(request, span);
    const active = trace.setSpan(parent, span);
    // A body arrives in events of the raw request, outside this call: its listeners are bound to
    // the span, so the hooks and the handler that run after it do too. Without a body the rest
    // runs from here (and the answer's end needs no context: the span is found by its request).
    if (request.headers['content-length'] !== undefined || request.headers['transfer-encoding'] !== undefined) context.bind(active, request.raw);
    context.with(active, done);
  });
  const finish = (request: FastifyRequest, status: number | undefined) => {
    const span = spans.get(request);
    if (!span) return;
    spans.delete(request);
    if (status !== undefined) span.setAttribute('http.response.status_code', status);
    else span.setAttribute('error.type', 'aborted');
    const projectId = projectOf(request);
    if (projectId !== undefined) span.setAttribute('gatehouse.project_id', projectId);
    if (status === undefined || status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
    span.end();
  };
  app.addHook('onResponse', (request, reply, done) => {
    finish(request, reply.statusCode);
    done();
  });
  app.addHook('onRequestAbort', (request, done) => {
    finish(request, undefined);
    done();
  });
}
