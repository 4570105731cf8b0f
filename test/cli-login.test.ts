import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { credentialsPath, login } from '../src/cli/login.js';
import { answer, confirmPage, signedIn, typeCode } from '../src/oauth/device/device-test-kit.js';
import { operator, systemProjectOf } from '../src/operators/testing.js';
import { bearer, createListeningTestApp, type TestApp } from './helpers/app.js';
import { cliEnv, runCli, spawnCli } from './helpers/process.js';

/**
 * `gatehouse login` (issue 36): an operator signs in with the device grant as the system
 * project's public `gatehouse-cli` client, at AAL2, and the tokens are stored 0600. The command's
 * function runs in process with its waits injected (they advance the server's clock); the real
 * command runs once as a child process against the same listening Gatehouse.
 */
describe('gatehouse login', () => {
  let t: TestApp & { base: string };
  const dir = mkdtempSync(join(tmpdir(), 'gh-login-'));

  beforeAll(async () => {
    t = await createListeningTestApp();
  });
  afterAll(async () => {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('names one public device-only client in the system project', async () => {
    const first = await fetch(`${t.base}/operators/cli_client`);
    const second = await fetch(`${t.base}/operators/cli_client`);
    const named = (await first.json()) as { client_id: string; project_id: string };
    expect((await second.json()) as object).toEqual(named);
    expect(named.project_id).toBe((await systemProjectOf(t)).id);
    const system = await systemProjectOf(t);
    const client = await t.app.inject({ method: 'GET', url: `/projects/${system.id}/oauth_clients/${named.client_id}`, headers: bearer(system.project_secret) });
    expect(client.json()).toMatchObject({ name: 'gatehouse-cli', token_endpoint_auth_method: 'none', redirect_uris: [], grant_types: ['urn:ietf:params:oauth:grant-type:device_code', 'refresh_token'] });
  });

  it('signs an operator in at AAL2 and stores tokens that are the operator\'s credential', async () => {
    const admin = await operator(t, [{ role: 'instance_admin' }]);
    const weak = await signedIn(t, await systemProjectOf(t));
    const file = join(dir, 'nested', 'credentials.json');
    const said: string[] = [];
    const done = await login({
      url: `${t.base}/`,
      credentialsFile: file,
      say: (text) => said.push(text),
      sleep: async (ms) => {
        t.clock.advance(ms);
        const code = /enter the code ([A-Z]{4}-[A-Z]{4})/.exec(said[0])![1];
        // The CLI asks for AAL2: a password-only session is sent to step up, not shown the consent.
        const { binding } = await typeCode(t, code);
        expect((await confirmPage(t, binding!, weak.sessionToken)).statusCode).toBe(303);
        const consent = await confirmPage(t, binding!, admin.sessionToken);
        expect(consent.body).toContain('<strong>gatehouse-cli</strong>');
        expect((await answer(t, code, admin.sessionToken)).statusCode).toBe(200);
      },
    });
    expect(said[0]).toContain(`open ${t.base}/ui/device and enter the code`);
    expect(done.file).toBe(file);
    const stored = JSON.parse(readFileSync(file, 'utf8'));
    expect(stored[t.base]).toMatchObject({ access_token: expect.stringMatching(/^gh_at_/), refresh_token: expect.stringMatching(/^gh_rt_/), scope: 'openid offline_access' });
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const me = await fetch(`${t.base}/operators/me`, { headers: bearer(stored[t.base].access_token) });
    expect(me.status).toBe(200);
    expect(await me.json()).toMatchObject({ user_id: admin.userId });
    expect((await fetch(`${t.base}/projects`, { headers: bearer(stored[t.base].access_token) })).status).toBe(200);
  });

  it('says where the credentials go by default', () => {
    expect(credentialsPath({ HOME: '/home/op' })).toBe('/home/op/.config/gatehouse/credentials.json');
    expect(credentialsPath({ HOME: '/home/op', XDG_CONFIG_HOME: '/cfg' })).toBe('/cfg/gatehouse/credentials.json');
    expect(credentialsPath({ GATEHOUSE_CREDENTIALS: '/run/creds.json' })).toBe('/run/creds.json');
  });

  it('runs as a command: prints the code on stderr, waits for the approval, prints where the tokens went', async () => {
    const admin = await operator(t, [{ role: 'instance_admin' }]);
    const file = join(dir, 'cli.json');
    const child = spawnCli(['login', '--url', t.base, '--credentials', file], cliEnv({ LOG_LEVEL: 'silent' }));
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (chunk) => (stdout += chunk));
    // The command waits real seconds between polls; the server's clock is a test clock. Let it run
    // ahead of real time so that no poll can read as too fast, however slow this machine is.
    const ticker = setInterval(() => t.clock.advance(1000), 200);
    try {
      const code = await new Promise<string>((resolve, reject) => {
        child.stderr!.on('data', (chunk) => {
          stderr += chunk;
          const match = /enter the code ([A-Z]{4}-[A-Z]{4})/.exec(stderr);
          if (match) resolve(match[1]);
        });
        child.on('close', () => reject(new Error(`gatehouse login ended: ${stderr}`)));
      });
      expect((await answer(t, code, admin.sessionToken)).statusCode).toBe(200);
      const exit = await new Promise<number | null>((resolve) => child.on('close', resolve));
      expect(exit, stderr).toBe(0);
    } finally {
      clearInterval(ticker);
    }
    expect(JSON.parse(stdout)).toMatchObject({ url: t.base, stored_in: file, scope: 'openid offline_access' });
    expect(JSON.parse(readFileSync(file, 'utf8'))[t.base].access_token).toMatch(/^gh_at_/);
    const unreachable = await runCli(['login', '--url', 'http://127.0.0.1:9', '--credentials', join(dir, 'never.json')], cliEnv({ LOG_LEVEL: 'silent' }));
    expect(unreachable.code).toBe(1);
    expect(unreachable.stderr).toMatch(/^gatehouse: cannot reach http:\/\/127\.0\.0\.1:9/);
  }, 120_000);
});
