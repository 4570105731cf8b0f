import { exchange, runJourney } from './journey.js';
import { cpuMs, databaseCpuMs, databaseCpuSince } from './measure.js';
import type { BenchReport, ScenarioResult } from './report.js';
import { registerEndpoints, startReceivers, stopReceivers, type Receiver } from './webhook-receivers.js';

/**
 * The webhook scenarios of `npm run bench` (docs/performance.md, "Webhooks"), run against the
 * server the other scenarios measured, which runs with GATEHOUSE_WEBHOOK_ALLOW_PRIVATE=1 so that
 * local receivers are valid targets; the worker keeps its defaults (one round per second).
 *
 * - `webhook_delivery`: events fanned out to N endpoints, each a real local HTTP receiver that
 *   verifies the signature; deliveries per second from the first event written to the last
 *   delivery received (the worker drains while the events are written). Its ratio to the ceiling
 *   is computed by run.ts like every scenario's.
 * - `webhook_login_overhead`: the password-login journey (flow + submits + exchange) in A/B pairs,
 *   without and with 3 endpoints subscribed to every event (the 3 are disabled for A, enabled for
 *   B; the order alternates per pair). What B pays: the outbox rows written with each event, and
 *   the worker's rounds sending them on the same server. Reported as a target line: mean journey
 *   time with webhooks / without.
 */
export interface WebhookBenchOptions {
  baseUrl: string;
  adminToken: string;
  serverPid: number;
  durationSeconds: number;
  only?: Set<string>;
  /** the seeded login project; the A/B scenario is unavailable without it */
  login?: { projectId: string; secret: string; emails: string[]; password: string; concurrency: number };
  endpoints?: number;
}

const percentile = (values: number[], p: number) => {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
};
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const api = async (baseUrl: string, method: string, path: string, token: string, body?: unknown) => {
  const response = await fetch(`${baseUrl}${path}`, { method, headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  const text = await response.text();
  return { status: response.status, json: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
};
const receivedCount = (receivers: Receiver[]) => receivers.reduce((sum, receiver) => sum + receiver.received.size, 0);

async function deliveryThroughput(options: WebhookBenchOptions): Promise<ScenarioResult> {
  const name = 'webhook_delivery';
  const endpoints = options.endpoints ?? 8;
  const events = Math.max(20, options.durationSeconds * 10);
  const description = `${events} events (POST /teams) fanned out to ${endpoints} local receivers verifying signatures; deliveries/s, p50/p99 = event to receipt`;
  const { baseUrl, adminToken } = options;
  const project = await api(baseUrl, 'POST', '/projects', adminToken, { name: 'bench-webhooks' });
  if (project.status !== 201) return { name, description, status: 'failed', note: `POST /projects answered ${project.status}` };
  const projectId = project.json.id as string;
  const secret = project.json.project_secret as string;
  const receivers = await startReceivers(endpoints);
  try {
    await registerEndpoints(baseUrl, projectId, secret, receivers, ['team.created']);
    const cpuBefore = cpuMs(options.serverPid);
    const databaseBefore = databaseCpuMs();
    const started = Date.now();
    let next = 0;
    let failed = 0;
    const writer = async () => {
      for (let i = next++; i < events; i = next++) if ((await api(baseUrl, 'POST', `/teams?project_id=${projectId}`, secret, { name: `team ${i}` })).status !== 201) failed++;
    };
    await Promise.all(Array.from({ length: 8 }, writer));
    const expected = (events - failed) * endpoints;
    const deadline = started + (options.durationSeconds * 6 + 60) * 1000;
    while (receivedCount(receivers) < expected && Date.now() < deadline) await sleep(20);
    const receipts = receivers.flatMap((receiver) => [...receiver.received.values()]);
    const last = Math.max(started + 1, ...receipts.map((receipt) => receipt.at));
    const delivered = receipts.length;
    const seconds = (last - started) / 1000;
    const latencies = receipts.map((receipt) => receipt.latencyMs);
    const bad = receivers.reduce((sum, receiver) => sum + receiver.bad, 0);
    return {
      name,
      description,
      status: 'ok',
      requests_per_sec: delivered / seconds,
      p50_ms: percentile(latencies, 50),
      p99_ms: percentile(latencies, 99),
      total: delivered,
      errors: failed + bad,
      non_2xx: expected - delivered,
      server_cpu_ms_per_op: delivered > 0 ? (cpuMs(options.serverPid) - cpuBefore) / delivered : undefined,
      database_cpu_ms_per_op: delivered > 0 ? databaseCpuSince(databaseBefore) / delivered : undefined,
      note: `${delivered} of ${expected} deliveries in ${seconds.toFixed(1)} s; ${bad} bad signatures`,
    };
  } finally {
    await stopReceivers(receivers);
    await api(baseUrl, 'DELETE', `/projects/${projectId}`, adminToken);
  }
}

/** The A/B login journeys; the ratio goes to the report's targets. */
async function loginOverhead(options: WebhookBenchOptions): Promise<{ scenario: ScenarioResult; target?: BenchReport['targets'][number] }> {
  const name = 'webhook_login_overhead';
  const description = 'login journeys in A/B pairs: 0 vs 3 endpoints subscribed to every event; journeys/s with webhooks';
  const login = options.login;
  if (!login) return { scenario: { name, description, status: 'unavailable', note: 'the login journey is unavailable' } };
  const { baseUrl } = options;
  const receivers = await startReceivers(3);
  const ids = await registerEndpoints(baseUrl, login.projectId, login.secret, receivers, ['*']);
  const setEnabled = async (enabled: boolean) => {
    for (const id of ids) if ((await api(baseUrl, 'PATCH', `/projects/${login.projectId}/webhooks/${id}`, login.secret, { enabled })).status !== 200) throw new Error(`PATCH webhook answered non-200`);
  };
  let cursor = 0;
  let errors = 0;
  /** `count` journeys at the scenario's concurrency; each one's time (ms). */
  const half = async (count: number): Promise<number[]> => {
    const times: number[] = [];
    let left = count;
    const worker = async () => {
      while (left-- > 0) {
        const email = login.emails[cursor++ % login.emails.length];
        const begin = performance.now();
        const result = await runJourney(baseUrl, login.projectId, 'login', { email, identifier: email, password: login.password });
        if (!result.ok || !result.handoffToken) {
          errors++;
          continue;
        }
        await exchange(baseUrl, login.projectId, login.secret, result.handoffToken).then(() => times.push(performance.now() - begin), () => errors++);
      }
    };
    await Promise.all(Array.from({ length: login.concurrency }, worker));
    return times;
  };
  try {
    const perHalf = login.concurrency * 3;
    const pairs = Math.max(3, options.durationSeconds);
    await half(perHalf); // warm-up, webhooks on
    const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / Math.max(1, values.length);
    const without: number[] = [];
    const withHooks: number[] = [];
    const ratios: number[] = [];
    const cpuBefore = cpuMs(options.serverPid);
    const started = Date.now();
    for (let pair = 0; pair < pairs; pair++) {
      const order = pair % 2 === 0 ? [false, true] : [true, false];
      const times: Record<string, number[]> = {};
      for (const enabled of order) {
        await setEnabled(enabled);
        times[String(enabled)] = await half(perHalf);
      }
      without.push(...times.false);
      withHooks.push(...times.true);
      ratios.push(mean(times.true) / mean(times.false));
    }
    const seconds = (Date.now() - started) / 1000;
    const ratio = mean(withHooks) / mean(without);
    const delivered = receivedCount(receivers);
    const measured = `${ratio.toFixed(3)} × (mean ${mean(withHooks).toFixed(1)} vs ${mean(without).toFixed(1)} ms over ${pairs} pairs of ${perHalf} journeys at concurrency ${login.concurrency}; per-pair ratios ${percentile(ratios, 0).toFixed(3)}–${percentile(ratios, 100).toFixed(3)}, median ${percentile(ratios, 50).toFixed(3)}; ${delivered} deliveries received meanwhile)`;
    return {
      scenario: {
        name,
        description,
        status: 'ok',
        requests_per_sec: (withHooks.length + without.length) / seconds,
        p50_ms: percentile(withHooks, 50),
        p99_ms: percentile(withHooks, 99),
        total: withHooks.length + without.length,
        errors,
        non_2xx: 0,
        server_cpu_ms_per_op: (cpuMs(options.serverPid) - cpuBefore) / Math.max(1, withHooks.length + without.length),
        note: measured,
      },
      target: { target: 'outbox cost on the login journey: journey time with 3 webhook endpoints / without (A/B pairs)', measured, met: null },
    };
  } finally {
    await setEnabled(false).catch(() => {});
    for (const id of ids) await api(baseUrl, 'DELETE', `/projects/${login.projectId}/webhooks/${id}`, login.secret).catch(() => undefined);
    await stopReceivers(receivers);
  }
}

/** Both scenarios (those `--only` names), and the target line of the A/B ratio. */
export async function webhookScenarios(options: WebhookBenchOptions): Promise<{ scenarios: ScenarioResult[]; targets: BenchReport['targets'] }> {
  const scenarios: ScenarioResult[] = [];
  const targets: BenchReport['targets'] = [];
  const wanted = (name: string) => !options.only || options.only.has(name);
  const guarded = async (name: string, run: () => Promise<void>) => {
    try {
      await run();
    } catch (error) {
      scenarios.push({ name, description: name, status: 'failed', note: (error as Error).message });
    }
    const last = scenarios.at(-1);
    if (last) console.log(`bench: ${last.name}: ${last.status === 'ok' ? `${last.requests_per_sec!.toFixed(1)}/s, p50 ${last.p50_ms!.toFixed(1)} ms, p99 ${last.p99_ms!.toFixed(1)} ms, errors ${last.errors}; ${last.note}` : `${last.status} (${last.note})`}`);
  };
  if (wanted('webhook_delivery')) await guarded('webhook_delivery', async () => void scenarios.push(await deliveryThroughput(options)));
  if (wanted('webhook_login_overhead')) {
    await guarded('webhook_login_overhead', async () => {
      const { scenario, target } = await loginOverhead(options);
      scenarios.push(scenario);
      if (target) targets.push(target);
    });
  }
  return { scenarios, targets };
}
