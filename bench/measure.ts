/** What a scenario costs the processes it measures: CPU time and RSS from /proc, PostgreSQL's CPU, the load process's result. */
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import type { LoadResult, LoadSpec } from './load.js';

const root = new URL('..', import.meta.url).pathname;

export function rssMb(pid: number): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
    return kb / 1024;
  } catch {
    return 0;
  }
}

/** User and system CPU time (ms) from a /proc `stat` file (a process's or one of its threads'); zeros once it is gone. */
function userSystemMs(statFile: string): { user: number; system: number } {
  try {
    const stat = readFileSync(statFile, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // utime and stime are fields 14 and 15 of stat(5), in clock ticks (100 per second on Linux).
    return { user: Number(fields[11]) * 10, system: Number(fields[12]) * 10 };
  } catch {
    return { user: 0, system: 0 };
  }
}

/** CPU time (user + system, ms) the process has used so far, from /proc/<pid>/stat. */
export function cpuMs(pid: number): number {
  const { user, system } = userSystemMs(`/proc/${pid}/stat`);
  return user + system;
}

/** A process's CPU split: its main thread's user and system time, and its other threads' (ms). */
export interface CpuSplit {
  main_user: number;
  main_system: number;
  other_threads: number;
}

/**
 * The CPU split of process `pid` so far, from /proc/<pid>/task/<tid>/stat. The main thread (tid =
 * pid) runs the requests; the others are libuv's pool (argon2, async crypto) and V8's (GC). A
 * thread that ended meanwhile takes its time with it, so the split is for long-lived threads.
 */
export function cpuSplitMs(pid: number): CpuSplit {
  const split: CpuSplit = { main_user: 0, main_system: 0, other_threads: 0 };
  let tids: string[];
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    return split;
  }
  for (const tid of tids) {
    const { user, system } = userSystemMs(`/proc/${pid}/task/${tid}/stat`);
    if (tid === String(pid)) Object.assign(split, { main_user: user, main_system: system });
    else split.other_threads += user + system;
  }
  return split;
}

function splitPerOp(before: CpuSplit, after: CpuSplit, ops: number): CpuSplit {
  return { main_user: (after.main_user - before.main_user) / ops, main_system: (after.main_system - before.main_system) / ops, other_threads: (after.other_threads - before.other_threads) / ops };
}

/**
 * CPU time (ms) of each PostgreSQL process on this machine (the benchmark's server is local), keyed
 * by `<pid>@<start time>`: a pid that the system hands to a new backend is another process, and
 * subtracting the old one's CPU from it made a scenario's PostgreSQL CPU negative.
 */
export function databaseCpuMs(): Map<string, number> {
  const byProcess = new Map<string, number>();
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      if (readFileSync(`/proc/${pid}/comm`, 'utf8').trim() !== 'postgres') continue;
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      // starttime is field 22 of stat(5): the 20th after the command's closing parenthesis.
      const started = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
      byProcess.set(`${pid}@${started}`, cpuMs(Number(pid)));
    } catch {
      // the process ended while we looked
    }
  }
  return byProcess;
}

/**
 * CPU used since `before` by the PostgreSQL processes in `now` (one that ended meanwhile is not
 * counted, one that started meanwhile counts whole); with `only` (pids), by those processes alone:
 * the backends of the benchmark's database, as other work on the machine may use the same server.
 */
export function databaseCpuSince(before: Map<string, number>, now = databaseCpuMs(), only?: Set<string>): number {
  let total = 0;
  for (const [key, ms] of now) if (!only || only.has(key.slice(0, key.indexOf('@')))) total += ms - (before.get(key) ?? 0);
  return total;
}

/** The backends (pids) connected to `database` now, from pg_stat_activity. */
export async function backendsOf(serverUrl: string, database: string): Promise<Set<string>> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ pid: number }>('select pid from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()', [database]);
    return new Set(rows.map((row) => String(row.pid)));
  } finally {
    await client.end();
  }
}

/** What bench/loop-probe.mjs reports from inside the server: event-loop delay, GC pauses, memory. */
export interface ProbeReport {
  sequence: number;
  loop_delay_ms: { p50: number; p99: number; p999: number; max: number; mean: number; samples: number };
  gc: { count: number; total_ms: number; max_ms: number; by_kind_ms: Record<string, number> };
  memory_mb: Record<string, number>;
  /** calls counted in the server: database statements (BEGIN and COMMIT included) and crypto (hashes, HMACs, ciphers, signatures, random bytes) */
  calls: Record<string, number>;
  /** memory every 5 s since the previous report (seconds since the server started, MB) */
  series: Array<{ t: number; rss: number; heap_used: number; heap_total: number }>;
  /** with `--cpu-prof`: the V8 CPU profile of this part alone */
  profile_file?: string;
}

/** Asks the probe in process `pid` for what it saw since it was last asked (and to start over); undefined after 2 s without an answer. */
export async function readProbe(pid: number, file: string): Promise<ProbeReport | undefined> {
  const sequenceOf = () => {
    try {
      return (JSON.parse(readFileSync(file, 'utf8')) as ProbeReport).sequence;
    } catch {
      return 0;
    }
  };
  const before = sequenceOf();
  try {
    process.kill(pid, 'SIGUSR2');
  } catch {
    return undefined;
  }
  for (let i = 0; i < 200; i++) {
    await new Promise((resolve) => setTimeout(resolve, 10));
    if (sequenceOf() > before) return JSON.parse(readFileSync(file, 'utf8')) as ProbeReport;
  }
  return undefined;
}

export async function waitForHealth(url: string, child: ChildProcess): Promise<void> {
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
export async function memoryOf(metricsUrl: string, adminToken: string): Promise<Record<string, number> | undefined> {
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
export interface Measured {
  pid: number;
  metrics?: { url: string; adminToken: string };
  /** bench/loop-probe.mjs runs in the process and answers in this file */
  probeFile?: string;
  /** the backends of the benchmark's database, whose CPU is PostgreSQL's per operation (else every postgres process on the machine's) */
  databaseBackends?: () => Promise<Set<string>>;
}

export type MeasuredResult = LoadResult & {
  max_rss_mb: number;
  memory_at_max_mb?: Record<string, number>;
  server_cpu_ms_per_op?: number;
  /** server_cpu_ms_per_op by thread: the main thread's user and system (kernel) time, and the other threads' */
  server_cpu_split_ms_per_op?: CpuSplit;
  database_cpu_ms_per_op?: number;
  probe?: ProbeReport;
};

export function runLoad(spec: LoadSpec, server: Measured): Promise<MeasuredResult> {
  let cpuBefore = 0;
  let splitBefore: CpuSplit | undefined;
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
        splitBefore = cpuSplitMs(server.pid);
        databaseCpuBefore = databaseCpuMs();
        // The probe starts over: what it reports at the end is the measured part's.
        if (server.probeFile) void readProbe(server.pid, server.probeFile);
      }
      out += chunk;
    });
    child.on('exit', (code) => {
      clearInterval(sampler);
      if (code !== 0) return reject(new Error(`load process exited with ${code}`));
      const result = JSON.parse(out.trim().split('\n').pop()!) as LoadResult;
      // All of the server's threads (argon2 included) over the measured part only.
      const cpu = cpuMs(server.pid) - cpuBefore;
      const split = cpuSplitMs(server.pid);
      const databaseNow = databaseCpuMs();
      void (async () => {
        const backends = await server.databaseBackends?.().catch(() => undefined);
        const databaseCpu = databaseCpuSince(databaseCpuBefore, databaseNow, backends);
        const probe = server.probeFile ? await readProbe(server.pid, server.probeFile) : undefined;
        const ops = result.total;
        const perOp = ops > 0 ? { server_cpu_ms_per_op: cpu / ops, ...(splitBefore ? { server_cpu_split_ms_per_op: splitPerOp(splitBefore, split, ops) } : {}), database_cpu_ms_per_op: databaseCpu / ops } : {};
        resolve({ ...result, max_rss_mb: maxRss, ...(memory ? { memory_at_max_mb: memory } : {}), ...perOp, ...(probe ? { probe } : {}) });
      })().catch(reject);
    });
  });
}
