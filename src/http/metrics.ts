import type { FastifyInstance } from 'fastify';
import { collectDefaultMetrics, Counter, Histogram, Registry } from 'prom-client';
import { ADMIN_SCOPE } from '../core/scopes.js';
import { routeOf } from './route-of.js';

/** Latency buckets in seconds: API calls are fast; argon2 and flow steps sit around 50-500 ms. */
const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/**
 * Prometheus metrics at `GET /metrics` (instance admin token): request count and latency by
 * route pattern and status, plus the default Node.js process metrics. Each app has its own
 * registry, so several apps in one process (tests) never share counters.
 */
export function registerMetrics(app: FastifyInstance): Registry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'gatehouse_' });
  const labelNames = ['method', 'route', 'status'] as const;
  const requests = new Counter({
    name: 'gatehouse_http_requests_total',
    help: 'HTTP requests answered, by method, route pattern and status code',
    labelNames,
    registers: [registry],
  });
  const latency = new Histogram({
    name: 'gatehouse_http_request_duration_seconds',
    help: 'Time from request received to response sent, by method, route pattern and status code',
    labelNames,
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });

  // One pair of labelled children per series, resolved once: prom-client would otherwise hash the
  // label object on every request (a few per cent of a session check's CPU).
  const series = new Map<string, { count: ReturnType<typeof requests.labels>; time: ReturnType<typeof latency.labels> }>();
  app.addHook('onResponse', (request, reply, done) => {
    // The route pattern, never the raw URL: ids in paths would make one series per resource.
    const route = routeOf(request).url ?? 'unmatched';
    const key = `${request.method} ${reply.statusCode} ${route}`;
    let children = series.get(key);
    if (!children) {
      const labels = { method: request.method, route, status: String(reply.statusCode) };
      children = { count: requests.labels(labels), time: latency.labels(labels) };
      series.set(key, children);
    }
    children.count.inc();
    children.time.observe(reply.elapsedTime / 1000);
    done();
  });

  app.get(
    '/metrics',
    {
      config: { tenancy: 'instance', scope: ADMIN_SCOPE },
      schema: {
        tags: ['operations'],
        summary: 'Prometheus metrics (instance admin token)',
        response: {
          200: {
            description: 'Prometheus text exposition format',
            content: { 'text/plain': { schema: { type: 'string' } } },
          },
        },
      },
    },
    async (_request, reply) => {
      const body = await registry.metrics();
      return reply.type(registry.contentType).send(body);
    },
  );
  return registry;
}
