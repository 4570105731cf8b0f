import { SpanKind } from '@opentelemetry/api';
import { recordFailure, tracer } from '../core/tracing.js';

interface PoolClient {
  query(text: unknown, values?: unknown): unknown;
  release(): void;
}

interface Pool<C extends PoolClient> {
  connect(): Promise<C>;
  end(): Promise<void>;
}

/** SELECT, INSERT, WITH, BEGIN...: the statement's first keyword, the span's name. */
function operationOf(text: string): string {
  const match = /^\s*([A-Za-z]+)/.exec(text);
  return match ? match[1].toUpperCase() : 'SQL';
}

/**
 * The SQL seam for traces: wraps the pool Kysely drives (pg's, or the PGlite adapter) so that each
 * statement is a client span, a child of the request or worker span that runs it, carrying the
 * statement text as Kysely built it. Kysely sends every value as a `$n` parameter, and
 * parameters are never recorded, nor are error messages (only the SQLSTATE). Installed only
 * when tracing is on (src/db/engine.ts), so with tracing off a statement passes through nothing.
 */
export function tracedPool<C extends PoolClient>(pool: Pool<C>, system: 'postgresql'): Pool<C> {
  // One wrapper per pool client, so the driver sees the same connection object each time.
  const wrappers = new WeakMap<C, C>();
  const wrap = (client: C): C => {
    const known = wrappers.get(client);
    if (known) return known;
    const traced = {
      query: (text: unknown, values?: unknown): unknown => {
        if (typeof text !== 'string') return client.query(text, values);
        const operation = operationOf(text);
        const span = tracer().startSpan(operation, {
          kind: SpanKind.CLIENT,
          attributes: { 'db.system.name': system, 'db.operation.name': operation, 'db.query.text': text },
        });
        try {
          const result = client.query(text, values) as Promise<unknown>;
          return result.then(
            (value) => {
              span.end();
              return value;
            },
            (error: unknown) => {
              recordFailure(span, error);
              span.end();
              throw error;
            },
          );
        } catch (error) {
          recordFailure(span, error);
          span.end();
          throw error;
        }
      },
      release: () => client.release(),
    };
    wrappers.set(client, traced as unknown as C);
    return traced as unknown as C;
  };
  return {
    connect: async () => wrap(await pool.connect()),
    end: () => pool.end(),
  };
}
