import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { knownErrorCodes } from '../src/core/errors.js';

/** The docs stay true as code changes: every error code, every variable, every link. */
const root = resolve(import.meta.dirname, '..');
const read = (path: string) => readFileSync(join(root, path), 'utf8');

describe('documentation', () => {
  it('README opens with exactly npm install, npm start, then the printed console link (issue 33)', () => {
    const firstBlock = /```(?:sh|bash)?\n([\s\S]*?)```/.exec(read('README.md'))?.[1];
    expect(firstBlock?.trim().split('\n')).toEqual(['npm install', 'npm start']);
    const afterBlock = read('README.md').split('```')[2];
    expect(afterBlock.trim().split('\n\n')[0]).toContain('open http://localhost:8080/console/setup?token=');
    expect(read('README.md').slice(0, read('README.md').indexOf('\n## '))).toContain('`npm test`');
    expect(read('README.md').indexOf('```')).toBeLessThan(read('README.md').indexOf('\n## '));
  });

  it("README's first section says how to pick the port, check health, keep the project, read mail and wire an app (issue 39)", () => {
    const first = read('README.md').slice(0, read('README.md').indexOf('\n## '));
    for (const needle of ['PORT=9000 npm start', 'curl -s http://127.0.0.1:8080/healthz', '| tee project.json', 'gatehouse mail list', 'docs/sdk.md#wire-your-app-in-four-steps']) {
      expect(first, needle).toContain(needle);
    }
    expect(read('docs/sdk.md')).toMatch(/^## Wire your app in four steps$/m);
  });

  it('README names every locked package whose engines field refuses Node 20 (the EBADENGINE line stays true)', () => {
    const lock = JSON.parse(read('package-lock.json')) as { packages: Record<string, { version?: string; engines?: { node?: string } }> };
    const refusing = Object.entries(lock.packages)
      .filter(([, entry]) => Number(/^>=\s*(\d+)/.exec(entry.engines?.node ?? '')?.[1] ?? 0) > 20)
      .map(([path, entry]) => `${path.split('node_modules/').pop()}@${entry.version}`);
    const first = read('README.md').slice(0, read('README.md').indexOf('\n## '));
    for (const name of refusing) expect(first, `README's EBADENGINE line names ${name}`).toContain(name);
    if (refusing.length > 0) expect(first).toContain('EBADENGINE');
  });

  it('docs/errors.md lists every error code with its HTTP status', () => {
    const doc = read('docs/errors.md');
    const missing = Object.entries(knownErrorCodes())
      .filter(([code, status]) => !new RegExp(`^\\| \`${code.replace(/\./g, '\\.')}\` \\| ${status} \\|`, 'm').test(doc))
      .map(([code, status]) => `${code} (${status})`);
    expect(missing, 'add a row "| `code` | status | meaning |" to docs/errors.md').toEqual([]);
  });

  it('docs/flows.md lists every error code the flow runtime, its methods and hooks can throw', () => {
    // create_user, the engine's one hook, lives in runtime/ (create-user.ts) since the method seam's second version.
    const dirs = ['src/flows/runtime', 'src/flows/methods', 'src/flows/gates', 'src/flows/risk', 'src/flows/codes'];
    const sources = dirs.flatMap((dir) =>
      (readdirSync(join(root, dir), { recursive: true }) as string[]).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts') && !f.includes('test-kit')).map((f) => read(`${dir}/${f}`)),
    );
    sources.push(read('src/flows/state.ts'), read('src/flows/cookie.ts'));
    const codes = new Set<string>();
    for (const source of sources) for (const match of source.matchAll(/(?:AppError|notFoundError|notFound)\('([a-z_]+\.[a-z_]+)'/g)) codes.add(match[1]);
    expect(codes.size).toBeGreaterThan(8);
    const doc = read('docs/flows.md');
    const missing = [...codes].filter((code) => !doc.includes(`\`${code}\``));
    expect(missing, 'add a row for each to the Errors table of docs/flows.md').toEqual([]);
  });

  it('the docs stand alone: they cite no design document or interface file outside the repository', () => {
    const files = ['README.md', ...readdirSync(join(root, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];
    const citing = files.filter((file) => /\bDESIGN\b|interface\.md/.test(read(file)));
    expect(citing).toEqual([]);
  });

  it('docs/configuration.md documents every environment variable src/config.ts reads', () => {
    const source = read('src/config.ts');
    const variables = new Set<string>();
    for (const pattern of [/env\.([A-Z][A-Z0-9_]+)/g, /env, '([A-Z][A-Z0-9_]+)'/g, /env\[['"]([A-Z][A-Z0-9_]+)['"]\]/g]) {
      for (const match of source.matchAll(pattern)) variables.add(match[1]);
    }
    expect(variables.size).toBeGreaterThan(10);
    const doc = read('docs/configuration.md');
    const missing = [...variables].filter((name) => !new RegExp(`^\\| \`${name}\` \\|`, 'm').test(doc));
    expect(missing, 'add a row "| `NAME` | default | example | meaning |" to docs/configuration.md').toEqual([]);
  });

  it('relative links in README.md and docs/ point to files that exist', () => {
    const files = ['README.md', ...readdirSync(join(root, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];
    const broken: string[] = [];
    for (const file of files) {
      for (const [, target] of read(file).matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)) {
        if (/^[a-z]+:/.test(target)) continue;
        if (!existsSync(resolve(root, dirname(file), target))) broken.push(`${file} -> ${target}`);
      }
    }
    expect(broken).toEqual([]);
  });
});
