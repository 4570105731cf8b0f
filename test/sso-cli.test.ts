import { afterAll, describe, expect, it } from 'vitest';
import { testEngineKind } from './helpers/engine.js';
import { cliEnv, runCli, tempDir } from './helpers/process.js';

// The CLI runs on its own embedded database here whatever the pass's engine, so the PostgreSQL
// pass of .ci/run would repeat the PGlite pass word for word; the commands' services run on both.
describe.skipIf(testEngineKind() === 'postgres')('gatehouse sso put / list / delete', () => {
  const dir = tempDir();
  afterAll(() => dir.remove());
  const env = cliEnv({ GATEHOUSE_DATA_DIR: dir.path, LOG_LEVEL: 'silent', DATABASE_URL: undefined });

  it('adds a provider with its secret from the environment, lists it without the secret, removes it', async () => {
    const project = await runCli(['project', 'create', '--name', 'CLI SSO'], env);
    expect(project.code, project.stderr).toBe(0);
    const projectId = JSON.parse(project.stdout).id;

    const put = await runCli(
      ['sso', 'put', '--project', projectId, '--provider', 'acme', '--template', 'oidc', '--issuer', 'https://id.acme.example', '--client-id', 'gatehouse', '--name', 'Acme ID', '--link', 'verified_email'],
      { ...env, SSO_CLIENT_SECRET: 'cli-upstream-secret' },
    );
    expect(put.code, put.stderr).toBe(0);
    expect(JSON.parse(put.stdout)).toMatchObject({ id: 'acme', name: 'Acme ID', issuer: 'https://id.acme.example', client_secret_set: true, link: 'verified_email', redirect_uri: expect.stringMatching(/\/flow\/sso\/callback$/) });
    expect(put.stdout).not.toContain('cli-upstream-secret');

    const list = await runCli(['sso', 'list', '--project', projectId], env);
    expect(list.code, list.stderr).toBe(0);
    expect(JSON.parse(list.stdout).map((p: { id: string }) => p.id)).toEqual(['acme']);
    expect(list.stdout).not.toContain('cli-upstream-secret');

    const refused = await runCli(['sso', 'put', '--project', projectId, '--provider', 'bad', '--template', 'oidc', '--issuer', 'http://id.acme.example', '--client-id', 'c'], env);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^gatehouse: .*issuer/);
    const noTemplate = await runCli(['sso', 'put', '--project', projectId, '--provider', 'bad', '--client-id', 'c'], env);
    expect(noTemplate.stderr).toContain('--template');
    const badLink = await runCli(['sso', 'put', '--project', projectId, '--provider', 'bad', '--template', 'oidc', '--issuer', 'https://id.acme.example', '--client-id', 'c', '--link', 'always'], env);
    expect(badLink.code).toBe(1);
    expect(badLink.stderr).toContain('--link must be none or verified_email');

    const removed = await runCli(['sso', 'delete', '--project', projectId, '--provider', 'acme'], env);
    expect(removed.code, removed.stderr).toBe(0);
    expect(JSON.parse((await runCli(['sso', 'list', '--project', projectId], env)).stdout)).toEqual([]);
    const unknownProject = await runCli(['sso', 'list', '--project', 'proj_nope'], env);
    expect(unknownProject.stderr).toMatch(/project proj_nope does not exist/);
  }, 300_000);
});
