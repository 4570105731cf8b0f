import { readFileSync } from 'node:fs';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEmptyDatabase, testEngineKind } from './helpers/engine.js';
import { cliEnv, killStartedServers, runCli, startServe, tempDir, type CliResult } from './helpers/process.js';

/** The `gatehouse` bin as an operator meets it: real processes, real files, real sockets. */

function expectOneLineError(result: CliResult, mentions: RegExp): void {
  expect(result.code, result.stderr).not.toBe(0);
  expect(result.stdout).toBe('');
  const lines = result.stderr.trimEnd().split('\n');
  expect(lines, result.stderr).toHaveLength(1);
  expect(lines[0]).toMatch(/^gatehouse: /);
  expect(lines[0]).toMatch(mentions);
}

// Each test starts real processes (and initialises an embedded database): give a loaded machine time.
const PROCESS_TEST = { timeout: 180_000 };

describe('gatehouse without a database', PROCESS_TEST, () => {
  const dir = tempDir();
  afterAll(() => dir.remove());
  const env = (overrides: Record<string, string> = {}) => cliEnv({ GATEHOUSE_DATA_DIR: dir.path, ...overrides });

  it('prints help for every command and exits 0', async () => {
    const runs = [['--help'], ['serve', '--help'], ['migrate', '--help'], ['project', 'create', '--help'], ['key', 'create', '--help']];
    const results = await Promise.all(runs.map((args) => runCli(args, env())));
    results.forEach((result, index) => {
      expect(result.code, runs[index].join(' ')).toBe(0);
      expect(result.stdout).toMatch(/^Usage: gatehouse/);
      expect(result.stderr).toBe('');
    });
    expect(results[0].stdout).toMatch(/project create --name NAME/);
    expect(results[4].stdout).toMatch(/--scopes/);
  });

  it('prints the version, and the commands of a group with "gatehouse project --help"', async () => {
    const version = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).version;
    const [printed, group, bare] = await Promise.all([runCli(['--version'], env()), runCli(['project', '--help'], env()), runCli(['user'], env())]);
    expect(printed).toMatchObject({ code: 0, stdout: `${version}\n`, stderr: '' });
    expect(group.code, group.stderr).toBe(0);
    expect(group.stdout).toMatch(/^Usage: gatehouse project <command>/);
    for (const verb of ['create', 'list', 'rotate-secret', 'delete']) expect(group.stdout).toContain(`gatehouse project ${verb}`);
    expect(bare.stdout).toContain('gatehouse user unlock');
  });

  it('refuses unknown commands, options and missing arguments with one line', async () => {
    const cases: Array<[string[], RegExp]> = [
      [['bogus'], /unknown command "bogus"/],
      [['project', 'destroy'], /unknown command "project destroy"/],
      [['project', 'delete', '--project', 'proj_x'], /--yes/],
      [['user', 'unlock', '--project', 'proj_x'], /--user/],
      [['project', 'create', '--nme', 'x'], /--nme/],
      [['project', 'create'], /--name/],
      [['key', 'create', '--project', 'proj_x'], /--scopes/],
      [['key', 'create', '--project', 'proj_x', '--scopes', 'team.read,root'], /unknown scope "root"/],
    ];
    const results = await Promise.all(cases.map(([args]) => runCli(args, env())));
    results.forEach((result, index) => expectOneLineError(result, cases[index][1]));
  });

  it('stops on bad configuration with one line naming the variable', async () => {
    const cases: Array<[Record<string, string>, RegExp]> = [
      [{ PORT: 'abc' }, /^gatehouse: PORT: /],
      [{ PORT: '70000' }, /^gatehouse: PORT: /],
      [{ DATABASE_URL: 'not a url' }, /^gatehouse: DATABASE_URL: /],
      [{ DATABASE_URL: 'mysql://root@localhost/db' }, /^gatehouse: DATABASE_URL: /],
      [{ DATABASE_URL: 'postgres://gatehouse@127.0.0.1:1/gatehouse' }, /^gatehouse: DATABASE_URL: cannot connect/],
      [{ LOG_LEVEL: 'loud' }, /^gatehouse: LOG_LEVEL: /],
      [{ GATEHOUSE_SECRET: 'short' }, /^gatehouse: GATEHOUSE_SECRET: /],
      // A server reachable from elsewhere must be told its public URL: it is never guessed from requests.
      [{ HOST: '0.0.0.0' }, /^gatehouse: GATEHOUSE_PUBLIC_URL: must be set when HOST \(0\.0\.0\.0\) is not a loopback address/],
      [{ GATEHOUSE_PUBLIC_URL: 'https://user:pw@id.example.com' }, /^gatehouse: GATEHOUSE_PUBLIC_URL: /],
    ];
    // With an admin token given, no case announces a generated one (the first start that gets past
    // the configuration does, on stdout: here the unreachable database, if it ran first).
    const results = await Promise.all(cases.map(([overrides]) => runCli(['serve'], env({ GATEHOUSE_ADMIN_TOKEN: 'gh_admin_cli_test_token_0123456789', ...overrides }))));
    results.forEach((result, index) => expectOneLineError(result, cases[index][1]));
  });
});

// The embedded database by default; a fresh PostgreSQL database when DATABASE_URL is set.
describe(`gatehouse on ${testEngineKind() === 'postgres' ? 'PostgreSQL' : 'the embedded database'}`, PROCESS_TEST, () => {
  const dir = tempDir();
  const onPostgres = testEngineKind() === 'postgres';
  let database: { url: string; drop(): Promise<void> } | undefined;
  let blocker: Server | undefined;
  beforeAll(async () => {
    if (onPostgres) database = await createEmptyDatabase(process.env.DATABASE_URL!);
  });
  afterAll(async () => {
    killStartedServers();
    blocker?.close();
    dir.remove();
    await database?.drop();
  });
  const env = (overrides: Record<string, string> = {}) =>
    cliEnv({ GATEHOUSE_DATA_DIR: dir.path, PORT: '0', ...(database ? { DATABASE_URL: database.url } : {}), ...overrides });
  let project: { id: string; project_secret: string };

  it('on a fresh data directory, serve migrates and prints the generated admin token exactly once', async () => {
    const server = await startServe(env());
    await until(() => /generated the instance admin token/.test(server.output()), 'the admin token line');
    const adminToken = readFileSync(join(dir.path, 'admin-token'), 'utf8').trim();
    expect(adminToken).toMatch(/^gh_admin_/);
    const mentions = server.output().split('\n').filter((line) => line.includes(adminToken));
    expect(mentions).toHaveLength(1);
    expect(JSON.parse(mentions[0])).toMatchObject({ level: 40, admin_token: adminToken, stored_in: `${dir.path}/admin-token` });
    expect(server.output()).toMatch(/"migrations":\["0001_foundation\.sql"/);
    const created = await fetch(`${server.url}/projects`, {
      method: 'POST',
      headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'First' }),
    });
    expect(created.status).toBe(201);
    // PORT=0 without GATEHOUSE_PUBLIC_URL: the default public URL names the port really bound.
    const discovery = await fetch(`${server.url}/.well-known/openid-configuration`, { headers: { host: 'attacker.example' } });
    expect(((await discovery.json()) as { issuer: string }).issuer).toBe(`http://localhost:${new URL(server.url).port}`);
    server.child.kill('SIGTERM');
    expect(await server.exited).toEqual({ code: 0, signal: null });

    const migrate = await runCli(['migrate'], env());
    expect(migrate.code, migrate.stderr).toBe(0);
    expect(migrate.stdout.trim()).toBe('database is up to date');
    expect(migrate.stderr).toBe('');
  });

  it('creates a project and a service key, printing their secrets once as JSON', async () => {
    const created = await runCli(['project', 'create', '--name', 'Shop'], env());
    expect(created.code, created.stderr).toBe(0);
    project = JSON.parse(created.stdout);
    expect(project).toMatchObject({ id: expect.stringMatching(/^proj_/), name: 'Shop', project_secret: expect.stringMatching(/^gh_ps_/) });

    const key = await runCli(['key', 'create', '--project', project.id, '--scopes', 'team.read, team.write', '--name', 'ci'], env());
    expect(key.code, key.stderr).toBe(0);
    expect(JSON.parse(key.stdout)).toMatchObject({ project_id: project.id, name: 'ci', scopes: ['team.read', 'team.write'], client_secret: expect.stringMatching(/^gh_sk_/) });

    expectOneLineError(await runCli(['key', 'create', '--project', 'proj_nope', '--scopes', 'team.read'], env()), /project proj_nope does not exist/);
  });

  it('lists projects, rotates a secret, deletes a project, and names an unknown user or project in one line', async () => {
    const doomed = JSON.parse((await runCli(['project', 'create', '--name', 'Doomed'], env())).stdout);
    const listed = await runCli(['project', 'list'], env());
    expect(listed.code, listed.stderr).toBe(0);
    const projects = JSON.parse(listed.stdout) as Array<Record<string, unknown>>;
    expect(projects.map((p) => p.id)).toEqual(expect.arrayContaining([project.id, doomed.id]));
    expect(listed.stdout).not.toContain('gh_ps_');

    const rotated = await runCli(['project', 'rotate-secret', '--project', doomed.id], env());
    expect(rotated.code, rotated.stderr).toBe(0);
    expect(JSON.parse(rotated.stdout)).toMatchObject({ project_secret: expect.stringMatching(/^gh_ps_/), previous_valid_until: expect.any(String) });

    expectOneLineError(await runCli(['user', 'unlock', '--project', doomed.id, '--user', 'usr_nope'], env()), /user usr_nope does not exist/);
    expectOneLineError(await runCli(['project', 'delete', '--project', 'proj_nope', '--yes'], env()), /project proj_nope does not exist/);
    const deleted = await runCli(['project', 'delete', '--project', doomed.id, '--yes'], env());
    expect(deleted.code, deleted.stderr).toBe(0);
    const after = JSON.parse((await runCli(['project', 'list'], env())).stdout) as Array<Record<string, unknown>>;
    expect(after.map((p) => p.id)).not.toContain(doomed.id);
  });

  it('prints the generated admin token even when the very first start fails', async () => {
    const fresh = tempDir();
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    try {
      const port = (taken.address() as { port: number }).port;
      const result = await runCli(['serve'], env({ GATEHOUSE_DATA_DIR: fresh.path, PORT: String(port) }));
      expect(result.code).toBe(1);
      expect(result.stderr.trim()).toMatch(/^gatehouse: PORT: .* is already in use$/);
      const adminToken = readFileSync(join(fresh.path, 'admin-token'), 'utf8').trim();
      const line = result.stdout.split('\n').find((l) => l.includes(adminToken));
      expect(JSON.parse(line!)).toMatchObject({ level: 40, admin_token: adminToken, msg: 'generated the instance admin token; it is printed only this once' });
    } finally {
      taken.close();
      fresh.remove();
    }
  });

  it('stops with one line when the port is taken', async () => {
    blocker = createServer();
    await new Promise<void>((resolve) => blocker!.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as { port: number }).port;
    const result = await runCli(['serve'], env({ PORT: String(port), LOG_LEVEL: 'silent' }));
    expectOneLineError(result, new RegExp(`^gatehouse: PORT: 127\\.0\\.0\\.1:${port} is already in use$`));
  });

  it('serves, then on SIGTERM stops accepting, finishes the request in flight and exits 0', async () => {
    const server = await startServe(env());
    expect(server.output()).not.toContain('admin_token');
    const health = await fetch(`${server.url}/healthz`);
    expect(await health.json()).toEqual({ status: 'ok' });
    expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
    const read = await fetch(`${server.url}/projects/${project.id}`, { headers: { authorization: `Bearer ${project.project_secret}` } });
    expect(read.status).toBe(200);

    // The embedded database belongs to the running server: a second process is turned away.
    // PostgreSQL serves any number of processes at once.
    const second = await runCli(['project', 'create', '--name', 'Second'], env());
    if (onPostgres) expect(second.code, second.stderr).toBe(0);
    else expectOneLineError(second, /^gatehouse: GATEHOUSE_DATA_DIR: the embedded database in .* is in use by process \d+/);

    // A request whose body is still arriving when SIGTERM comes must still be answered.
    const adminToken = readFileSync(join(dir.path, 'admin-token'), 'utf8').trim();
    const body = JSON.stringify({ name: 'Drained' });
    const { port } = new URL(server.url);
    const socket = await openSocket(Number(port));
    let response = '';
    socket.on('data', (chunk) => (response += chunk));
    socket.write(
      `POST /projects HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${adminToken}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nExpect: 100-continue\r\n\r\n${body.slice(0, 5)}`,
    );
    // Node answers 100 Continue once the request is handed to the app: from then on it is in flight.
    await until(() => /^HTTP\/1\.1 100 Continue\r\n\r\n/.test(response), 'the server to take the request');
    server.child.kill('SIGTERM');
    await until(() => /shutting down/.test(server.output()), 'the shutdown to begin');
    await until(async () => (await connectionRefused(Number(port))), 'new connections to be refused');
    // A keep-alive client that keeps its socket open must not hold the shutdown up either.
    const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
    socket.write(body.slice(5));
    await until(() => /\r\n\r\nHTTP\/1\.1 \d{3} [^\r]*\r\n[\s\S]*\r\n\r\n/.test(response), 'the drained response');
    expect(response).toMatch(/^HTTP\/1\.1 100 Continue\r\n\r\nHTTP\/1\.1 201 /);
    await closed;
    expect(await server.exited).toEqual({ code: 0, signal: null });
  });
});

function openSocket(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => resolve(socket));
    socket.on('error', reject);
  });
}

function connectionRefused(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.on('connect', () => (socket.destroy(), resolve(false)));
    socket.on('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'ECONNREFUSED'));
  });
}

/** Waits for something another process does; bounded, and never used for expiry. */
async function until(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
