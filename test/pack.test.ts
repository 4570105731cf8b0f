import { spawn } from 'node:child_process';
import { builtinModules } from 'node:module';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEngineKind } from './helpers/engine.js';
import { cliEnv, REPO_ROOT, tempDir } from './helpers/process.js';

/**
 * Install without cloning (issue 37 item 5): `npm pack` of the server and of both SDK packages,
 * installed from the tarballs into temporary prefixes as on a machine without the repository.
 * The packing happens in a copy of the sources, so its build never rewrites the dist/ that other
 * test files run at the same time. Nothing here touches a database: it runs in the PGlite pass only.
 */

interface Run {
  code: number | null;
  stdout: string;
  output: string;
}

/**
 * What npm needs from this machine to reach its registry: the trusted CAs (a TLS-inspecting proxy
 * signs with its own; without them every fetch fails SELF_SIGNED_CERT_IN_CHAIN and npm retries for
 * minutes) and the proxy settings. `cliEnv` alone keeps only PATH and HOME.
 */
const NETWORK_ENV = ['NODE_EXTRA_CA_CERTS', 'SSL_CERT_FILE', 'SSL_CERT_DIR', 'HTTPS_PROXY', 'HTTP_PROXY', 'NO_PROXY', 'https_proxy', 'http_proxy', 'no_proxy'];
const npmEnv = () => cliEnv(Object.fromEntries(NETWORK_ENV.map((name) => [name, process.env[name]])));

function run(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = npmEnv()): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let output = '';
    child.stdout.on('data', (chunk) => ((stdout += chunk), (output += chunk)));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, output }));
  });
}

async function ok(command: string, args: string[], cwd: string, env?: NodeJS.ProcessEnv): Promise<string> {
  const result = await run(command, args, cwd, env);
  if (result.code !== 0) throw new Error(`${command} ${args.join(' ')} exited with ${result.code}\n${result.output}`);
  return result.stdout;
}

/** npm with the registry used only for what its cache lacks (CI's cache is warm from `npm ci`). */
const NPM_INSTALL = ['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'];

/** `npm pack --json` answers the tarball's name and every file in it. */
async function pack(dir: string, out: string): Promise<{ filename: string; files: string[] }> {
  const text = await ok('npm', ['pack', '--json', '--pack-destination', out], dir);
  const [result] = JSON.parse(text.slice(text.lastIndexOf('\n[\n') + 1)) as Array<{ filename: string; files: Array<{ path: string }> }>;
  return { filename: join(out, result.filename), files: result.files.map((file) => file.path) };
}

function filesUnder(dir: string): string[] {
  return (readdirSync(dir, { recursive: true }) as string[]).map((file) => join(dir, file));
}

/** The packages a built JavaScript file imports by name (static and dynamic; not in comments or strings), builtins aside. */
function bareImports(source: string): string[] {
  const names = new Set<string>();
  for (const { fileName: specifier } of ts.preProcessFile(source, true, true).importedFiles) {
    if (specifier.startsWith('.') || specifier.startsWith('node:') || builtinModules.includes(specifier)) continue;
    names.add(specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : specifier.split('/')[0]);
  }
  return [...names];
}

describe.skipIf(testEngineKind() !== 'pglite')('npm pack and install without cloning', { timeout: 600_000 }, () => {
  const dir = tempDir('gh-pack-');
  const copy = join(dir.path, 'copy');
  const out = join(dir.path, 'out');
  let server: { filename: string; files: string[] };
  const version = (JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string }).version;

  beforeAll(async () => {
    mkdirSync(out, { recursive: true });
    // What `npm pack` and its prepack build read: manifests, compiler settings, the UI bundler, sources.
    for (const path of ['package.json', 'README.md', 'tsconfig.json', 'tsconfig.build.json', 'scripts/build-ui.mjs', 'src', 'docs']) {
      cpSync(join(REPO_ROOT, path), join(copy, path), { recursive: true });
    }
    for (const name of ['client', 'node']) {
      for (const path of ['package.json', 'README.md', 'tsconfig.json', 'tsconfig.build.json', 'src']) {
        cpSync(join(REPO_ROOT, 'packages', name, path), join(copy, 'packages', name, path), { recursive: true });
      }
    }
    symlinkSync(realpathSync(join(REPO_ROOT, 'node_modules')), join(copy, 'node_modules'));
    // @gatehouse/node builds against the copy's @gatehouse/client (built by its own prepack first).
    mkdirSync(join(copy, 'packages/node/node_modules/@gatehouse'), { recursive: true });
    symlinkSync(join(copy, 'packages/client'), join(copy, 'packages/node/node_modules/@gatehouse/client'));
    server = await pack(copy, out);
  }, 600_000);

  afterAll(() => dir.remove());

  it(`packs gatehouse-${version}.tgz with the built server, migrations and UI assets, and no tests or sources`, () => {
    expect(server.filename).toBe(join(out, `gatehouse-${version}.tgz`));
    for (const file of ['package.json', 'README.md', 'dist/cli/main.js', 'dist/main.js', 'dist/ui-assets/ui.js', 'dist/ui-assets/ui-style.css', 'src/db/migrations/0001_foundation.sql', 'docs/operations.md']) {
      expect(server.files, file).toContain(file);
    }
    const migrations = readdirSync(join(REPO_ROOT, 'src/db/migrations')).filter((file) => file.endsWith('.sql'));
    expect(server.files.filter((file) => file.startsWith('src/db/migrations/'))).toHaveLength(migrations.length);
    const unwanted = server.files.filter((file) => /(^|\/)test\/|\.test\.|test-kit|testing\.js|\.map$/.test(file) || /\.ts$/.test(file) || (file.startsWith('src/') && !file.endsWith('.sql')));
    expect(unwanted).toEqual([]);
  });

  it('installs with npm install -g into its own prefix and serves from an empty directory; every package the server imports is a dependency', async () => {
    const prefix = join(dir.path, 'prefix');
    await ok('npm', [...NPM_INSTALL, '-g', '--prefix', prefix, server.filename], dir.path);
    const installed = join(prefix, 'lib/node_modules/gatehouse');
    const manifest = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
    const imported = new Set(filesUnder(join(installed, 'dist')).filter((file) => file.endsWith('.js')).flatMap((file) => bareImports(readFileSync(file, 'utf8'))));
    expect(imported.size).toBeGreaterThan(10);
    expect([...imported].filter((name) => !(name in manifest.dependencies)), 'imported at run time but not in dependencies').toEqual([]);

    const bin = join(prefix, 'bin/gatehouse');
    const cwd = join(dir.path, 'elsewhere');
    mkdirSync(cwd);
    expect((await ok(bin, ['--version'], cwd)).trim()).toBe(version);
    const child = spawn(bin, ['serve'], { cwd, env: cliEnv({ PORT: '0' }), stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      let output = '';
      const url = await new Promise<string>((resolve, reject) => {
        const onData = (chunk: Buffer) => {
          output += chunk;
          const match = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
          if (match) resolve(match[1]);
        };
        child.stdout.on('data', onData);
        child.stderr.on('data', onData);
        child.on('close', (code) => reject(new Error(`gatehouse serve exited with ${code}\n${output}`)));
      });
      expect((await fetch(`${url}/readyz`)).status).toBe(200);
      // The migrations came from the package, the embedded database lives in the working directory.
      expect(output).toContain('0001_foundation.sql');
      expect(existsSync(join(cwd, '.gatehouse/admin-token'))).toBe(true);
      const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
  });

  it('packs @gatehouse/client and @gatehouse/node with types and READMEs; an app installs the tarballs, imports and type-checks them', async () => {
    const client = await pack(join(copy, 'packages/client'), out);
    const node = await pack(join(copy, 'packages/node'), out);
    for (const [tarball, name] of [[client, 'client'], [node, 'node']] as const) {
      expect(tarball.filename).toBe(join(out, `gatehouse-${name}-${version}.tgz`));
      for (const file of ['package.json', 'README.md', 'dist/index.js', 'dist/index.d.ts']) expect(tarball.files, `${name}: ${file}`).toContain(file);
      expect(tarball.files.filter((file) => /\.test\.|(^|\/)src\//.test(file) || (file.endsWith('.ts') && !file.endsWith('.d.ts')))).toEqual([]);
    }
    const app = join(dir.path, 'app');
    mkdirSync(app);
    writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'app', private: true, type: 'module' }));
    await ok('npm', [...NPM_INSTALL, client.filename, node.filename], app);
    const loaded = await ok(process.execPath, ['-e', "const n = await import('@gatehouse/node'); const c = await import('@gatehouse/client'); console.log(typeof n.Gatehouse, typeof n.requireSession, typeof c.createGatehouseClient, typeof c.FlowClient)", '--input-type=module'], app);
    expect(loaded.trim()).toBe('function function function function');
    writeFileSync(
      join(app, 'app.ts'),
      [
        "import { createGatehouseClient, type GatehouseClient } from '@gatehouse/client';",
        "import { Gatehouse, requireSession } from '@gatehouse/node';",
        "const client: GatehouseClient = createGatehouseClient({ baseUrl: 'https://id.example.com' });",
        "const gatehouse = new Gatehouse({ baseUrl: 'https://id.example.com', projectId: 'proj_x', serviceKey: { clientId: 'a', clientSecret: 'b' } });",
        'export const handlers = [client, requireSession(gatehouse)];',
        '',
      ].join('\n'),
    );
    const compilerOptions = { module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', strict: true, noEmit: true, skipLibCheck: false, typeRoots: [join(REPO_ROOT, 'node_modules/@types')], types: ['node'] };
    writeFileSync(join(app, 'tsconfig.json'), JSON.stringify({ compilerOptions, files: ['app.ts'] }));
    await ok(process.execPath, [join(REPO_ROOT, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json'], app);
  });
});
