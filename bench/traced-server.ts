/**
 * The same build as the measured server (dist/, made by `npm run bench`), started with tracing on:
 * every span goes through the batch processor, as with an OTLP collector, to an in-memory exporter
 * emptied every second. `npm run bench` compares it with the untraced server (the
 * `sessions_me_traced` scenario): the ratio is what tracing costs when it is on. Off, nothing of
 * it is installed (test/tracing.test.ts).
 */
import { InMemorySpanExporter } from '@opentelemetry/sdk-trace-base';

// The built modules, typed by their sources.
const dist = new URL('../dist/', import.meta.url).href;
const { loadConfig } = (await import(`${dist}config.js`)) as typeof import('../src/config.js');
const { startTracing } = (await import(`${dist}core/tracing.js`)) as typeof import('../src/core/tracing.js');
const { startServer } = (await import(`${dist}main.js`)) as typeof import('../src/main.js');

const exporter = new InMemorySpanExporter();
let exported = 0;
setInterval(() => {
  exported += exporter.getFinishedSpans().length;
  exporter.reset();
}, 1000).unref();
await startTracing({ exporter });
const server = await startServer(loadConfig());
console.log(`bench: traced server at ${server.url}`);
process.on('SIGTERM', () => {
  console.log(`bench: the traced server exported ${exported + exporter.getFinishedSpans().length} spans`);
  void server.stop().then(() => process.exit(0));
});
