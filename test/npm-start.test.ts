import { spawn } from 'node:child_process';
import { connect } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { cliEnv, REPO_ROOT, tempDir } from './helpers/process.js';

function refused(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.on('connect', () => (socket.destroy(), resolve(false)));
    socket.on('error', () => resolve(true));
  });
}

/**
 * `npm start` as a process manager runs it: SIGTERM goes to npm, which passes it to its child.
 * Without `exec` in the start script that child is a shell that dies and leaves the server
 * running, orphaned (issue 12 item 8).
 */
describe('npm start', { timeout: 240_000 }, () => {
  const dir = tempDir();
  let serverPid: number | undefined;
  afterAll(() => {
    // Never leave an orphaned server behind, even when the test failed.
    if (serverPid) {
      try {
        process.kill(serverPid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
    dir.remove();
  });

  it('builds, serves, and stops the server on SIGTERM to npm', async () => {
    const npm = spawn('npm', ['start'], { cwd: REPO_ROOT, env: cliEnv({ GATEHOUSE_DATA_DIR: dir.path, PORT: '0' }), stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const exited = new Promise<void>((resolve) => npm.on('exit', () => resolve()));
    const listening = new Promise<number>((resolve, reject) => {
      const onData = (chunk: Buffer) => {
        output += chunk;
        const pid = /"pid":(\d+)/.exec(output);
        if (pid) serverPid = Number(pid[1]);
        const match = /Server listening at http:\/\/127\.0\.0\.1:(\d+)/.exec(output);
        if (match) resolve(Number(match[1]));
      };
      npm.stdout!.on('data', onData);
      npm.stderr!.on('data', onData);
      void exited.then(() => reject(new Error(`npm start exited before listening\n${output}`)));
    });
    const port = await listening;
    expect(await refused(port)).toBe(false);
    // No operator yet: one plain line opens the console's first-run page, which answers.
    const printed = Date.now() + 20_000;
    while (!/^open \S+\/console\/setup\?token=\S+$/m.test(output) && Date.now() < printed) await new Promise((resolve) => setTimeout(resolve, 50));
    const setup = /^open (\S+\/console\/setup\?token=gh_setup_\S+)$/m.exec(output);
    expect(setup).not.toBeNull();
    // The service bounds the old generation's growth itself (GATEHOUSE_HEAP_GROWTH_PERCENT, default 15), once it listens.
    while (!output.includes('"heap_growth"') && Date.now() < printed) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(output).toContain('"heap_growth":{"source":"setting","percent":15}');
    // …and reports the young generation's bound that the start script gives node.
    expect(output).toContain('"semi_space":"--max-semi-space-size=8"');
    const page = await fetch(setup![1].replace('localhost', '127.0.0.1'));
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Set up Gatehouse');
    npm.kill('SIGTERM');
    await exited;
    // The server got the signal: it shut down gracefully and no longer listens.
    const deadline = Date.now() + 20_000;
    while (!(await refused(port)) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await refused(port)).toBe(true);
    expect(output).toContain('shutting down');
  });
});
