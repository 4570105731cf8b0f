/**
 * `npm run bench`: starts Gatehouse (PostgreSQL by default, `--embedded` for PGlite) and a raw
 * node:http ceiling server, seeds a project, then drives each scenario from a separate load
 * process. Prints every result with its ratio to the ceiling measured in the same run and writes
 * bench/results/<date>.json, an SVG chart and the table in docs/performance.md.
 */
import { execFileSync, fork, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, openSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { freshDatabase } from './database.js';
import type { LoadSpec } from './load.js';
import { backendsOf, runLoad, waitForHealth, type Measured } from './measure.js';
import { updatePerformanceDoc, throughputSvg, type ScenarioResult } from './report.js';
import { seed, type Seeded } from './seed.js';
import { memorySvg } from './soak.js';
import { startScriptNodeFlags } from './start-flags.js';
import { buildReport, describeResult, printSummary } from './targets.js';
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
    /** Seconds of the mixed soak (session checks, flows, logins; issue 38). */
    'soak-duration': { type: 'string', default: '300' },
    /** Count the server's statements by text too (bench/loop-probe.mjs), printed per operation. */
    statements: { type: 'boolean', default: false },
    /** Write two heap snapshots of the server during the soak to this directory (minute 1 and the end; bench/heap-diff.mjs). */
    'heap-snapshots': { type: 'string' },
    /** Start the server without bench/loop-probe.mjs (no loop delay, GC, call counts, per-part profiles): what the probe itself costs. */
    'without-probe': { type: 'boolean', default: false },
    /** Extra Node.js/V8 flags for the measured server (space-separated), to compare runtime settings. */
    'server-flags': { type: 'string', default: '' },
  },
});
const only = args.only ? new Set(args.only.split(',')) : undefined;
const duration = Number(args.duration);
const connections = Number(args.connections);
const children: ChildProcess[] = [];

/** The port a forked reference server (ceiling, floor) reports once it listens; rejects if it exits first. */
function listeningPort(child: ChildProcess): Promise<number> {
  return new Promise((resolve, reject) => {
    child.once('message', (m: { port: number }) => resolve(m.port));
    child.once('exit', (code) => reject(new Error(`${child.spawnfile} exited with ${code} before it listened`)));
  });
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
  const ceilingPort = await listeningPort(ceiling);

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
  // A CPU profile per measured part, taken by the probe (start-up and seeding left out).
  const profileDir = args['cpu-prof'] ? resolve(args['cpu-prof']) : '';
  if (profileDir) mkdirSync(profileDir, { recursive: true });
  // Like a deployment: the log goes to a file (a pipe to a collector costs the same writes), not a terminal.
  const logFd = openSync(join(dataDir, 'gatehouse.log'), 'a');
  // The server starts as `npm start` starts it (its Node.js flags), then any --server-flags (the last of a flag wins).
  const serverFlags = [...startScriptNodeFlags(root), ...args['server-flags'].split(' ').filter((flag) => flag.length > 0)];
  // bench/loop-probe.mjs reports the event loop's delay and GC pauses of each measured part.
  const probeFile = join(dataDir, 'probe.json');
  const heapDir = args['heap-snapshots'] ? resolve(args['heap-snapshots']) : '';
  if (heapDir) mkdirSync(heapDir, { recursive: true });
  const probe = args['without-probe'] ? [] : ['--import', pathToFileURL(join(root, 'bench/loop-probe.mjs')).href];
  const server = spawn(process.execPath, [...serverFlags, ...probe, join(root, 'dist/cli/main.js'), 'serve'], { cwd: root, env: { ...env, GATEHOUSE_BENCH_PROBE_FILE: probeFile, GATEHOUSE_BENCH_PROBE_TEXTS: args.statements ? '1' : '0', GATEHOUSE_BENCH_HEAP_DIR: heapDir, GATEHOUSE_BENCH_PROFILE_DIR: profileDir }, stdio: ['ignore', logFd, 'inherit'] });
  children.push(server);
  await waitForHealth(baseUrl, server);
  console.log(`bench: gatehouse on ${args.embedded ? 'PGlite' : 'PostgreSQL'} at ${baseUrl}, ceiling on :${ceilingPort}`);

  const seeded: Seeded = await seed({ baseUrl, adminToken, users: Number(args.users), databaseUrl: database?.url, secret });
  const scenarios: ScenarioResult[] = [];
  const databaseBackends = database ? () => backendsOf(database.serverUrl, database.name) : undefined;
  const gatehouse: Measured = { pid: server.pid!, metrics: { url: `${baseUrl}/metrics`, adminToken }, ...(args['without-probe'] ? {} : { probeFile }), databaseBackends };
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
      if (result.probe?.profile_file) renameSync(result.probe.profile_file, join(profileDir, `${name}.cpuprofile`));
      scenarios.push({ name, description, status: 'ok', ...result });
      console.log(describeResult(name, result));
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
  const tokens = only && !only.has('exchange') ? [] : await seeded.mintHandoffTokens(Math.max(2500, Math.min(100_000, connections * duration * 200)));
  if (tokens.length > 0) writeFileSync(tokensFile, JSON.stringify(tokens.map((t) => JSON.stringify({ handoff_token: t }))));
  await measure('exchange', 'POST /sessions/exchange (fresh handoff tokens)', tokens.length > 0
    ? http(`${baseUrl}/sessions/exchange?project_id=${seeded.projectId}`, 'POST', { authorization: `Bearer ${seeded.projectSecret}`, 'content-type': 'application/json' }, { bodiesFile: tokensFile })
    : { unavailable: seeded.notes.handoff ?? 'no handoff tokens' });
  // What one durable write allows on this machine, beside the exchange (bench/floor-server.mjs).
  for (const mode of ['single', 'batched'] as const) {
    const name = `durable_floor_${mode}`;
    const description = `raw node:http + pg, one durable insert per request (${mode === 'single' ? 'a statement each' : 'concurrent requests batched into one statement'})`;
    if (only && !only.has(name)) continue;
    if (!database) {
      await measure(name, description, { unavailable: 'PostgreSQL only' });
      continue;
    }
    const floor = fork(join(root, 'bench/floor-server.mjs'), ['0', mode], { env: { ...process.env, DATABASE_URL: database.url }, stdio: 'inherit' });
    children.push(floor);
    const floorPort = await listeningPort(floor);
    await measure(name, description, http(`http://127.0.0.1:${floorPort}/`, 'POST', {}), { pid: floor.pid!, databaseBackends });
    floor.kill('SIGTERM');
  }
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

  await measure('soak', `mixed soak: session checks, flows, logins at once for ${args['soak-duration']} s`, seeded.sessionToken && seeded.loginWorks
    ? { kind: 'soak', baseUrl, projectId: seeded.projectId, secret: seeded.projectSecret, sessionToken: seeded.sessionToken, emails: seeded.emails, password: seeded.password, durationSeconds: Number(args['soak-duration']), workers: { session_check: 8, flow: 2, login: 2 }, ...(args['heap-snapshots'] ? { heapSnapshotsOf: server.pid! } : {}) }
    : { unavailable: 'needs the seeded session and a working login' });

  const report = buildReport(scenarios, { embedded: args.embedded, connections, duration, logLevel: args['log-level'], serverFlags, zflow: seeded.zflow, extraTargets: webhooks.targets });
  const stamp = new Date().toISOString().replace(/[:.]/g, '-').slice(0, 19);
  const jsonPath = join(root, `bench/results/${stamp}-${report.engine}.json`);
  const svgPath = `bench/results/${stamp}-${report.engine}.svg`;
  writeFileSync(jsonPath, `${JSON.stringify(report, null, 2)}\n`);
  writeFileSync(join(root, svgPath), throughputSvg(report));
  const soaked = scenarios.find((s) => s.name === 'soak' && s.probe);
  if (soaked) writeFileSync(join(root, `bench/results/${stamp}-${report.engine}-soak.svg`), memorySvg(soaked.probe!.series, `Gatehouse memory under the mixed soak (${report.engine}, ${args['soak-duration']} s, ${report.date})`));
  if (!args['no-doc']) updatePerformanceDoc(join(root, 'docs/performance.md'), report, `../${svgPath}`);
  printSummary(report);
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
