/**
 * `npm run bench`: starts Gatehouse (PostgreSQL by default, `--embedded` for PGlite) and a raw
 * node:http ceiling server, seeds a project, then drives each scenario from a separate load
 * process. Prints every result with its ratio to the ceiling measured in the same run and writes
 * bench/results/<date>.json, an SVG chart and the table in docs/performance.md.
 */
import { execFileSync, fork, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, openSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import type { LoadResult, LoadSpec } from './load.js';
import { updatePerformanceDoc, throughputSvg, type BenchReport, type ScenarioResult } from './report.js';
import { seed, type Seeded } from './seed.js';
import { startTracedServer } from './traced.js';
import { webhookScenarios } from './webhooks.js';

const root = new URL('..', import.meta.url).pathname;
const { values: args } = parseArgs({
  options: {
    embedded: { type: 'boolean', default: false },
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '50' },
    users: { type: 'string', default: '200' },
    'journey-concurrency': { type: 'string', default: '8' },
    'no-doc': { type: 'boolean', default: false },
    /** Measure the dist/ already built (`npm run build`) instead of building first. */
    'skip-build': { type: 'boolean', default: false },
    /** Write a V8 CPU profile of the Gatehouse process to this directory (see bench/profile-top.mjs). */
    'cpu-prof': { type: 'string' },
    /** Comma-separated scenario names to run (the ceiling always runs). */
    only: { type: 'string' },
    /** LOG_LEVEL of the measured server (default: the service default, info); its log goes to a file in the data directory. */
    'log-level': { type: 'string', default: 'info' },
    /** Extra Node.js/V8 flags for the measured server (space-separated), to compare runtime settings. */
    'server-flags': { type: 'string', default: '' },
  },
});
const only = args.only ? new Set(args.only.split(',')) : undefined;
const duration = Number(args.duration);
const connections = Number(args.connections);
const children: ChildProcess[] = [];

function rssMb(pid: number): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
    return kb / 1024;
  } catch {
    return 0;
  }
}

/** CPU time (user + system, ms) the process has used so far, from /proc/<pid>/stat. */
function cpuMs(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // utime and stime are fields 14 and 15 of stat(5), in clock ticks (100 per second on Linux).
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return 0;
  }
}

/** CPU time (ms) of each PostgreSQL process on this machine (the benchmark's server is local), by pid. */
function databaseCpuMs(): Map<string, number> {
  const byPid = new Map<string, number>();
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      if (readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'postgres') byPid.set(pid, cpuMs(Number(pid)));
    } catch {
      // the process ended while we looked
    }
  }
  return byPid;
}

/** CPU used since `before` by the PostgreSQL processes alive now (one that ended meanwhile is not counted). */
function databaseCpuSince(before: Map<string, number>): number {
  let total = 0;
  for (const [pid, ms] of databaseCpuMs()) total += ms - (before.get(pid) ?? 0);
  return total;
}

async function waitForHealth(url: string, child: ChildProcess): Promise<void> {
  for (let i = 0; i < 300; i++) {
    if (child.exitCode !== null) throw new Error(`gatehouse exited with ${child.exitCode} during start-up`);
    try {
      if ((await fetch(`${url}/healthz`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('gatehouse did not become healthy in 30 s');
}

/** The memory breakdown of the Gatehouse process (its own /metrics), in MB: where the RSS goes. */
async function memoryOf(metricsUrl: string, adminToken: string): Promise<Record<string, number> | undefined> {
  try {
    const text = await (await fetch(metricsUrl, { headers: { authorization: `Bearer ${adminToken}` } })).text();
    const mb = (pattern: RegExp) => Math.round(Number(pattern.exec(text)?.[1] ?? 0) / 1048576);
    const spaces: Record<string, number> = {};
    for (const match of text.matchAll(/^gatehouse_nodejs_heap_space_size_total_bytes\{space="(\w+)"\} (\d+)/gm)) spaces[`heap_${match[1]}`] = Math.round(Number(match[2]) / 1048576);
    return { rss: mb(/^gatehouse_process_resident_memory_bytes (\d+)/m), heap_total: mb(/^gatehouse_nodejs_heap_size_total_bytes (\d+)/m), external: mb(/^gatehouse_nodejs_external_memory_bytes (\d+)/m), ...spaces };
  } catch {
    return undefined;
  }
}

/** The process a scenario measures: its CPU and RSS, and where its memory breakdown is read (Gatehouse only). */
interface Measured {
  pid: number;
  metrics?: { url: string; adminToken: string };
}

function runLoad(spec: LoadSpec, server: Measured): Promise<LoadResult & { max_rss_mb: number; memory_at_max_mb?: Record<string, number>; server_cpu_ms_per_op?: number; database_cpu_ms_per_op?: number }> {
  let cpuBefore = 0;
  let databaseCpuBefore = new Map<string, number>();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'bench/load.ts'), JSON.stringify(spec)], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    let maxRss = 0;
    let memory: Record<string, number> | undefined;
    let sampling = false;
    let sampledAt = 0;
    let sampledRss = 0;
    const sampler = setInterval(() => {
      const rss = rssMb(server.pid);
      if (rss <= maxRss) return;
      maxRss = rss;
      // The breakdown is the server's own /metrics, whose rendering costs its CPU: read it when the
      // peak grew by a few MB and at most every 2 s, so it stays out of the CPU per operation.
      const { metrics } = server;
      if (!metrics || sampling || rss < sampledRss + 4 || Date.now() - sampledAt < 2000) return;
      sampling = true;
      sampledAt = Date.now();
      sampledRss = rss;
      void memoryOf(metrics.url, metrics.adminToken).then((m) => {
        sampling = false;
        if (m) memory = m;
      });
    }, 250);
    child.stdout.on('data', (chunk: Buffer) => {
      if (cpuBefore === 0 && String(chunk).includes('measuring\n')) {
        cpuBefore = cpuMs(server.pid);
        databaseCpuBefore = databaseCpuMs();
      }
      out += chunk;
    });
    child.on('exit', (code) => {
      clearInterval(sampler);
      if (code !== 0) return reject(new Error(`load process exited with ${code}`));
      const result = JSON.parse(out.trim().split('\n').pop()!) as LoadResult;
      // All of the server's threads (argon2 included) over the measured part only.
      const cpu = cpuMs(server.pid) - cpuBefore;
      const databaseCpu = databaseCpuSince(databaseCpuBefore);
      const ops = result.total;
      const perOp = ops > 0 ? { server_cpu_ms_per_op: cpu / ops, database_cpu_ms_per_op: databaseCpu / ops } : {};
      resolve({ ...result, max_rss_mb: maxRss, ...(memory ? { memory_at_max_mb: memory } : {}), ...perOp });
    });
  });
}

async function freshDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const base = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const name = `gh_bench_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: base });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    },
  };
}

async function main(): Promise<void> {
  if (!args['skip-build']) {
    console.log('bench: building');
    execFileSync('npm', ['run', '-s', 'build'], { cwd: root, stdio: 'inherit' });
  }

  const adminToken = `gh_admin_${randomBytes(24).toString('base64url')}`;
  const secret = randomBytes(32).toString('base64url');
  const dataDir = mkdtempSync(join(tmpdir(), 'gh-bench-'));
  const database = args.embedded ? undefined : await freshDatabase();
  const port = 18_000 + Math.floor(Math.random() * 1000);
  const baseUrl = `http://127.0.0.1:${port}`;

  const ceiling = fork(join(root, 'bench/ceiling.mjs'), ['0'], { stdio: 'inherit' });
  children.push(ceiling);
  const ceilingPort = await new Promise<number>((resolve) => ceiling.once('message', (m: { port: number }) => resolve(m.port)));

  const env = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    GATEHOUSE_PUBLIC_URL: baseUrl,
    LOG_LEVEL: args['log-level'],
    GATEHOUSE_ADMIN_TOKEN: adminToken,
    GATEHOUSE_SECRET: secret,
    GATEHOUSE_DATA_DIR: dataDir,
    DATABASE_URL: database?.url ?? '',
    // The webhook scenarios' receivers listen on 127.0.0.1 (bench/webhooks.ts).
    GATEHOUSE_WEBHOOK_ALLOW_PRIVATE: '1',
  };
  const profileFlags = args['cpu-prof'] ? ['--cpu-prof', `--cpu-prof-dir=${args['cpu-prof']}`] : [];
  // Like a deployment: the log goes to a file (a pipe to a collector costs the same writes), not a terminal.
  const logFd = openSync(join(dataDir, 'gatehouse.log'), 'a');
  const serverFlags = args['server-flags'].split(' ').filter((flag) => flag.length > 0);
  const server = spawn(process.execPath, [...serverFlags, ...profileFlags, join(root, 'dist/cli/main.js'), 'serve'], { cwd: root, env, stdio: ['ignore', logFd, 'inherit'] });
  children.push(server);
  await waitForHealth(baseUrl, server);
  console.log(`bench: gatehouse on ${args.embedded ? 'PGlite' : 'PostgreSQL'} at ${baseUrl}, ceiling on :${ceilingPort}`);

  const seeded: Seeded = await seed({ baseUrl, adminToken, users: Number(args.users), databaseUrl: database?.url, secret });
  const scenarios: ScenarioResult[] = [];
  const gatehouse: Measured = { pid: server.pid!, metrics: { url: `${baseUrl}/metrics`, adminToken } };
  // The ceiling's CPU is its own process's: a raw request's cost, the machine's yardstick.
  const measure = async (name: string, description: string, spec: LoadSpec | { unavailable: string }, measured = gatehouse) => {
    if (only && name !== 'ceiling' && !only.has(name)) return;
    if ('unavailable' in spec) {
      scenarios.push({ name, description, status: 'unavailable', note: spec.unavailable });
      console.log(`bench: ${name}: unavailable (${spec.unavailable})`);
      return;
    }
    try {
      const result = await runLoad(spec, measured);
      scenarios.push({ name, description, status: 'ok', ...result });
      console.log(`bench: ${name}: ${result.requests_per_sec.toFixed(0)} req/s, p50 ${result.p50_ms.toFixed(1)} ms, p99 ${result.p99_ms.toFixed(1)} ms, errors ${result.errors}, non-2xx ${result.non_2xx}, CPU per op: server ${result.server_cpu_ms_per_op?.toFixed(3) ?? '?'} ms, PostgreSQL ${result.database_cpu_ms_per_op?.toFixed(3) ?? '?'} ms${result.known_p50_ms !== undefined ? `, median known ${result.known_p50_ms.toFixed(2)} ms vs unknown ${result.unknown_p50_ms?.toFixed(2)} ms` : ''}${result.warmup_passes !== undefined ? `, after ${result.warmup_passes} warm-up passes` : ''}${result.first_error ? ` (first error: ${result.first_error})` : ''}`);
    } catch (error) {
      scenarios.push({ name, description, status: 'failed', note: (error as Error).message });
      console.log(`bench: ${name}: failed (${(error as Error).message})`);
    }
  };
  const http = (url: string, method: 'GET' | 'POST', headers: Record<string, string>, extra: Partial<Extract<LoadSpec, { kind: 'http' }>> = {}): LoadSpec => ({
    kind: 'http', url, method, headers, connections, durationSeconds: duration, ...extra,
  });

  await measure('ceiling', 'raw node:http, fixed session-shaped JSON', http(`http://127.0.0.1:${ceilingPort}/`, 'GET', {}), { pid: ceiling.pid! });
  await measure('sessions_me', 'GET /sessions/me (session cookie)', seeded.sessionToken
    ? http(`${baseUrl}/sessions/me`, 'GET', { cookie: `__service_session=${seeded.sessionToken}` })
    : { unavailable: seeded.notes.session ?? 'no session' });
  // Tracing on (same build, in-memory exporter) against the server above, tracing off.
  const traced = seeded.sessionToken && !args.embedded && (!only || only.has('sessions_me_traced')) ? await startTracedServer(root, env, port + 1) : undefined;
  if (traced) children.push(traced.child);
  await measure('sessions_me_traced', 'GET /sessions/me with tracing on (in-memory exporter)', traced
    ? http(`${traced.url}/sessions/me`, 'GET', { cookie: `__service_session=${seeded.sessionToken}` })
    : { unavailable: args.embedded ? 'the embedded database belongs to one process' : 'no session' }, traced ? { pid: traced.child.pid! } : gatehouse);
  traced?.child.kill('SIGTERM');
  // The untraced server once more: its two runs bracket the traced one, so drift cancels out.
  if (traced) await measure('sessions_me_after', 'GET /sessions/me again, tracing off (brackets the traced run)', http(`${baseUrl}/sessions/me`, 'GET', { cookie: `__service_session=${seeded.sessionToken}` }));
  await measure('session_by_id', 'GET /sessions/{id} (bearer)', seeded.sessionId
    ? http(`${baseUrl}/sessions/${seeded.sessionId}`, 'GET', { authorization: `Bearer ${seeded.projectSecret}` })
    : { unavailable: seeded.notes.session ?? 'no session' });
  const tokensFile = join(dataDir, 'handoff-tokens.json');
  const tokens = only && !only.has('exchange') ? [] : await seeded.mintHandoffTokens(Math.max(2500, Math.min(40_000, connections * duration * 60)));
  if (tokens.length > 0) writeFileSync(tokensFile, JSON.stringify(tokens.map((t) => JSON.stringify({ handoff_token: t }))));
  await measure('exchange', 'POST /sessions/exchange (fresh handoff tokens)', tokens.length > 0
    ? http(`${baseUrl}/sessions/exchange?project_id=${seeded.projectId}`, 'POST', { authorization: `Bearer ${seeded.projectSecret}`, 'content-type': 'application/json' }, { bodiesFile: tokensFile })
    : { unavailable: seeded.notes.handoff ?? 'no handoff tokens' });
  const journeyConcurrency = Number(args['journey-concurrency']);
  await measure('login_journey', 'POST /flow + submits + exchange, journeys/s', seeded.loginWorks
    ? { kind: 'journey', baseUrl, projectId: seeded.projectId, secret: seeded.projectSecret, emails: seeded.emails, password: seeded.password, concurrency: journeyConcurrency, durationSeconds: duration }
    : { unavailable: seeded.notes.login ?? 'login flow unavailable' });
  await measure('passkey_journey', 'POST /flow (autofill challenge) + passkey answer + exchange, journeys/s', {
    kind: 'passkey_journey', baseUrl, projectId: seeded.projectId, secret: seeded.projectSecret, users: Math.max(20, 2 * journeyConcurrency), concurrency: journeyConcurrency, durationSeconds: duration,
  });
  await measure('recovery_timing', 'recovery code requests, known vs unknown addresses interleaved (medians side by side)', seeded.emails.length > 20
    ? { kind: 'recovery_timing', baseUrl, projectId: seeded.projectId, emails: seeded.emails, rounds: 400 }
    : { unavailable: 'needs more than 20 seeded users' });
  await measure('argon2_only', 'argon2id verify alone (same parameters), ops/s', { kind: 'hash', concurrency: journeyConcurrency, durationSeconds: duration });
  await measure('create_user', 'POST /users', seeded.createUserBody
    ? http(`${baseUrl}/users?${seeded.createUserQuery}`, 'POST', { authorization: `Bearer ${seeded.projectSecret}`, 'content-type': 'application/json' }, { body: seeded.createUserBody, counterInBody: true })
    : { unavailable: seeded.notes.users ?? 'users unavailable' });
  const webhooks = await webhookScenarios({ baseUrl, adminToken, serverPid: server.pid!, durationSeconds: duration, only, ...(seeded.loginWorks ? { login: { projectId: seeded.projectId, secret: seeded.projectSecret, emails: seeded.emails, password: seeded.password, concurrency: journeyConcurrency } } : {}) });
  scenarios.push(...webhooks.scenarios);

  const ceilingRps = scenarios.find((s) => s.name === 'ceiling')?.requests_per_sec ?? 0;
  for (const s of scenarios) if (s.requests_per_sec !== undefined && ceilingRps > 0) s.ratio_to_ceiling = s.requests_per_sec / ceilingRps;
  const byName = (name: string) => scenarios.find((s) => s.name === name && s.status === 'ok');
  const me = byName('sessions_me');
  const tracedMe = byName('sessions_me_traced');
  const meAfter = byName('sessions_me_after');
  const untraced = me && meAfter ? { rps: (me.requests_per_sec! + meAfter.requests_per_sec!) / 2, cpu: (me.server_cpu_ms_per_op! + meAfter.server_cpu_ms_per_op!) / 2 } : undefined;
  const ex = byName('exchange');
  const journey = byName('login_journey');
  const argon = byName('argon2_only');
  const passkey = byName('passkey_journey');
  const rawRequestMs = byName('ceiling')?.server_cpu_ms_per_op;
  const recovery = byName('recovery_timing');
  const maxRss = Math.max(0, ...scenarios.filter((s) => s.name !== 'ceiling').map((s) => s.max_rss_mb ?? 0));
  const allZflow = Object.values(seeded.zflow).flat().map((s) => s.zflowBytes);
  const report: BenchReport = {
    date: new Date().toISOString().slice(0, 10),
    engine: args.embedded ? 'pglite' : 'postgres',
    node: process.versions.node,
    cpus: cpus().length,
    cpu_model: cpus()[0]?.model ?? 'unknown',
    connections,
    duration_seconds: duration,
    log_level: args['log-level'],
    ...(serverFlags.length > 0 ? { server_flags: serverFlags.join(' ') } : {}),
    ceiling_requests_per_sec: ceilingRps,
    scenarios,
    zflow_bytes: seeded.zflow,
    ...(journey?.server_cpu_ms_per_op !== undefined && argon?.own_cpu_ms_per_op !== undefined
      ? { journey_cpu: { journey_ms: journey.server_cpu_ms_per_op + (journey.database_cpu_ms_per_op ?? 0), argon2_ms: argon.own_cpu_ms_per_op } }
      : {}),
    targets: [
      {
        target: 'recovery code request: known vs unknown address medians within 10 %',
        measured: recovery?.known_p50_ms !== undefined ? `known ${recovery.known_p50_ms.toFixed(2)} ms, unknown ${recovery.unknown_p50_ms!.toFixed(2)} ms` : 'n/a',
        met: recovery?.known_p50_ms !== undefined ? Math.abs(recovery.known_p50_ms - recovery.unknown_p50_ms!) <= 0.1 * Math.max(recovery.known_p50_ms, recovery.unknown_p50_ms!) : null,
      },
      { target: 'GET /sessions/me ≥ 0.25 × ceiling', measured: me ? `${me.ratio_to_ceiling!.toFixed(3)} ×` : 'n/a', met: me ? me.ratio_to_ceiling! >= 0.25 : null },
      { target: 'tracing on (in-memory exporter) / off, GET /sessions/me, same build', measured: untraced && tracedMe ? `throughput ${(tracedMe.requests_per_sec! / untraced.rps).toFixed(3)} × (${tracedMe.requests_per_sec!.toFixed(0)} vs ${untraced.rps.toFixed(0)} req/s, the mean of the untraced runs before and after), server CPU per request ${(tracedMe.server_cpu_ms_per_op! / untraced.cpu).toFixed(2)} × (${tracedMe.server_cpu_ms_per_op!.toFixed(3)} vs ${untraced.cpu.toFixed(3)} ms)` : 'n/a', met: null },
      { target: 'GET /sessions/me p99 ≤ 5 ms', measured: me ? `${me.p99_ms} ms` : 'n/a', met: me ? me.p99_ms! <= 5 : null },
      { target: 'exchange ≥ 0.10 × ceiling', measured: ex ? `${ex.ratio_to_ceiling!.toFixed(3)} ×` : 'n/a', met: ex ? ex.ratio_to_ceiling! >= 0.1 : null },
      {
        target: 'login journey overhead beyond argon2 ≤ 15%',
        measured: journey && argon ? `${((1 - journey.requests_per_sec! / argon.requests_per_sec!) * 100).toFixed(1)} %` : 'n/a',
        met: journey && argon ? journey.requests_per_sec! / argon.requests_per_sec! >= 0.85 : null,
      },
      {
        target: 'passkey journey ≤ 2.5 ms server CPU (4 statements)',
        measured: passkey?.server_cpu_ms_per_op !== undefined ? `${passkey.server_cpu_ms_per_op.toFixed(2)} ms server + ${passkey.database_cpu_ms_per_op?.toFixed(2) ?? '?'} ms PostgreSQL, ${passkey.requests_per_sec!.toFixed(0)} journeys/s${rawRequestMs ? `, as much server CPU as ${(passkey.server_cpu_ms_per_op / rawRequestMs).toFixed(0)} raw node:http requests (${(rawRequestMs * 1000).toFixed(1)} µs each)` : ''}` : 'n/a',
        met: passkey?.server_cpu_ms_per_op !== undefined ? passkey.server_cpu_ms_per_op <= 2.5 : null,
      },
      ...webhooks.targets,
      { target: 'RSS under load ≤ 200 MB', measured: `${maxRss.toFixed(0)} MB`, met: maxRss > 0 ? maxRss <= 200 : null },
      { target: 'every `_zflow` ≤ 2 KB (default definitions)', measured: allZflow.length ? `max ${Math.max(...allZflow)} bytes` : 'n/a', met: allZflow.length ? Math.max(...allZflow) <= 2048 : null },
    ],
  };
  const stamp = new Date().toISOString().replace(/[:.]/g, '-').slice(0, 19);
  const jsonPath = join(root, `bench/results/${stamp}-${report.engine}.json`);
  const svgPath = `bench/results/${stamp}-${report.engine}.svg`;
  writeFileSync(jsonPath, `${JSON.stringify(report, null, 2)}\n`);
  writeFileSync(join(root, svgPath), throughputSvg(report));
  if (!args['no-doc']) updatePerformanceDoc(join(root, 'docs/performance.md'), report, `../${svgPath}`);
  console.log('\nscenario              req/s    p50ms   p99ms   x ceiling   server ms/op   pg ms/op');
  for (const s of scenarios) {
    console.log(`${s.name.padEnd(20)} ${s.status === 'ok' ? `${s.requests_per_sec!.toFixed(0).padStart(7)} ${s.p50_ms!.toFixed(1).padStart(8)} ${s.p99_ms!.toFixed(1).padStart(7)} ${s.ratio_to_ceiling!.toFixed(3).padStart(10)} ${(s.server_cpu_ms_per_op?.toFixed(3) ?? '—').padStart(14)} ${(s.database_cpu_ms_per_op?.toFixed(3) ?? '—').padStart(10)}` : `${s.status}: ${s.note}`}`);
  }
  for (const t of report.targets) console.log(`target: ${t.target}: ${t.measured} (${t.met === null ? 'n/a' : t.met ? 'met' : 'NOT met'})`);
  if (report.journey_cpu) console.log(`login journey CPU (Gatehouse + PostgreSQL): ${report.journey_cpu.journey_ms.toFixed(1)} ms, one argon2id verification: ${report.journey_cpu.argon2_ms.toFixed(1)} ms, the journey client: ${journey?.own_cpu_ms_per_op?.toFixed(1) ?? '?'} ms`);
  console.log(`\nbench: wrote ${jsonPath} and ${svgPath}`);

  server.kill('SIGTERM');
  await new Promise((resolve) => server.once('exit', resolve));
  await database?.drop();
  rmSync(dataDir, { recursive: true, force: true });
}

main()
  .catch((error: unknown) => {
    console.error(`bench: ${(error as Error).stack ?? String(error)}`);
    process.exitCode = 1;
  })
  .finally(() => {
    for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
  });
