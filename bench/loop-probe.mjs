// Preloaded into the measured server by `npm run bench` (`--import`): the event loop's delay
// (perf_hooks.monitorEventLoopDelay) and V8's garbage-collection pauses (PerformanceObserver
// 'gc'), so the bench can say where a latency tail comes from. Each SIGUSR2 writes what was seen
// since the previous one to GATEHOUSE_BENCH_PROBE_FILE (with a sequence number) and starts over.
// It also counts calls: database statements, crypto, compression (per operation in the output).
// The cost is a 2 ms timer, one observer callback per collection and a counter per counted call.
import crypto from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import { join } from 'node:path';
import { writeHeapSnapshot } from 'node:v8';
import { createRequire, syncBuiltinESMExports } from 'node:module';
import { pathToFileURL } from 'node:url';
import zlib from 'node:zlib';
import { constants, monitorEventLoopDelay, PerformanceObserver } from 'node:perf_hooks';

const file = process.env.GATEHOUSE_BENCH_PROBE_FILE;
let calls = {};
const count = (name) => {
  calls[name] = (calls[name] ?? 0) + 1;
};

/** Counts each call of `object[name]` as `label`, then calls it. */
function counted(object, name, label = name) {
  const original = object[name];
  if (typeof original !== 'function') return;
  object[name] = function (...args) {
    count(label);
    return original.apply(this, args);
  };
}

if (file) {
  // Database statements: every query a pg client sends (the pool's, BEGIN/COMMIT included; the
  // server's own pg, resolved from its directory). PGlite is not counted.
  try {
    const pg = createRequire(pathToFileURL(`${process.cwd()}/`))('pg');
    counted(pg.Client.prototype, 'query', 'statements');
    // With GATEHOUSE_BENCH_PROBE_TEXTS=1 (`npm run bench -- --statements`), each statement is also counted by its first 90 characters.
    if (process.env.GATEHOUSE_BENCH_PROBE_TEXTS === '1') {
      const query = pg.Client.prototype.query;
      pg.Client.prototype.query = function (config, ...rest) {
        const text = typeof config === 'string' ? config : config?.text;
        count(`sql: ${String(text).replace(/\s+/g, ' ').slice(0, 90)}`);
        return query.call(this, config, ...rest);
      };
    }
  } catch {
    // no pg here
  }
  // Crypto and compression: hashes, HMACs, ciphers, signatures, random bytes, deflate.
  for (const name of ['createHash', 'createHmac', 'createCipheriv', 'createDecipheriv', 'randomBytes', 'randomFillSync', 'randomUUID', 'sign', 'verify', 'timingSafeEqual', 'hkdfSync', 'createPublicKey']) counted(crypto, name);
  for (const name of ['digest', 'importKey', 'verify', 'sign', 'encrypt', 'decrypt']) counted(Object.getPrototypeOf(crypto.webcrypto.subtle), name, `subtle.${name}`);
  for (const name of ['deflateRawSync', 'inflateRawSync', 'gzipSync', 'gunzipSync']) counted(zlib, name);
  syncBuiltinESMExports();

  const delay = monitorEventLoopDelay({ resolution: 2 });
  delay.enable();
  let gc = { count: 0, totalMs: 0, maxMs: 0, byKind: {} };
  const kinds = { [constants.NODE_PERFORMANCE_GC_MINOR]: 'minor', [constants.NODE_PERFORMANCE_GC_MAJOR]: 'major', [constants.NODE_PERFORMANCE_GC_INCREMENTAL]: 'incremental', [constants.NODE_PERFORMANCE_GC_WEAKCB]: 'weakcb' };
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      gc.count++;
      gc.totalMs += entry.duration;
      gc.maxMs = Math.max(gc.maxMs, entry.duration);
      const kind = kinds[entry.detail?.kind] ?? String(entry.detail?.kind);
      gc.byKind[kind] = (gc.byKind[kind] ?? 0) + entry.duration;
    }
  }).observe({ entryTypes: ['gc'] });
  // Memory every 5 s, for the soak's series (RSS and heap over time).
  let series = [];
  const started = Date.now();
  setInterval(() => {
    const m = process.memoryUsage();
    series.push({ t: Math.round((Date.now() - started) / 1000), rss: Math.round(m.rss / 1048576), heap_used: Math.round(m.heapUsed / 1048576), heap_total: Math.round(m.heapTotal / 1048576) });
  }, 5000).unref();
  let sequence = 0;
  const ms = (ns) => Math.round(ns / 1e4) / 100;
  // `npm run bench -- --cpu-prof <dir>`: a V8 CPU profile of each measured part alone (start-up and
  // seeding left out), written when the part's report is asked for; the bench names it after the scenario.
  const profileDir = process.env.GATEHOUSE_BENCH_PROFILE_DIR;
  const profiler = profileDir ? new Session() : undefined;
  if (profiler) {
    profiler.connect();
    profiler.post('Profiler.enable');
    profiler.post('Profiler.start');
  }
  const stopProfile = (sequence) => {
    if (!profiler) return undefined;
    let path;
    profiler.post('Profiler.stop', (error, result) => {
      if (error) return;
      path = join(profileDir, `part-${sequence}.cpuprofile`);
      writeFileSync(path, JSON.stringify(result.profile));
    });
    profiler.post('Profiler.start');
    return path;
  };
  process.on('SIGUSR2', () => {
    const memory = process.memoryUsage();
    const profileFile = stopProfile(sequence + 1);
    const report = {
      sequence: ++sequence,
      loop_delay_ms: { p50: ms(delay.percentile(50)), p99: ms(delay.percentile(99)), p999: ms(delay.percentile(99.9)), max: ms(delay.max), mean: ms(delay.mean), samples: delay.count },
      gc: { count: gc.count, total_ms: Math.round(gc.totalMs), max_ms: Math.round(gc.maxMs * 100) / 100, by_kind_ms: Object.fromEntries(Object.entries(gc.byKind).map(([k, v]) => [k, Math.round(v)])) },
      series,
      calls,
      memory_mb: { rss: Math.round(memory.rss / 1048576), heap_used: Math.round(memory.heapUsed / 1048576), heap_total: Math.round(memory.heapTotal / 1048576), external: Math.round(memory.external / 1048576) },
      ...(profileFile ? { profile_file: profileFile } : {}),
    };
    writeFileSync(file, JSON.stringify(report));
    delay.reset();
    series = [];
    calls = {};
    gc = { count: 0, totalMs: 0, maxMs: 0, byKind: {} };
  });
  // `npm run bench -- --heap-snapshots <dir>`: each SIGTTIN writes a heap snapshot there (the soak
  // sends one after its first minute and one before its end; bench/heap-diff.mjs compares them).
  // Writing one stops the process for seconds, so a run that takes them is a diagnostic run.
  const heapDir = process.env.GATEHOUSE_BENCH_HEAP_DIR;
  if (heapDir) {
    let snapshots = 0;
    process.on('SIGTTIN', () => {
      writeHeapSnapshot(join(heapDir, `soak-${++snapshots}-${Math.round((Date.now() - started) / 1000)}s.heapsnapshot`));
    });
  }
}
