import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startScriptNodeFlags } from '../../bench/start-flags.js';

/** Starts and stops PostgreSQL-backed `gatehouse serve` processes on loopback. */
const ROOT = resolve(import.meta.dirname, '../..');
const TSX_CLI = ['--import', 'tsx', join(ROOT, 'src/cli/main.ts')];

/**
 * The server's sources turned into JavaScript file by file (esbuild, as tsx does on the fly), in a
 * folder beside `src/` and `dist/`, so that the paths the code resolves from its own location
 * (`../../package.json`, `src/db/migrations/`, `dist/ui-assets/`) hold. A node then starts in a
 * few seconds instead of spending them in tsx's loader, which matters on a busy machine where a
 * restarted node should be back soon. `remove()` deletes the folder.
 */
export async function transpileServer(): Promise<{ cli: string[]; remove(): void }> {
  const { build } = await import('esbuild');
  const outdir = join(ROOT, `.cluster-build-${randomBytes(4).toString('hex')}`);
  const entryPoints = (readdirSync(join(ROOT, 'src'), { recursive: true }) as string[])
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts') && !file.endsWith('.d.ts') && !file.startsWith('ui/client'))
    .map((file) => join(ROOT, 'src', file));
  await build({ entryPoints, outdir, outbase: join(ROOT, 'src'), format: 'esm', platform: 'node', target: 'node20', bundle: false, logLevel: 'error' });
  return { cli: [join(outdir, 'cli/main.js')], remove: () => rmSync(outdir, { recursive: true, force: true }) };
}

export interface ClusterSettings {
  databaseUrl: string;
  /** The address clients use: the proxy's. Links, cookies and the issuer name it, on every node. */
  publicUrl: string;
  adminToken: string;
  secret: string;
  logLevel?: string;
  /** Passed on to every node (e.g. OTEL_EXPORTER_OTLP_ENDPOINT). */
  extraEnv?: Record<string, string>;
  /** Node.js arguments that run the CLI (default: the sources through tsx); see transpileServer(). */
  cli?: string[];
}

export async function freeLoopbackPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((done, fail) => {
    probe.once('error', fail);
    probe.listen(0, '127.0.0.1', done);
  });
  const { port } = probe.address() as { port: number };
  await new Promise<void>((done) => probe.close(() => done()));
  return port;
}

/** One node: a port of its own that survives restarts, and the process running on it now. */
export class ClusterNode {
  child: ChildProcess | undefined;
  output = '';
  private readonly dataDir = mkdtempSync(join(tmpdir(), 'gh-cluster-node-'));

  constructor(
    readonly index: number,
    readonly port: number,
    private readonly settings: ClusterSettings,
  ) {}

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  get running(): boolean {
    return this.child !== undefined && this.child.exitCode === null && this.child.signalCode === null;
  }

  /** Spawns `gatehouse serve` and resolves once it listens. */
  start(timeoutMs = 90_000): Promise<void> {
    const { settings } = this;
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      DATABASE_URL: settings.databaseUrl,
      HOST: '127.0.0.1',
      PORT: String(this.port),
      GATEHOUSE_PUBLIC_URL: settings.publicUrl,
      GATEHOUSE_ADMIN_TOKEN: settings.adminToken,
      GATEHOUSE_SECRET: settings.secret,
      GATEHOUSE_DATA_DIR: this.dataDir,
      LOG_LEVEL: settings.logLevel ?? 'warn',
      ...settings.extraEnv,
    };
    // Each node starts with the Node.js flags of `npm start`, as a deployed one does (docs/operations.md, Memory).
    const child = spawn(process.execPath, [...startScriptNodeFlags(ROOT), ...(settings.cli ?? TSX_CLI), 'serve'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    this.child = child;
    this.output = '';
    return new Promise((resolvePromise, reject) => {
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        reject(new Error(`node ${this.index} did not start within ${timeoutMs} ms\n${this.output}`));
      }, timeoutMs);
      let ready = false;
      const check = async () => {
        // Listening is logged at info; the cluster logs at warn, so readiness is asked instead.
        while (!ready && child.exitCode === null) {
          try {
            if ((await fetch(`${this.url}/healthz`)).ok) ready = true;
          } catch {
            await new Promise((r) => setTimeout(r, 50));
          }
        }
        clearTimeout(timer);
        if (ready) resolvePromise();
      };
      const keep = (chunk: Buffer) => {
        this.output = (this.output + String(chunk)).slice(-20_000);
      };
      child.stdout!.on('data', keep);
      child.stderr!.on('data', keep);
      child.once('exit', (code, signal) => {
        if (!ready) {
          clearTimeout(timer);
          reject(new Error(`node ${this.index} exited (${code ?? signal}) before listening\n${this.output}`));
        }
      });
      void check();
    });
  }

  /** `kill -9`: no drain, no goodbye. Resolves once the process is gone. */
  async kill(): Promise<void> {
    const child = this.child;
    if (!child || !this.running) return;
    const gone = new Promise((r) => child.once('exit', r));
    child.kill('SIGKILL');
    await gone;
  }

  /**
   * A graceful stop (SIGTERM: finish requests in progress, then exit). `signal: false` only waits:
   * a Ctrl-C in the terminal already reached the node (same process group), and a second signal
   * would make it skip the drain.
   */
  async stop(signal = true): Promise<void> {
    const child = this.child;
    if (!child || !this.running) return;
    const gone = new Promise((r) => child.once('exit', r));
    if (signal) child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await gone;
    clearTimeout(timer);
  }

  removeDataDir(): void {
    rmSync(this.dataDir, { recursive: true, force: true });
  }
}

/**
 * Starts `count` nodes at once: each applies pending migrations under PostgreSQL's advisory lock,
 * so the first to take it migrates and the others find nothing to do.
 */
export async function startNodes(count: number, settings: ClusterSettings, ports?: number[]): Promise<ClusterNode[]> {
  const chosen = ports ?? (await Promise.all(Array.from({ length: count }, () => freeLoopbackPort())));
  const nodes = chosen.map((port, index) => new ClusterNode(index, port, settings));
  try {
    await Promise.all(nodes.map((node) => node.start()));
  } catch (error) {
    for (const node of nodes) await node.kill();
    throw error;
  }
  return nodes;
}
