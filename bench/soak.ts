/**
 * The mixed soak (issue 38, items 5 and 6): session checks, flows and logins at once for a while,
 * from the load process. Each kind of operation runs in its own closed loops (a worker sends the
 * next request when the last one answered), so the mix stays what it is whatever the machine:
 * - `session_check`: GET /sessions/me with the seeded session's cookie;
 * - `flow`: POST /flow and its first submit (an identify), then abandoned, as many visitors do;
 * - `login`: the whole login journey (argon2 included) and its exchange.
 * The result has p50/p99 and errors per operation; the server's memory series comes from the
 * probe inside it (bench/loop-probe.mjs).
 */
import { Agent, request } from 'node:http';
import { exchange, post, runJourney } from './journey.js';

export interface SoakSpec {
  kind: 'soak';
  baseUrl: string;
  projectId: string;
  secret: string;
  sessionToken: string;
  emails: string[];
  password: string;
  durationSeconds: number;
  /** closed loops per operation */
  workers: { session_check: number; flow: number; login: number };
  /** With `--heap-snapshots`: the server to signal (SIGTTIN, bench/loop-probe.mjs) after the first minute and before the end. */
  heapSnapshotsOf?: number;
}

export interface SoakOperation {
  count: number;
  errors: number;
  p50_ms: number;
  p99_ms: number;
  first_error?: string;
}

const agent = new Agent({ keepAlive: true, maxSockets: 64 });

function get(url: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'GET', agent, headers }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

function percentile(sorted: number[], p: number): number {
  return sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

export async function soak(spec: SoakSpec, measuring: () => void): Promise<{ total: number; errors: number; requests_per_sec: number; p50_ms: number; p99_ms: number; non_2xx: number; operations: Record<string, SoakOperation> }> {
  const operations: Record<string, () => Promise<true | string>> = {
    session_check: async () => {
      const status = await get(`${spec.baseUrl}/sessions/me`, { cookie: `__service_session=${spec.sessionToken}` });
      return status === 200 || `answered ${status}`;
    },
    flow: async () => {
      const started = await post(`${spec.baseUrl}/flow`, {}, { project_id: spec.projectId, purpose: 'login' });
      if (started.status !== 200) return `POST /flow answered ${started.status}`;
      const cookie = /^_zflow=([^;]*)/.exec(started.setCookie.find((line) => line.startsWith('_zflow=')) ?? '')?.[1] ?? '';
      const flow = started.json as { id: string; step: { fields?: Array<{ name: string }>; actions?: Array<{ name: string; primary?: boolean }> } };
      const email = spec.emails[Math.floor(Math.random() * spec.emails.length)];
      // The identify step's own field and primary action, as runJourney fills them.
      const fields = Object.fromEntries((flow.step.fields ?? []).filter((field) => ['email', 'identifier'].includes(field.name)).map((field) => [field.name, email]));
      const action = flow.step.actions?.find((a) => a.primary) ?? flow.step.actions?.[0];
      const identified = await post(`${spec.baseUrl}/flow/${flow.id}/submit`, { cookie: `_zflow=${cookie}` }, { action: action?.name, fields });
      return identified.status === 200 || `submit answered ${identified.status}`;
    },
    login: async () => {
      const email = spec.emails[Math.floor(Math.random() * spec.emails.length)];
      const journey = await runJourney(spec.baseUrl, spec.projectId, 'login', { email, identifier: email, password: spec.password });
      if (!journey.ok || !journey.handoffToken) return journey.error ?? 'journey did not complete';
      await exchange(spec.baseUrl, spec.projectId, spec.secret, journey.handoffToken);
      return true;
    },
  };
  const latencies: Record<string, number[]> = {};
  const failures: Record<string, { errors: number; first?: string }> = {};
  let recording = false;
  const loop = async (name: string, until: () => boolean) => {
    while (until()) {
      const begin = performance.now();
      const ok = await operations[name]().catch((error: unknown) => String(error));
      if (!recording) continue;
      if (ok === true) (latencies[name] ??= []).push(performance.now() - begin);
      else {
        const failure = (failures[name] ??= { errors: 0 });
        failure.errors++;
        failure.first ??= ok;
      }
    }
  };
  const run = (seconds: number) => {
    const end = performance.now() + seconds * 1000;
    const workers = Object.entries(spec.workers).flatMap(([name, n]) => Array.from({ length: n }, () => loop(name, () => performance.now() < end)));
    return Promise.all(workers);
  };
  // A short warm-up (JIT, pool connections) that is not recorded.
  await run(Math.min(10, Math.max(2, spec.durationSeconds / 10)));
  measuring();
  recording = true;
  const started = performance.now();
  const snapshots = spec.heapSnapshotsOf === undefined ? [] : heapSnapshotTimers(spec.heapSnapshotsOf, spec.durationSeconds);
  await run(spec.durationSeconds);
  for (const timer of snapshots) clearTimeout(timer);
  const elapsed = (performance.now() - started) / 1000;
  const result: Record<string, SoakOperation> = {};
  let total = 0;
  let errors = 0;
  const all: number[] = [];
  for (const name of Object.keys(operations)) {
    const sorted = (latencies[name] ?? []).sort((a, b) => a - b);
    const failure = failures[name];
    result[name] = { count: sorted.length, errors: failure?.errors ?? 0, p50_ms: percentile(sorted, 50), p99_ms: percentile(sorted, 99), ...(failure?.first ? { first_error: failure.first } : {}) };
    total += sorted.length;
    errors += failure?.errors ?? 0;
    // Not `push(...sorted)`: a long soak records more latencies than a call may take arguments.
    for (const latency of sorted) all.push(latency);
  }
  all.sort((a, b) => a - b);
  return { total, errors, non_2xx: 0, requests_per_sec: total / elapsed, p50_ms: percentile(all, 50), p99_ms: percentile(all, 99), operations: result };
}

/** Minute 1 and shortly before the end (both while the load runs), or half-way and the end of a short soak. */
function heapSnapshotTimers(pid: number, durationSeconds: number): NodeJS.Timeout[] {
  const first = durationSeconds >= 120 ? 60 : durationSeconds / 4;
  const last = Math.max(first + 1, durationSeconds - Math.min(15, durationSeconds / 10));
  return [first, last].map((seconds) => setTimeout(() => process.kill(pid, 'SIGTTIN'), seconds * 1000));
}

/** RSS and heap of the server over the soak, as a standalone SVG line chart. */
export function memorySvg(series: Array<{ t: number; rss: number; heap_used: number; heap_total: number }>, title: string, limitMb = 200): string {
  const width = 720;
  const height = 320;
  const left = 50;
  const bottom = 40;
  const t0 = series[0]?.t ?? 0;
  const tMax = Math.max(1, ...series.map((p) => p.t - t0));
  const yMax = Math.max(limitMb * 1.1, ...series.map((p) => p.rss));
  const x = (t: number) => left + ((t - t0) / tMax) * (width - left - 20);
  const y = (mb: number) => height - bottom - (mb / yMax) * (height - bottom - 30);
  const line = (key: 'rss' | 'heap_used' | 'heap_total', color: string) =>
    `<polyline fill="none" stroke="${color}" stroke-width="2" points="${series.map((p) => `${x(p.t).toFixed(1)},${y(p[key]).toFixed(1)}`).join(' ')}"/>`;
  const ticks = [0, 0.25, 0.5, 0.75, 1].map((f) => Math.round(f * yMax));
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" font-family="sans-serif" font-size="12">
<text x="10" y="18" font-weight="bold">${title.replace(/&/g, '&amp;').replace(/</g, '&lt;')}</text>
${ticks.map((mb) => `<line x1="${left}" x2="${width - 20}" y1="${y(mb)}" y2="${y(mb)}" stroke="#ddd"/><text x="${left - 6}" y="${y(mb) + 4}" text-anchor="end">${mb}</text>`).join('\n')}
<line x1="${left}" x2="${width - 20}" y1="${y(limitMb)}" y2="${y(limitMb)}" stroke="#c33" stroke-dasharray="6 4"/><text x="${width - 20}" y="${y(limitMb) - 4}" text-anchor="end" fill="#c33">${limitMb} MB target</text>
${line('rss', '#2f6fde')}
${line('heap_total', '#9aa5b1')}
${line('heap_used', '#2a9d5c')}
<text x="${left}" y="${height - 12}">0 s</text><text x="${width - 20}" y="${height - 12}" text-anchor="end">${tMax} s</text>
<text x="${left + 60}" y="${height - 12}" fill="#2f6fde">RSS</text><text x="${left + 100}" y="${height - 12}" fill="#9aa5b1">heap total</text><text x="${left + 180}" y="${height - 12}" fill="#2a9d5c">heap used</text> <text x="${left + 260}" y="${height - 12}">MB</text>
</svg>
`;
}
