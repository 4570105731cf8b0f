/**
 * Which source files one warm password submit and one warm passkey submit enter, and how many
 * function calls each file takes (V8 precise coverage with call counts, taken around the one
 * request). The flow spine (`src/flows/runtime/`, `src/flows/methods/`, `state.ts`, `cookie.ts`)
 * is listed apart from the leaves (domain services, stores, `http/`, `core/`).
 *
 *   npx tsx bench/trace-submits.ts
 *
 * Calls count every invocation of a function of the file, calls inside the file included; the
 * files entered are what the method seam's hand traces (docs/design/seam-v2.md) count.
 */
import { Session } from 'node:inspector/promises';
import { fileURLToPath } from 'node:url';
import { relative } from 'node:path';
import { FlowClient, registerThroughFlow, STRONG_PASSWORD } from '../src/flows/flow-test-kit.js';
import { ORIGIN, PasskeyClient, passkeyFlowKit } from '../src/flows/methods/passkey/passkey-flow-test-kit.js';
import { createTestApp } from '../test/helpers/app.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const session = new Session();
session.connect();
await session.post('Profiler.enable');
await session.post('Profiler.startPreciseCoverage', { callCount: true, detailed: false });

type Coverage = { result: Array<{ url: string; functions: Array<{ functionName: string; ranges: Array<{ count: number }> }> }> };

/** Function calls per source file while `work` runs. */
async function callsDuring(work: () => Promise<unknown>): Promise<Map<string, number>> {
  await session.post('Profiler.takePreciseCoverage'); // resets the counts
  await work();
  const { result } = (await session.post('Profiler.takePreciseCoverage')) as Coverage;
  const calls = new Map<string, number>();
  for (const script of result) {
    if (!script.url.startsWith('file://')) continue;
    const file = relative(root, fileURLToPath(script.url.split('?')[0]));
    if (!file.startsWith('src/')) continue;
    const count = script.functions.reduce((sum, fn) => sum + (fn.functionName === '' && fn.ranges.length > 0 && fn === script.functions[0] ? 0 : fn.ranges[0].count), 0);
    if (count > 0) calls.set(file, count);
  }
  return calls;
}

const isSpine = (file: string) => /^src\/flows\/(runtime\/|methods\/|state\.ts)/.test(file) && !file.includes('test-kit');

function report(name: string, calls: Map<string, number>): void {
  const sorted = [...calls].sort((a, b) => b[1] - a[1]);
  const spine = sorted.filter(([file]) => isSpine(file));
  const leaves = sorted.filter(([file]) => !isSpine(file));
  console.log(`\n${name}: ${spine.length} spine files, ${leaves.length} leaf files`);
  console.log(`  spine: ${spine.map(([file, n]) => `${file.replace('src/flows/', '')} ${n}`).join(', ')}`);
  console.log(`  leaves: ${leaves.map(([file, n]) => `${file.replace('src/', '')} ${n}`).join(', ')}`);
}

async function settle(t: { container: { changes: { healthy: boolean } } }): Promise<void> {
  for (let i = 0; i < 1000 && !t.container.changes.healthy; i++) await new Promise((resolve) => setTimeout(resolve, 5));
}

// Password: the default login definition, identify then `sign_in` with the right password, no TOTP.
{
  const t = await createTestApp();
  await settle(t);
  const project = await t.createProject();
  await registerThroughFlow(t, project.id, 'traced@example.com');
  const login = async () => {
    const client = new FlowClient(t);
    const started = await client.start({ project_id: project.id, purpose: 'login' });
    const identified = await client.submit(started.json().id, 'continue', { email: 'traced@example.com' });
    return { client, id: identified.json().id as string };
  };
  const warm = await login(); // warms the per-process caches as a running service has them
  await warm.client.submit(warm.id, 'sign_in', { password: STRONG_PASSWORD });
  const { client, id } = await login();
  const calls = await callsDuring(async () => {
    const done = await client.submit(id, 'sign_in', { password: STRONG_PASSWORD });
    if (!done.json().handoff_token) throw new Error(`the password submit did not complete: ${done.body}`);
  });
  report('password submit (step password, action sign_in)', calls);
  await t.close();
}

// Passkey: the usernameless answer to the autofill challenge of the first step.
{
  const kit = await passkeyFlowKit();
  await settle(kit.t);
  const authenticator = kit.authenticator();
  await kit.registerWithPasskey('traced@example.com', authenticator);
  const warm = new PasskeyClient(kit.t);
  const warmStart = await warm.begin(kit.projectId, 'login');
  await warm.answer(warmStart, 'passkey', await authenticator.get(warmStart.json().step.challenge.options, { origin: ORIGIN }));
  const client = new PasskeyClient(kit.t);
  const started = await client.begin(kit.projectId, 'login');
  const proof = await authenticator.get(started.json().step.challenge.options, { origin: ORIGIN });
  const calls = await callsDuring(async () => {
    const answered = await client.answer(started, 'passkey', proof);
    if (!answered.json().handoff_token) throw new Error(`the passkey submit did not complete: ${answered.body}`);
  });
  report('passkey submit (step identify, action passkey)', calls);
  await kit.t.close();
}
session.disconnect();
