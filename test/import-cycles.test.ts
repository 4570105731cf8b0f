import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * No module of `src/` reaches itself through imports that survive compilation. An ES module
 * circle evaluates one of its members before the other has run, so a constant read across it is
 * `undefined` or a TDZ error depending on which file was imported first. Type-only imports are
 * erased and are not counted (the Kysely `Database` type and the method interface's `FlowRun`
 * still go both ways; docs/development.md).
 */
const SRC = fileURLToPath(new URL('../src', import.meta.url));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** `import x from './a.js'`, `export * from './a.js'`, and `import './a.js'` (run for its effects; no clause). */
const IMPORT = /^(?:import|export)\s+(type\s+)?(?:([^'";]*?)\s*from\s+)?'(\.[^']+)'/gm;

/** Whether every name of an `import { a, type b }` list is a type (so the import is erased). */
function onlyTypes(clause: string | undefined): boolean {
  const names = clause === undefined ? undefined : /^\{([^}]*)\}$/.exec(clause.trim())?.[1];
  if (names === undefined) return false;
  const listed = names.split(',').map((name) => name.trim()).filter((name) => name.length > 0);
  return listed.length > 0 && listed.every((name) => name.startsWith('type '));
}

function runtimeImports(files: string[]): Map<string, string[]> {
  const known = new Set(files);
  return new Map(
    files.map((file) => {
      const targets: string[] = [];
      for (const [, typeKeyword, clause, specifier] of readFileSync(file, 'utf8').matchAll(IMPORT)) {
        if (typeKeyword !== undefined || onlyTypes(clause)) continue;
        const target = resolve(dirname(file), specifier.replace(/\.js$/, '.ts'));
        if (known.has(target)) targets.push(target);
      }
      return [file, targets];
    }),
  );
}

/** Strongly connected components of more than one file (Tarjan), each as a list of its edges. */
function circles(graph: Map<string, string[]>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (file: string) => {
    index.set(file, counter);
    low.set(file, counter++);
    stack.push(file);
    onStack.add(file);
    for (const target of graph.get(file) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(file, Math.min(low.get(file)!, low.get(target)!));
      } else if (onStack.has(target)) low.set(file, Math.min(low.get(file)!, index.get(target)!));
    }
    if (low.get(file) !== index.get(file)) return;
    const members = new Set<string>();
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      members.add(member);
    } while (member !== file);
    if (members.size < 2) return;
    found.push([...members].flatMap((from) => graph.get(from)!.filter((to) => members.has(to)).map((to) => `${relative(SRC, from)} -> ${relative(SRC, to)}`)));
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return found;
}

describe('module structure', () => {
  it('has no circle of runtime imports in src/', () => {
    const graph = runtimeImports(sourceFiles(SRC));
    expect(graph.size).toBeGreaterThan(100);
    expect(circles(graph)).toEqual([]);
  });

  it('finds a circle when there is one (the check itself can fail)', () => {
    const graph = new Map([
      ['/a.ts', ['/b.ts']],
      ['/b.ts', ['/c.ts']],
      ['/c.ts', ['/a.ts']],
      ['/d.ts', ['/a.ts']],
    ]);
    expect(circles(graph).map((edges) => edges.length)).toEqual([3]);
    expect(onlyTypes('{ type A, type B }')).toBe(true);
    expect(onlyTypes('{ type A, b }')).toBe(false);
    expect(onlyTypes(undefined)).toBe(false);
    expect([..."import './effects.js';\nimport type { T } from './types.js';".matchAll(IMPORT)].map((match) => [match[1] !== undefined, match[3]])).toEqual([
      [false, './effects.js'],
      [true, './types.js'],
    ]);
  });
});
