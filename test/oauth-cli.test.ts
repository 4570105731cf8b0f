import { afterAll, describe, expect, it } from 'vitest';
import { testEngineKind } from './helpers/engine.js';
import { cliEnv, runCli, tempDir } from './helpers/process.js';

// The CLI runs on its own embedded database here whatever the pass's engine, so the PostgreSQL
// pass of .ci/run would repeat the PGlite pass word for word; the commands' services run on both.
describe.skipIf(testEngineKind() === 'postgres')('gatehouse client create / oauth rotate-keys', () => {
  const dir = tempDir();
  afterAll(() => dir.remove());
  const env = cliEnv({ GATEHOUSE_DATA_DIR: dir.path, LOG_LEVEL: 'silent', DATABASE_URL: undefined });

  it('registers confidential and public OIDC clients and rotates the signing key', async () => {
    const project = await runCli(['project', 'create', '--name', 'CLI RP'], env);
    expect(project.code, project.stderr).toBe(0);
    const projectId = JSON.parse(project.stdout).id;

    const confidential = await runCli(['client', 'create', '--project', projectId, '--redirect-uri', 'https://app.example.com/cb', '--name', 'Web'], env);
    expect(confidential.code, confidential.stderr).toBe(0);
    expect(JSON.parse(confidential.stdout)).toMatchObject({
      client_id: expect.stringMatching(/^oc_/),
      client_secret: expect.stringMatching(/^gh_cs_/),
      redirect_uris: ['https://app.example.com/cb'],
      token_endpoint_auth_method: 'client_secret_basic',
    });

    const pub = await runCli(['client', 'create', '--project', projectId, '--redirect-uri', 'http://127.0.0.1:3000/cb', '--public'], env);
    expect(pub.code, pub.stderr).toBe(0);
    const publicClient = JSON.parse(pub.stdout);
    expect(publicClient.token_endpoint_auth_method).toBe('none');
    expect(publicClient).not.toHaveProperty('client_secret');

    const withLogout = await runCli(
      ['client', 'create', '--project', projectId, '--redirect-uri', 'https://app.example.com/cb', '--post-logout-redirect-uri', 'https://app.example.com/bye', '--post-logout-redirect-uri', 'https://app.example.com/', '--backchannel-logout-uri', 'https://app.example.com/backchannel'],
      env,
    );
    expect(withLogout.code, withLogout.stderr).toBe(0);
    expect(JSON.parse(withLogout.stdout)).toMatchObject({ post_logout_redirect_uris: ['https://app.example.com/bye', 'https://app.example.com/'], backchannel_logout_uri: 'https://app.example.com/backchannel' });
    const plainBackchannel = await runCli(['client', 'create', '--project', projectId, '--redirect-uri', 'https://app.example.com/cb', '--backchannel-logout-uri', 'http://app.example.com/backchannel'], env);
    expect(plainBackchannel.code).toBe(1);
    expect(plainBackchannel.stderr).toMatch(/^gatehouse: .*backchannel_logout_uri/);

    const bad = await runCli(['client', 'create', '--project', projectId, '--redirect-uri', 'http://evil.example/cb'], env);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/^gatehouse: .*redirect/i);
    const missing = await runCli(['client', 'create', '--project', projectId], env);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('--redirect-uri');
    // RFC 8628: a device-only public client needs no redirect URI.
    const device = await runCli(['client', 'create', '--project', projectId, '--public', '--name', 'TV', '--grant-type', 'device', '--grant-type', 'refresh'], env);
    expect(device.code, device.stderr).toBe(0);
    expect(JSON.parse(device.stdout)).toMatchObject({ redirect_uris: [], grant_types: ['urn:ietf:params:oauth:grant-type:device_code', 'refresh_token'] });

    const first = await runCli(['oauth', 'rotate-keys'], env);
    const second = await runCli(['oauth', 'rotate-keys'], env);
    expect(first.code, first.stderr).toBe(0);
    expect(JSON.parse(second.stdout).current_kid).not.toBe(JSON.parse(first.stdout).current_kid);
  }, 420_000);
});
