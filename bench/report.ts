import type { CpuSplit, ProbeReport } from './measure.js';
import { readFileSync, writeFileSync } from 'node:fs';

export interface ScenarioResult {
  name: string;
  description: string;
  status: 'ok' | 'unavailable' | 'failed';
  note?: string;
  requests_per_sec?: number;
  p50_ms?: number;
  p99_ms?: number;
  /** recovery_timing: medians of the code request for addresses with and without an account */
  known_p50_ms?: number;
  unknown_p50_ms?: number;
  ratio_to_ceiling?: number;
  errors?: number;
  non_2xx?: number;
  total?: number;
  max_rss_mb?: number;
  /** The process's own view (/metrics) when its RSS peaked: rss, heap_total, external, heap spaces (MB). */
  memory_at_max_mb?: Record<string, number>;
  /** CPU time of the Gatehouse process (all threads) per request or journey while measured. */
  server_cpu_ms_per_op?: number;
  /** The same by thread: the main thread's user and system (kernel) time, and the other threads' (libuv's pool, V8's). */
  server_cpu_split_ms_per_op?: CpuSplit;
  /** CPU time of all local PostgreSQL processes per request or journey while measured (0 on PGlite). */
  database_cpu_ms_per_op?: number;
  /** The load process's own CPU per operation: argon2_only, one verification; login_journey, the client's side. */
  own_cpu_ms_per_op?: number;
  /** soak: latency and errors per kind of operation */
  operations?: Record<string, { count: number; errors: number; p50_ms: number; p99_ms: number; first_error?: string }>;
  /** What bench/loop-probe.mjs saw inside the server over the measured part: event-loop delay, GC pauses, memory. */
  probe?: ProbeReport;
}

export interface BenchReport {
  date: string;
  engine: 'postgres' | 'pglite';
  node: string;
  cpus: number;
  cpu_model: string;
  connections: number;
  duration_seconds: number;
  /** Node.js/V8 flags of the measured server (`--server-flags`), when any. */
  server_flags?: string;
  /** LOG_LEVEL of the measured server. */
  log_level?: string;
  ceiling_requests_per_sec: number;
  scenarios: ScenarioResult[];
  zflow_bytes: Record<string, Array<{ step: string; zflowBytes: number }>>;
  /** CPU of one login journey on the server side (Gatehouse + PostgreSQL) against one argon2id verification. */
  journey_cpu?: { journey_ms: number; argon2_ms: number };
  targets: Array<{ target: string; measured: string; met: boolean | null }>;
}

const fmt = (value: number | undefined, digits = 1) => (value === undefined ? '—' : value.toFixed(digits));

export function markdownTable(report: BenchReport): string {
  const lines = [
    `Run ${report.date} on ${report.engine}, Node ${report.node}, ${report.cpus} CPUs (${report.cpu_model}), ${report.connections} connections, ${report.duration_seconds} s per scenario, LOG_LEVEL=${report.log_level ?? 'warn'}.`,
    '',
    '| scenario | req/s | p50 ms | p99 ms | × ceiling | server CPU ms/op | raw requests\' worth | PostgreSQL CPU ms/op | event-loop delay p99 / max ms | max RSS MB | errors / non-2xx |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  const raw = report.scenarios.find((s) => s.name === 'ceiling')?.server_cpu_ms_per_op;
  for (const s of report.scenarios) {
    if (s.status !== 'ok') {
      lines.push(`| ${s.name} | ${s.status}: ${s.note ?? ''} | | | | | | | | | |`);
      continue;
    }
    lines.push(
      `| ${s.name} | ${fmt(s.requests_per_sec, 0)} | ${fmt(s.p50_ms)} | ${fmt(s.p99_ms)} | ${fmt(s.ratio_to_ceiling, 3)} | ${fmt(s.server_cpu_ms_per_op, 3)} | ${raw && s.server_cpu_ms_per_op !== undefined ? fmt(s.server_cpu_ms_per_op / raw) : '—'} | ${fmt(s.database_cpu_ms_per_op, 3)} | ${s.probe ? `${s.probe.loop_delay_ms.p99} / ${s.probe.loop_delay_ms.max}` : '—'} | ${fmt(s.max_rss_mb, 0)} | ${s.errors ?? 0} / ${s.non_2xx ?? 0} |`,
    );
  }
  lines.push('', '| target | measured | met |', '|---|---|---|');
  for (const t of report.targets) lines.push(`| ${t.target} | ${t.measured} | ${t.met === null ? 'n/a' : t.met ? 'yes' : 'no'} |`);
  if (report.journey_cpu) {
    const { journey_ms, argon2_ms } = report.journey_cpu;
    lines.push('', `CPU per login journey (Gatehouse + PostgreSQL): ${journey_ms.toFixed(1)} ms, of which one argon2id verification ${argon2_ms.toFixed(1)} ms: ${(100 * (1 - argon2_ms / journey_ms)).toFixed(1)} % of the journey's CPU is not hashing.`);
  }
  const soak = report.scenarios.find((s) => s.name === 'soak' && s.operations);
  if (soak?.operations) {
    lines.push('', '| soak operation | count | p50 ms | p99 ms | errors |', '|---|---:|---:|---:|---:|');
    for (const [name, op] of Object.entries(soak.operations)) lines.push(`| ${name} | ${op.count} | ${fmt(op.p50_ms)} | ${fmt(op.p99_ms)} | ${op.errors} |`);
    const series = soak.probe?.series ?? [];
    if (series.length > 0) lines.push('', `Soak memory every 5 s (RSS / heap used, MB): ${series.map((p) => `${p.rss}/${p.heap_used}`).join(', ')}.`);
  }
  const flows = Object.entries(report.zflow_bytes);
  if (flows.length > 0) {
    lines.push('', '| journey | `_zflow` bytes per step |', '|---|---|');
    for (const [journey, steps] of flows) lines.push(`| ${journey} | ${steps.map((s) => `${s.step}: ${s.zflowBytes}`).join(', ')} |`);
  }
  return lines.join('\n');
}

/** A horizontal bar chart of throughput per scenario, as a standalone SVG. */
export function throughputSvg(report: BenchReport): string {
  const rows = report.scenarios.filter((s) => s.status === 'ok' && s.requests_per_sec !== undefined);
  const max = Math.max(1, ...rows.map((s) => s.requests_per_sec!));
  const rowHeight = 28;
  const labelWidth = 190;
  const barWidth = 460;
  const height = 50 + rows.length * rowHeight;
  const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;');
  const bars = rows
    .map((s, i) => {
      const y = 36 + i * rowHeight;
      const width = Math.max(1, Math.round((s.requests_per_sec! / max) * barWidth));
      const label = `${Math.round(s.requests_per_sec!)} req/s (${fmt(s.ratio_to_ceiling, 3)}×)`;
      return [
        `<text x="${labelWidth - 8}" y="${y + 16}" text-anchor="end">${escape(s.name)}</text>`,
        `<rect x="${labelWidth}" y="${y}" width="${width}" height="${rowHeight - 8}" fill="${s.name === 'ceiling' ? '#9aa5b1' : '#2f6fde'}"/>`,
        `<text x="${labelWidth + width + 6}" y="${y + 16}">${escape(label)}</text>`,
      ].join('');
    })
    .join('\n');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${labelWidth + barWidth + 200}" height="${height}" font-family="sans-serif" font-size="13">
<text x="10" y="20" font-weight="bold">Gatehouse throughput per scenario — ${escape(report.engine)}, ${report.cpus} CPUs, Node ${escape(report.node)}, ${report.date}</text>
${bars}
</svg>
`;
}

/** Replaces the generated block of docs/performance.md for the report's engine, keeping the hand-written text around it. */
export function updatePerformanceDoc(path: string, report: BenchReport, chartPath: string): void {
  const start = `<!-- bench:results:${report.engine}:start -->`;
  const end = `<!-- bench:results:${report.engine}:end -->`;
  const block = `${start}\n${markdownTable(report)}\n\n![throughput per scenario on ${report.engine}](${chartPath})\n${end}`;
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    text = `# Performance\n\n${start}\n${end}\n`;
  }
  const next = text.includes(start) ? text.replace(new RegExp(`${start}[\\s\\S]*?${end}`), () => block) : `${text}\n${block}\n`;
  writeFileSync(path, next);
}
