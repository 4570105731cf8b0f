/**
 * The load generator, always run as its own process so that it never shares an event loop with
 * the server it measures. Reads one scenario (JSON) from argv, prints one result (JSON) on stdout.
 */
import { hash, verify } from '@node-rs/argon2';
import autocannon from 'autocannon';
import { readFileSync } from 'node:fs';
import { exchange, runJourney } from './journey.js';
import { registerPasskeyUser, runPasskeyJourney } from './passkey-journey.js';
import { recoveryTiming } from './recovery-timing.js';
import { soak, type SoakOperation, type SoakSpec } from './soak.js';

export type LoadSpec =
  | {
      kind: 'http';
      url: string;
      method: 'GET' | 'POST' | 'PUT' | 'DELETE';
      headers: Record<string, string>;
      body?: string;
      /** One body per request (e.g. fresh handoff tokens); the run ends when they are used up. */
      bodiesFile?: string;
      /** `{n}` in the body is replaced by a per-request counter (unique emails...). */
      counterInBody?: boolean;
      connections: number;
      durationSeconds: number;
    }
  | {
      kind: 'journey';
      baseUrl: string;
      projectId: string;
      secret: string;
      emails: string[];
      password: string;
      concurrency: number;
      durationSeconds: number;
    }
  | { kind: 'passkey_journey'; baseUrl: string; projectId: string; secret: string; users: number; concurrency: number; durationSeconds: number }
  | { kind: 'hash'; concurrency: number; durationSeconds: number }
  | { kind: 'recovery_timing'; baseUrl: string; projectId: string; emails: string[]; rounds: number }
  | SoakSpec;

export interface LoadResult {
  requests_per_sec: number;
  p50_ms: number;
  p99_ms: number;
  total: number;
  errors: number;
  non_2xx: number;
  /** The first failure of a journey, to tell what went wrong. */
  first_error?: string;
  /** recovery_timing: median answer time of the code request for addresses with and without an account */
  known_p50_ms?: number;
  unknown_p50_ms?: number;
  /** CPU time of the load process itself per operation (argon2_only: one verification; login_journey: the client's side of a journey). */
  own_cpu_ms_per_op?: number;
  /** Journeys (or verifications) run to warm the server before the measured part. */
  warmup_passes?: number;
  /** soak: latency and errors per kind of operation */
  operations?: Record<string, SoakOperation>;
}

/** Tells the parent that the measured part starts now (it reads the server's CPU time then). */
function measuring(): void {
  process.stdout.write('measuring\n');
}

async function loopsWhile(concurrency: number, more: () => boolean, once: (worker: number, i: number) => Promise<boolean | string>, done: (ok: boolean | string, took: number) => void): Promise<void> {
  await Promise.all(
    Array.from({ length: concurrency }, async (_, worker) => {
      for (let i = 0; more(); i++) {
        const begin = performance.now();
        done(await once(worker, i).catch((error: unknown) => String(error)), performance.now() - begin);
      }
    }),
  );
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

async function http(spec: Extract<LoadSpec, { kind: 'http' }>): Promise<LoadResult> {
  const allBodies = spec.bodiesFile ? (JSON.parse(readFileSync(spec.bodiesFile, 'utf8')) as string[]) : undefined;
  const options: autocannon.Options = {
    url: spec.url,
    method: spec.method,
    headers: spec.headers,
    connections: spec.connections,
    duration: spec.durationSeconds,
    body: spec.body,
  };
  let next = 0;
  if (allBodies) {
    // One-use bodies (handoff tokens): a fifth of them warm the server (JIT, pool connections,
    // prepared statements) in a run of their own, the rest are measured until used up.
    const warmup = allBodies.slice(0, Math.floor(allBodies.length / 5));
    const measured = allBodies.slice(warmup.length);
    const withBodies = (bodies: string[]): autocannon.Options => {
      let i = 0;
      // autocannon notices the end of an `amount` at its next sample tick (1 s by default), and its
      // duration counts to that tick: sampled every 50 ms, a 3 s run is no longer read as up to 4 s.
      return { ...options, amount: bodies.length, sampleInt: 50, requests: [{ setupRequest: (request) => ({ ...request, body: bodies[i++ % bodies.length] }) }] };
    };
    if (warmup.length > 0) await autocannon(withBodies(warmup));
    measuring();
    const result = await autocannon(withBodies(measured));
    // autocannon's per-second average counts a last partial second as a whole one; a run that ends
    // when its bodies are used up is measured as requests over the time it really took.
    return summary(result, result.requests.total / result.duration);
  }
  if (spec.counterInBody && spec.body) {
    const template = spec.body;
    options.requests = [{ setupRequest: (request) => ({ ...request, body: template.replaceAll('{n}', String(next++)) }) }];
  }
  // Warm the server before measuring, so the first scenario of a run is not penalised.
  await autocannon({ ...options, duration: 3 });
  measuring();
  const result = await autocannon(options);
  return summary(result, result.requests.average);
}

function summary(result: autocannon.Result, requestsPerSec: number): LoadResult {
  return {
    requests_per_sec: requestsPerSec,
    p50_ms: result.latency.p50,
    p99_ms: result.latency.p99,
    total: result.requests.total,
    errors: result.errors + result.timeouts,
    non_2xx: result.non2xx,
  };
}

/**
 * Journeys run for `seconds` after a warm-up of their own (as the HTTP scenarios have): the first
 * passes through a code path load lazy modules and JIT-compile it, a cost a running server paid
 * long ago, so it stays out of the measured CPU per journey. V8 optimises a function after enough
 * calls, not after enough seconds, and a journey calls most of its functions once: measured with
 * `perf record` on the server, TurboFan compiling was still 27 % of its CPU 500 passkey journeys
 * in and about 3 % after 2,500 (docs/performance.md). So the warm-up is counted in journeys, with
 * a floor and a ceiling in time for scenarios whose passes are slow (argon2).
 */
const WARMUP = { passes: 3000, minSeconds: 3, maxSeconds: 30 };

async function timedLoops(concurrency: number, seconds: number, once: (worker: number, i: number) => Promise<boolean | string>): Promise<LoadResult> {
  const warmupStarted = performance.now();
  let warmupPasses = 0;
  const warming = () => {
    const elapsed = (performance.now() - warmupStarted) / 1000;
    return elapsed < WARMUP.minSeconds || (warmupPasses < WARMUP.passes && elapsed < WARMUP.maxSeconds);
  };
  await loopsWhile(concurrency, warming, once, () => warmupPasses++);
  measuring();
  const ownBefore = process.cpuUsage();
  const latencies: number[] = [];
  let errors = 0;
  let firstError: string | undefined;
  const started = performance.now();
  await loopsWhile(concurrency, () => performance.now() < started + seconds * 1000, once, (ok, took) => {
    if (ok === true) latencies.push(took);
    else {
      errors++;
      firstError ??= typeof ok === 'string' ? ok : 'failed';
    }
  });
  const elapsed = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return {
    requests_per_sec: latencies.length / elapsed,
    p50_ms: percentile(latencies, 50),
    p99_ms: percentile(latencies, 99),
    total: latencies.length,
    errors,
    non_2xx: 0,
    // The load process's own work (HTTP client, authenticator signatures) competes for the same cores.
    own_cpu_ms_per_op: cpuMsSince(ownBefore) / Math.max(1, latencies.length),
    warmup_passes: warmupPasses,
    ...(firstError !== undefined ? { first_error: firstError } : {}),
  };
}

function cpuMsSince(before: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000;
}

async function journey(spec: Extract<LoadSpec, { kind: 'journey' }>): Promise<LoadResult> {
  return timedLoops(spec.concurrency, spec.durationSeconds, async (worker, i) => {
    const email = spec.emails[(worker * 7919 + i) % spec.emails.length];
    const journeyResult = await runJourney(spec.baseUrl, spec.projectId, 'login', { email, identifier: email, password: spec.password });
    if (!journeyResult.ok || !journeyResult.handoffToken) return journeyResult.error ?? `journey ended at ${journeyResult.steps.at(-1)?.step ?? 'start'}`;
    await exchange(spec.baseUrl, spec.projectId, spec.secret, journeyResult.handoffToken);
    return true;
  });
}

/** Passkey sign-ins: the users are registered first (not measured), each worker signs in with one of them. */
async function passkeyJourney(spec: Extract<LoadSpec, { kind: 'passkey_journey' }>): Promise<LoadResult> {
  const run = Date.now().toString(36);
  const authenticators: Awaited<ReturnType<typeof registerPasskeyUser>>[] = [];
  for (let i = 0; i < spec.users; i++) authenticators.push(await registerPasskeyUser(spec.baseUrl, spec.projectId, `passkey-${run}-${i}@bench.example`));
  // Each worker has its own authenticators: one authenticator never signs two assertions at once
  // (a real one cannot), so no assertion arrives with a signature counter below the stored one.
  const perWorker = Math.max(1, Math.floor(authenticators.length / spec.concurrency));
  return timedLoops(spec.concurrency, spec.durationSeconds, (worker, i) =>
    runPasskeyJourney(spec.baseUrl, spec.projectId, spec.secret, authenticators[(worker * perWorker + (i % perWorker)) % authenticators.length]),
  );
}

/** The argon2 work of one login alone (same parameters as the service), to separate it from our overhead. */
async function hashOnly(spec: Extract<LoadSpec, { kind: 'hash' }>): Promise<LoadResult> {
  const encoded = await hash('correct horse battery staple', { memoryCost: 19456, timeCost: 2, parallelism: 1 });
  return timedLoops(spec.concurrency, spec.durationSeconds, () => verify(encoded, 'correct horse battery staple'));
}

/** Known against unknown recovery addresses, one request at a time (latency, not throughput). */
async function recovery(spec: Extract<LoadSpec, { kind: 'recovery_timing' }>): Promise<LoadResult> {
  // Warm-up pairs are not counted (JIT, pool connections, prepared statements).
  await recoveryTiming(spec.baseUrl, spec.projectId, spec.emails.slice(0, 10), 20);
  measuring();
  const started = performance.now();
  const { known, unknown, errors } = await recoveryTiming(spec.baseUrl, spec.projectId, spec.emails.slice(10), spec.rounds);
  const all = [...known, ...unknown].sort((a, b) => a - b);
  known.sort((a, b) => a - b);
  unknown.sort((a, b) => a - b);
  return {
    requests_per_sec: all.length / ((performance.now() - started) / 1000),
    p50_ms: percentile(all, 50),
    p99_ms: percentile(all, 99),
    total: all.length,
    errors: errors.length,
    non_2xx: 0,
    known_p50_ms: percentile(known, 50),
    unknown_p50_ms: percentile(unknown, 50),
    ...(errors[0] !== undefined ? { first_error: errors[0] } : {}),
  };
}

const spec = JSON.parse(process.argv[2]) as LoadSpec;
const runners = { http, journey, passkey_journey: passkeyJourney, hash: hashOnly, recovery_timing: recovery, soak: (s: SoakSpec) => soak(s, measuring) } as const;
const run = (runners[spec.kind] as (s: LoadSpec) => Promise<LoadResult>)(spec);
run.then(
  (result) => {
    process.stdout.write(`${JSON.stringify(result)}\n`);
    process.exit(0);
  },
  (error: unknown) => {
    process.stderr.write(`load: ${String(error)}\n`);
    process.exit(1);
  },
);
