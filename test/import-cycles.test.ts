import { describe, expect, it } from 'vitest';
import { circles, importGraph, importsOf, sourceFiles, type ImportGraph } from './helpers/import-graph.js';

/**
 * No module of `src/` reaches itself through imports that survive compilation. An ES module
 * circle evaluates one of its members before the other has run, so a constant read across it is
 * `undefined` or a TDZ error depending on which file was imported first. Type-only imports are
 * erased and are not counted here (test/architecture.test.ts counts them, against a baseline).
 * The graph is the architecture test's (test/helpers/import-graph.ts), less its type-only arrows.
 */
function runtimeOnly(graph: ImportGraph): ImportGraph {
  return new Map([...graph].map(([from, targets]) => [from, new Map([...targets].filter(([, typeOnly]) => !typeOnly))]));
}

describe('module structure', () => {
  it('has no circle of runtime imports in src/', () => {
    const graph = runtimeOnly(importGraph(sourceFiles('src')));
    expect(graph.size).toBeGreaterThan(100);
    expect(circles(graph)).toEqual([]);
  });

  it('finds a circle when there is one, and leaves type-only arrows out (the check itself can fail)', () => {
    const sources: Record<string, string> = {
      'src/a.ts': "import { b } from './b.js';",
      'src/b.ts': "import { c } from './c.js';",
      'src/c.ts': "import { a } from './a.js';\nimport type { D } from './d.js';",
      'src/d.ts': "import { type A } from './a.js';\nimport './effects.js';",
      'src/effects.ts': '',
    };
    const graph = runtimeOnly(importGraph(Object.keys(sources), (file) => sources[file]));
    expect(circles(graph).map((members) => members.length)).toEqual([3]);
    expect(importsOf('src/d.ts', sources['src/d.ts']).map((ref) => [ref.to, ref.typeOnly])).toEqual([
      ['src/a.ts', true],
      ['src/effects.ts', false],
    ]);
  });
});
