import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEmptyDatabase, testEngineKind } from './helpers/engine.js';
import { cliEnv, killStartedServers, runCli, startServe, tempDir } from './helpers/process.js';

/**
 * Mail in development (issue 39): without SMTP_URL a message is one log line that names
 * `gatehouse mail list`, never its code; the command prints the code and link, both while the
 * server holds the embedded database (it asks the server) and after it stopped (it reads the table).
 */

const PROCESS_TEST = { timeout: 240_000 };
const PASSWORD = 'correct horse battery staple 42';

/** A flow over real HTTP, carrying its `_zflow` cookie as a browser would. */
async function flowCall(base: string, jar: Map<string, string>, path: string, body: unknown): Promise<{ status: number; json: Record<string, unknown> }> {
  const cookie = [...jar].map(([name, value]) => `${name}=${value}`).join('; ');
  const response = await fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}) }, body: JSON.stringify(body) });
  for (const line of response.headers.getSetCookie()) {
    const [pair] = line.split(';');
    const at = pair.indexOf('=');
    jar.set(pair.slice(0, at), pair.slice(at + 1));
  }
  return { status: response.status, json: (await response.json()) as Record<string, unknown> };
}

describe(`gatehouse mail list on ${testEngineKind() === 'postgres' ? 'PostgreSQL' : 'the embedded database'}`, PROCESS_TEST, () => {
  const dir = tempDir();
  let database: { url: string; drop(): Promise<void> } | undefined;
  beforeAll(async () => {
    if (testEngineKind() === 'postgres') database = await createEmptyDatabase(process.env.DATABASE_URL!);
  });
  afterAll(async () => {
    killStartedServers();
    dir.remove();
    await database?.drop();
  });
  const env = (overrides: Record<string, string> = {}) => cliEnv({ GATEHOUSE_DATA_DIR: dir.path, PORT: '0', ...(database ? { DATABASE_URL: database.url } : {}), ...overrides });

  it('logs an unsent mail as one line naming the command, and the command prints its code (server running, then stopped)', async () => {
    const server = await startServe(env());
    const admin = readFileSync(join(dir.path, 'admin-token'), 'utf8').trim();
    const created = await fetch(`${server.url}/projects`, { method: 'POST', headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Mail' }) });
    const project = (await created.json()) as { id: string; project_secret: string };
    const email = 'mailed@example.com';

    const register = new Map<string, string>();
    const started = await flowCall(server.url, register, '/flow', { project_id: project.id, purpose: 'register' });
    expect(started.status).toBe(200);
    expect((await flowCall(server.url, register, `/flow/${started.json.id}/submit`, { action: 'create', fields: { email, 'name.given': 'Ann', password: PASSWORD } })).status).toBe(200);
    const recovery = new Map<string, string>();
    const reset = await flowCall(server.url, recovery, '/flow', { project_id: project.id, purpose: 'recovery' });
    expect((await flowCall(server.url, recovery, `/flow/${reset.json.id}/submit`, { action: 'send_code', fields: { email } })).status).toBe(200);

    // The outbox API is the reference: the code the mail holds.
    const outbox = async () => (await (await fetch(`${server.url}/projects/${project.id}/outbox`, { headers: { authorization: `Bearer ${project.project_secret}` } })).json()) as { messages: Array<{ id: string; body: string; subject: string }> };
    await expect.poll(async () => (await outbox()).messages.length, { timeout: 30_000 }).toBe(1);
    const [message] = (await outbox()).messages;
    const code = /^(\d{6})$/m.exec(message.body)![1];

    const linesOf = () => server.output().split('\n').filter((line) => line.includes(message.id));
    // The line follows the row's insert: wait for it rather than for time.
    await expect.poll(() => linesOf().length, { timeout: 30_000 }).toBe(1);
    const lines = linesOf();
    expect(JSON.parse(lines[0])).toMatchObject({ to: email, template: 'recovery_code', read_with: `gatehouse mail list --project ${project.id}` });
    expect(lines[0]).toContain(`read it with: gatehouse mail list --project ${project.id}`);
    expect(server.output().includes(code), 'the code appears in the log').toBe(false);
    expect(lines[0].includes(message.subject), 'the subject (a template may hold the code) appears in the log').toBe(false);

    // While the server runs (and holds the embedded database), the command asks it.
    const port = new URL(server.url).port;
    const running = await runCli(['mail', 'list', '--project', project.id], env({ PORT: port }));
    expect(running.code, running.stderr).toBe(0);
    expect(running.stdout).toContain(`code: ${code}`);
    expect(running.stdout).toContain(email);
    expect(running.stdout).toContain('recovery_code');
    const all = await runCli(['mail', 'list', '--json', '--limit', '5'], env({ PORT: port }));
    expect(all.code, all.stderr).toBe(0);
    expect(JSON.parse(all.stdout)).toEqual([expect.objectContaining({ id: message.id, project_id: project.id, to: email, codes: [code], status: 'logged' })]);

    server.child.kill('SIGTERM');
    expect(await server.exited).toEqual({ code: 0, signal: null });

    // Stopped: the command reads the table itself.
    const stopped = await runCli(['mail', 'list', '--json', '--to', email], env());
    expect(stopped.code, stopped.stderr).toBe(0);
    expect(JSON.parse(stopped.stdout)).toEqual([expect.objectContaining({ id: message.id, project_id: project.id, codes: [code], links: [] })]);
    const nobody = await runCli(['mail', 'list', '--to', 'nobody@example.com'], env());
    expect(nobody.stdout.trim()).toBe('no messages in the outbox');

    const [unknown, badLimit] = await Promise.all([runCli(['mail', 'list', '--project', 'proj_unknown'], env()), runCli(['mail', 'list', '--limit', '0'], env())]);
    expect(unknown.code).not.toBe(0);
    expect(unknown.stderr.trim()).toBe('gatehouse: project proj_unknown does not exist');
    expect(badLimit.stderr.trim()).toBe('gatehouse: --limit must be a whole number from 1 to 100');
  });
});
