import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, openSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startScriptNodeFlags } from './start-flags.js';

/**
 * Starts bench/traced-server.mjs (the same build, tracing on, in-memory exporter) on the measured
 * server's database, beside it, for the `sessions_me_traced` scenario. PostgreSQL only: the
 * embedded database belongs to one process.
 */
export async function startTracedServer(root: string, env: NodeJS.ProcessEnv, port: number): Promise<{ url: string; child: ChildProcess }> {
  const url = `http://127.0.0.1:${port}`;
  const dataDir = mkdtempSync(join(tmpdir(), 'gh-bench-traced-'));
  const log = openSync(join(dataDir, 'gatehouse.log'), 'a');
  const child = spawn(process.execPath, [...startScriptNodeFlags(root), join(root, 'bench/traced-server.mjs')], {
    cwd: root,
    env: { ...env, PORT: String(port), GATEHOUSE_PUBLIC_URL: url, GATEHOUSE_DATA_DIR: dataDir },
    stdio: ['ignore', log, 'inherit'],
  });
  for (let i = 0; i < 300; i++) {
    if (child.exitCode !== null) throw new Error(`the traced server exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${url}/healthz`)).ok) return { url, child };
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  child.kill('SIGKILL');
  throw new Error('the traced server did not become healthy in 30 s');
}
