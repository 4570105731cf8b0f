import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { cliEnv, killStartedServers, REPO_ROOT, startServe, tempDir } from './helpers/process.js';

/**
 * Libraries that only some instances use are imported on first use, not at start: each is heap
 * that every instance would otherwise hold for its life (issue 38, RSS under load). Measured
 * after start with PostgreSQL and a forced GC: 40.6-40.7 MB of heap in use with them,
 * 35.6-35.8 MB without (docs/performance.md, "Issue 38, seventh round").
 * Their own tests (SAML, SSO, SMTP, TOTP enrolment) show that they load when needed.
 */
const LOADED_ON_FIRST_USE = {
  '@node-saml/node-saml': 'the first SAML sign-in',
  nodemailer: 'the first mail over SMTP',
  'openid-client': 'the first upstream SSO sign-in',
  qrcode: 'the first TOTP enrolment',
};

describe('modules loaded at start', { timeout: 120_000 }, () => {
  const dir = tempDir();
  afterAll(() => {
    killStartedServers();
    dir.remove();
  });

  it('a started server has not imported the libraries that only some of its features use', async () => {
    const log = join(dir.path, 'modules.log');
    const hook = pathToFileURL(join(REPO_ROOT, 'test/helpers/module-log.mjs')).href;
    const server = await startServe(cliEnv({ GATEHOUSE_DATA_DIR: join(dir.path, 'data'), PORT: '0', NODE_OPTIONS: `--import ${hook}`, MODULE_LOG_FILE: log }));
    // A request through the whole stack, so a module the request path imports shows too.
    expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
    expect(existsSync(log)).toBe(true);
    const loaded = readFileSync(log, 'utf8').split('\n');
    const packageLoaded = (name: string) => loaded.some((url) => url.includes(`/node_modules/${name}/`));
    // The log works: what every request needs is in it.
    expect(packageLoaded('fastify')).toBe(true);
    expect(packageLoaded('kysely')).toBe(true);
    const early = Object.entries(LOADED_ON_FIRST_USE)
      .filter(([name]) => packageLoaded(name))
      .map(([name, when]) => `${name} (should wait for ${when})`);
    expect(early).toEqual([]);
    server.child.kill('SIGTERM');
    await server.exited;
  });
});
