import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createListeningTestApp, type TestApp } from './helpers/app.js';
import { testEngineKind } from './helpers/engine.js';
import { cliEnv, runCli, spawnCli, tempDir } from './helpers/process.js';

/**
 * `gatehouse events tail --project …` against a real server over HTTP: it starts after the
 * newest event, prints each new event as one line, and stops cleanly on SIGINT.
 */
describe(`gatehouse events tail (${testEngineKind()})`, { timeout: 180_000 }, () => {
  let t: TestApp & { base: string };
  let project: { id: string; project_secret: string };
  const dir = tempDir();
  const env = (token: string) => cliEnv({ GATEHOUSE_DATA_DIR: dir.path, GATEHOUSE_PUBLIC_URL: t.base, GATEHOUSE_TOKEN: token });
  const createTeam = (name: string) => t.app.inject({ method: 'POST', url: `/teams?project_id=${project.id}`, headers: bearer(project.project_secret), payload: { name } });

  beforeAll(async () => {
    t = await createListeningTestApp({ sweepIntervalMs: 0 });
    project = await t.createProject('Tailed');
  });
  afterAll(async () => {
    await t.close();
    dir.remove();
  });

  it('follows the log from its newest event, one line per new event, until interrupted', async () => {
    expect((await createTeam('Before')).statusCode).toBe(201);
    const child = spawnCli(['events', 'tail', '--project', project.id], env(project.project_secret));
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (chunk) => (stdout += chunk));
    child.stderr!.on('data', (chunk) => (stderr += chunk));
    const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    try {
      await expect.poll(() => stderr, { timeout: 60_000 }).toContain('following the events of');
      t.clock.advance(1000);
      expect((await createTeam('First')).statusCode).toBe(201);
      t.clock.advance(1000);
      expect((await createTeam('Second')).statusCode).toBe(201);
      await expect.poll(() => stdout.trim().split('\n').filter(Boolean).length, { timeout: 30_000 }).toBe(2);
      const lines = stdout.trim().split('\n');
      expect(lines[0]).toMatch(/^\S+Z {2}team\.created {2}team:team_\w+ {2}by project_secret {2}\{"name":"First"\}$/);
      expect(lines[1]).toContain('{"name":"Second"}');
      expect(stdout).not.toContain('Before');
    } finally {
      child.kill('SIGINT');
    }
    expect(await exited).toBe(0);
  });

  it('refuses a credential without event.read, and a missing --project', async () => {
    const key = await t.app.inject({ method: 'POST', url: `/projects/${project.id}/service_keys`, headers: bearer(project.project_secret), payload: { scopes: ['team.read'] } });
    const { client_id, client_secret } = key.json();
    const token = await t.app.inject({ method: 'POST', url: '/auth/token', payload: `grant_type=client_credentials&client_id=${client_id}&client_secret=${client_secret}`, headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    const refused = await runCli(['events', 'tail', '--project', project.id], env(token.json().access_token));
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('event.read');
    const missing = await runCli(['events', 'tail'], env(project.project_secret));
    expect(missing.stderr.trim()).toBe('gatehouse: events tail needs --project');
  });
});
