import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

/** Runs the real `gatehouse` CLI (the TypeScript source through tsx) as a child process. */
export const REPO_ROOT = resolve(import.meta.dirname, '../..');
/** `root` is another checkout's root for a test that runs older code (test/upgrade.test.ts). */
const cliArgs = (root: string) => ['--import', 'tsx', join(root, 'src/cli/main.ts')];

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** An environment without the caller's database and secrets, so tests never touch real data. */
export function cliEnv(overrides: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: process.env.HOME, LOG_LEVEL: 'info', ...overrides };
  for (const [key, value] of Object.entries(env)) if (value === undefined) delete env[key];
  return env;
}

export function spawnCli(args: string[], env: NodeJS.ProcessEnv, root = REPO_ROOT): ChildProcess {
  return spawn(process.execPath, [...cliArgs(root), ...args], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
}

export function runCli(args: string[], env: NodeJS.ProcessEnv, timeoutMs = 90_000): Promise<CliResult> {
  return new Promise((resolvePromise, reject) => {
    const child = spawnCli(args, env);
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (chunk) => (stdout += chunk));
    child.stderr!.on('data', (chunk) => (stderr += chunk));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`gatehouse ${args.join(' ')} did not finish within ${timeoutMs} ms\n${stdout}\n${stderr}`));
    }, timeoutMs);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolvePromise({ code, signal, stdout, stderr });
    });
  });
}

export interface RunningCli {
  child: ChildProcess;
  url: string;
  /** Everything written so far, stdout and stderr. */
  output(): string;
  /** Resolves with the exit code once the process has ended. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

const started = new Set<ChildProcess>();

/** Kills servers a failed test left running, so no process outlives the test run. */
export function killStartedServers(): void {
  for (const child of started) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  started.clear();
}

/** Starts `gatehouse serve` and resolves once it logs the address it listens on. */
export function startServe(env: NodeJS.ProcessEnv, timeoutMs = 90_000, root = REPO_ROOT): Promise<RunningCli> {
  const child = spawnCli(['serve'], env, root);
  started.add(child);
  let output = '';
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolveExit) =>
    child.on('close', (code, signal) => resolveExit({ code, signal })),
  );
  return new Promise((resolvePromise, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`gatehouse serve did not start within ${timeoutMs} ms\n${output}`));
    }, timeoutMs);
    const onData = (chunk: Buffer) => {
      output += chunk;
      const match = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolvePromise({ child, url: match[1], output: () => output, exited });
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    void exited.then(({ code }) => {
      clearTimeout(timer);
      reject(new Error(`gatehouse serve exited with ${code} before listening\n${output}`));
    });
  });
}

/** A private temporary directory, removed by the returned cleanup. */
export function tempDir(prefix = 'gh-cli-'): { path: string; remove(): void } {
  const path = mkdtempSync(join(tmpdir(), prefix));
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}
