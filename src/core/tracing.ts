import { context, propagation, SpanStatusCode, trace, type Attributes, type Span, type Tracer } from '@opentelemetry/api';
import type { SpanExporter } from '@opentelemetry/sdk-trace-base';
import { VERSION } from './version.js';

/**
 * OpenTelemetry traces (DESIGN §4.22): off unless `OTEL_EXPORTER_OTLP_ENDPOINT` (or
 * `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`) is set, then spans go to that collector over OTLP/HTTP.
 *
 * Off costs nothing per request: the request hook (src/http/tracing.ts) and the SQL seam
 * (src/db/traced-pool.ts) are only installed when tracing is on when the app and the engine are
 * built, and the SDK's modules are only loaded then. What a span may carry: route patterns,
 * status codes, project ids, statement texts with their `$n` placeholders, error codes. Never
 * an identifier, e-mail address, token, IP address, parameter value or error message (a
 * PostgreSQL error's detail holds the values of the row it refused).
 */

export const TRACER_NAME = 'gatehouse';

interface Provider {
  forceFlush(): Promise<void>;
  shutdown(): Promise<void>;
}

let provider: Provider | undefined;

/** True while a tracer provider is installed (then new apps and engines record spans). */
export function tracingOn(): boolean {
  return provider !== undefined;
}

export function tracer(): Tracer {
  return trace.getTracer(TRACER_NAME, VERSION);
}

/** Whether the environment asks for traces. */
export function tracingRequested(env: NodeJS.ProcessEnv = process.env): boolean {
  return Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT);
}

export interface TracingOptions {
  /** Where spans go; default: OTLP/HTTP to the collector the OTEL_EXPORTER_OTLP_* variables name. */
  exporter?: SpanExporter;
  /** Export each span as it ends (tests) instead of in batches. */
  immediate?: boolean;
}

/**
 * Installs the global tracer provider, context manager and propagator. Returns the function that
 * flushes the spans still queued and uninstalls it all. One at a time per process.
 */
export async function startTracing(options: TracingOptions = {}): Promise<() => Promise<void>> {
  if (provider) throw new Error('tracing is already started in this process');
  // Loaded on demand: a process without tracing never loads the SDK.
  const [{ NodeTracerProvider }, { BatchSpanProcessor, SimpleSpanProcessor }, { resourceFromAttributes }] = await Promise.all([
    import('@opentelemetry/sdk-trace-node'),
    import('@opentelemetry/sdk-trace-base'),
    import('@opentelemetry/resources'),
  ]);
  const exporter = options.exporter ?? new (await import('@opentelemetry/exporter-trace-otlp-http')).OTLPTraceExporter();
  const processor = options.immediate ? new SimpleSpanProcessor(exporter) : new BatchSpanProcessor(exporter);
  const installed = new NodeTracerProvider({
    resource: resourceFromAttributes({ 'service.name': process.env.OTEL_SERVICE_NAME || 'gatehouse', 'service.version': VERSION }),
    spanProcessors: [processor],
  });
  installed.register();
  provider = installed;
  return async () => {
    if (provider !== installed) return;
    provider = undefined;
    try {
      await installed.shutdown();
    } finally {
      trace.disable();
      context.disable();
      propagation.disable();
    }
  };
}

/** Exports the spans queued so far (tests and shutdown). */
export async function flushTracing(): Promise<void> {
  await provider?.forceFlush();
}

/** A code to tell failures apart that never carries a value: an error's `code`, else its class name. */
export function errorType(error: unknown): string {
  const code = (error as { code?: unknown } | undefined)?.code;
  if (typeof code === 'string' && /^[\w.-]{1,64}$/.test(code)) return code;
  return error instanceof Error ? error.constructor.name : 'unknown';
}

/** Marks a span failed with the error's type only (never its message, which may hold values). */
export function recordFailure(span: Span, error: unknown): void {
  span.setStatus({ code: SpanStatusCode.ERROR });
  span.setAttribute('error.type', errorType(error));
}

/**
 * Runs `fn` inside a span named `name`, a child of the active span (a request, or none for
 * background work such as the outbox and webhook workers). `attributes` must hold no personal data:
 * ids of projects, counts, kinds, attempt numbers, never addresses, user ids, tokens or bodies.
 * With tracing off it just runs `fn`.
 */
export function withSpan<T>(name: string, attributes: Attributes, fn: () => Promise<T>): Promise<T> {
  if (!provider) return fn();
  return tracer().startActiveSpan(name, { attributes }, async (span) => {
    try {
      return await fn();
    } catch (error) {
      recordFailure(span, error);
      throw error;
    } finally {
      span.end();
    }
  });
}
