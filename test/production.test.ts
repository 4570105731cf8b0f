import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PRODUCTION_CHECKS } from '../src/cli/production.js';
import { createEmptyDatabase, testEngineKind } from './helpers/engine.js';
import { cliEnv, killStartedServers, REPO_ROOT, runCli, startServe, tempDir } from './helpers/process.js';

/** Production mode and `gatehouse doctor` as an operator meets them (issue 37 item 1): real processes. */

const SAFE = {
  GATEHOUSE_PUBLIC_URL: 'https://id.example.test',
  SMTP_URL: 'smtp://127.0.0.1:2525',
  GATEHOUSE_SECRET: 'production-test-secret-0123456789abcdef-0123',
  GATEHOUSE_ADMIN_TOKEN: 'gh_admin_production_test_0123456789abcdef',
};
const UNSAFE_BY_DEFAULT = ['GATEHOUSE_PUBLIC_URL', 'DATABASE_URL', 'SMTP_URL', 'GATEHOUSE_SECRET', 'GATEHOUSE_ADMIN_TOKEN'];

describe('production mode and gatehouse doctor', { timeout: 180_000 }, () => {
  const dir = tempDir('gh-production-');
  afterAll(() => {
    killStartedServers();
    dir.remove();
  });
  const dataDir = join(dir.path, 'data');

  it('serve --production and NODE_ENV=production refuse a bare environment, naming every unsafe setting in one message', async () => {
    const [flag, nodeEnv] = await Promise.all([
      runCli(['serve', '--production'], cliEnv({ GATEHOUSE_DATA_DIR: dataDir, PORT: '0' })),
      runCli(['serve'], cliEnv({ GATEHOUSE_DATA_DIR: dataDir, PORT: '0', NODE_ENV: 'production' })),
    ]);
    for (const [result, mode] of [[flag, '--production'], [nodeEnv, 'NODE_ENV=production']] as const) {
      expect(result.code, result.stderr).toBe(1);
      expect(result.stdout).toBe('');
      expect(result.stderr).toMatch(new RegExp(`^gatehouse: production mode \\(${mode.replace(/[-=]/g, '\\$&')}\\) refuses to start: 5 settings are unsafe\\n`));
      const named = [...result.stderr.matchAll(/^ {2}✘ ([A-Z_]+): /gm)].map((match) => match[1]);
      expect(named).toEqual(UNSAFE_BY_DEFAULT);
      expect(result.stderr).toContain('gatehouse doctor');
    }
    // Refused before anything is read or generated: no admin token was made, let alone printed.
    expect(existsSync(dataDir)).toBe(false);
  });

  it('gatehouse doctor prints ✔/✘ per check, exits 1 on a ✘ and 0 when all pass, and writes nothing', async () => {
    const safeEnv = { GATEHOUSE_DATA_DIR: dataDir, DATABASE_URL: 'postgres://gatehouse@db.internal:5432/gatehouse', ...SAFE };
    const [bare, safe, optedIn] = await Promise.all([
      runCli(['doctor'], cliEnv({ GATEHOUSE_DATA_DIR: dataDir, GATEHOUSE_TRUSTED_PROXIES: '0.0.0.0/0' })),
      runCli(['doctor'], cliEnv(safeEnv)),
      runCli(['doctor'], cliEnv({ ...safeEnv, GATEHOUSE_OUTBOUND_ALLOW_PRIVATE: '1' })),
    ]);
    // An opt-in that widens what the instance may reach is named, and fails nothing.
    expect(optedIn.code, optedIn.stdout + optedIn.stderr).toBe(0);
    expect(optedIn.stdout).toMatch(/^! GATEHOUSE_OUTBOUND_ALLOW_PRIVATE=1: every outbound call /m);
    expect(safe.stdout).not.toMatch(/^! /m);
    expect(bare.code, bare.stderr).toBe(1);
    expect(bare.stdout.match(/^✘ /gm)).toHaveLength(6);
    expect(bare.stdout).toContain('0.0.0.0/0 trusts every address');
    expect(safe.code, safe.stdout + safe.stderr).toBe(0);
    expect(safe.stdout.match(/^✔ /gm)).toHaveLength(PRODUCTION_CHECKS.length);
    expect(safe.stdout).not.toContain('✘');
    expect(existsSync(dataDir)).toBe(false);
  });

  it.skipIf(testEngineKind() !== 'postgres')('starts in production mode once every setting is safe (PostgreSQL)', async () => {
    const database = await createEmptyDatabase(process.env.DATABASE_URL!, 'gh_prod');
    try {
      const server = await startServe(
        cliEnv({ NODE_ENV: 'production', GATEHOUSE_DATA_DIR: dataDir, PORT: '0', DATABASE_URL: database.url, GATEHOUSE_WEBHOOK_ALLOW_PRIVATE: '1', ...SAFE }),
      );
      expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
      // An allowed but widening opt-in is named as the service starts.
      expect(server.output()).toContain('gatehouse: production mode (NODE_ENV=production) starts with GATEHOUSE_WEBHOOK_ALLOW_PRIVATE=1: every outbound call');
      // Links name the configured https address, never the loopback one it listens on.
      const discovery = (await (await fetch(`${server.url}/.well-known/openid-configuration`)).json()) as { issuer: string };
      expect(discovery.issuer).toBe(SAFE.GATEHOUSE_PUBLIC_URL);
      server.child.kill('SIGTERM');
      expect((await server.exited).code).toBe(0);
      expect(server.output()).not.toContain(SAFE.GATEHOUSE_ADMIN_TOKEN);
    } finally {
      await database.drop();
    }
  });

  it('docs/operations.md lists every check of the checklist word for word', () => {
    const doc = readFileSync(join(REPO_ROOT, 'docs/operations.md'), 'utf8');
    const section = doc.slice(doc.indexOf('\n## Production checklist'), doc.indexOf('\n## ', doc.indexOf('\n## Production checklist') + 1));
    expect(section.length).toBeGreaterThan(100);
    const missing = PRODUCTION_CHECKS.filter((check) => !section.includes(`| ${check.requirement} |`)).map((check) => check.requirement);
    expect(missing, 'add a row "| requirement | why |" to the production checklist of docs/operations.md').toEqual([]);
  });
});

describe('the container files (not built here: no container runtime; see docs/operations.md)', () => {
  const read = (file: string) => readFileSync(join(REPO_ROOT, file), 'utf8');

  it('Dockerfile: multi-stage, runs the packed server as a non-root user in production mode, health from /readyz', () => {
    const dockerfile = read('Dockerfile');
    expect(dockerfile.match(/^FROM /gm)).toHaveLength(2);
    expect(dockerfile).toMatch(/^RUN npm pack /m);
    expect(dockerfile).toMatch(/^USER node$/m);
    expect(dockerfile).toMatch(/NODE_ENV=production/);
    expect(dockerfile).toMatch(/^HEALTHCHECK [\s\S]*\/readyz/m);
  });

  it('compose.yaml: PostgreSQL and two nodes, every production setting required', () => {
    const compose = read('compose.yaml');
    expect(compose.match(/^ {2}gatehouse-\d+:$/gm)).toHaveLength(2);
    expect(compose).toMatch(/^ {2}postgres:$/m);
    for (const variable of ['GATEHOUSE_PUBLIC_URL', 'GATEHOUSE_SECRET', 'GATEHOUSE_ADMIN_TOKEN', 'SMTP_URL']) expect(compose).toMatch(new RegExp(`${variable}: \\$\\{${variable}:\\?`));
  });
});
