// The same build as the measured server (dist/, made by `npm run bench`), started with tracing on,
// in plain Node.js like `npm start` (its Node.js flags, and the heap growth `serve` sets; no
// TypeScript loader in the process): every
// span goes through the batch processor, as with an OTLP collector, to an in-memory exporter
// emptied every second. `npm run bench` compares it with the untraced server (the
// `sessions_me_traced` scenario): the ratio is what tracing costs when it is on. Off, nothing of it
// is installed (test/tracing.test.ts).
import { InMemorySpanExporter } from '@opentelemetry/sdk-trace-base';
import { applyHeapGrowth } from '../dist/cli/heap-growth.js';
import { loadConfig } from '../dist/config.js';
import { startTracing } from '../dist/core/tracing.js';
import { startServer } from '../dist/main.js';

const exporter = new InMemorySpanExporter();
let exported = 0;
setInterval(() => {
  exported += exporter.getFinishedSpans().length;
  exporter.reset();
}, 1000).unref();
await startTracing({ exporter });
const config = loadConfig();
applyHeapGrowth(config.heapGrowthPercent);
const server = await startServer(config);
console.log(`bench: traced server at ${server.url}`);
process.on('SIGTERM', () => {
  console.log(`bench: the traced server exported ${exported + exporter.getFinishedSpans().length} spans`);
  void server.stop().then(() => process.exit(0));
});
