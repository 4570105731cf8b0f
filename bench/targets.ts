/** The report of one run: each scenario's ratio to the ceiling, and every target of the benchmarks issue with met / not met. */
import { cpus } from 'node:os';
import type { BenchReport, ScenarioResult } from './report.js';

/** What a report says about the run beyond its scenarios. */
export interface RunInfo {
  embedded: boolean;
  connections: number;
  duration: number;
  logLevel: string;
  serverFlags: string[];
  zflow: BenchReport['zflow_bytes'];
}

export function buildReport(scenarios: ScenarioResult[], run: RunInfo): BenchReport {
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
  const allZflow = Object.values(run.zflow).flat().map((s) => s.zflowBytes);
  return {
    date: new Date().toISOString().slice(0, 10),
    engine: run.embedded ? 'pglite' : 'postgres',
    node: process.versions.node,
    cpus: cpus().length,
    cpu_model: cpus()[0]?.model ?? 'unknown',
    connections: run.connections,
    duration_seconds: run.duration,
    log_level: run.logLevel,
    ...(run.serverFlags.length > 0 ? { server_flags: run.serverFlags.join(' ') } : {}),
    ceiling_requests_per_sec: ceilingRps,
    scenarios,
    zflow_bytes: run.zflow,
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
      { target: 'RSS under load ≤ 200 MB', measured: `${maxRss.toFixed(0)} MB`, met: maxRss > 0 ? maxRss <= 200 : null },
      { target: 'every `_zflow` ≤ 2 KB (default definitions)', measured: allZflow.length ? `max ${Math.max(...allZflow)} bytes` : 'n/a', met: allZflow.length ? Math.max(...allZflow) <= 2048 : null },
    ],
  };
}

/** The console's summary: every scenario, every target. */
export function printSummary(report: BenchReport): void {
  const { scenarios } = report;
  const journey = scenarios.find((s) => s.name === 'login_journey' && s.status === 'ok');
  console.log('\nscenario              req/s    p50ms   p99ms   x ceiling   server ms/op   pg ms/op');
  for (const s of scenarios) {
    console.log(`${s.name.padEnd(20)} ${s.status === 'ok' ? `${s.requests_per_sec!.toFixed(0).padStart(7)} ${s.p50_ms!.toFixed(1).padStart(8)} ${s.p99_ms!.toFixed(1).padStart(7)} ${s.ratio_to_ceiling!.toFixed(3).padStart(10)} ${(s.server_cpu_ms_per_op?.toFixed(3) ?? '—').padStart(14)} ${(s.database_cpu_ms_per_op?.toFixed(3) ?? '—').padStart(10)}` : `${s.status}: ${s.note}`}`);
  }
  for (const t of report.targets) console.log(`target: ${t.target}: ${t.measured} (${t.met === null ? 'n/a' : t.met ? 'met' : 'NOT met'})`);
  if (report.journey_cpu) console.log(`login journey CPU (Gatehouse + PostgreSQL): ${report.journey_cpu.journey_ms.toFixed(1)} ms, one argon2id verification: ${report.journey_cpu.argon2_ms.toFixed(1)} ms, the journey client: ${journey?.own_cpu_ms_per_op?.toFixed(1) ?? '?'} ms`);
}
