/**
 * The architecture, held against the code (issue 32, docs/design/seam-v2.md §4.4 and §5 step 1).
 *
 * `test/architecture.json` is this repository's copy of the target layers: its parts (each with the
 * paths it `is`; the longest matching path wins) and the imports that must never be (`never`). The
 * test builds the import graph of `src/` (non-test files; test support such as `*test-kit.ts` is
 * exempt), type-only imports included, and holds it against a baseline of today's breaches,
 * `test/architecture.baseline.json`:
 *
 * - the number of import circles (strongly connected components of two files or more) only
 *   shrinks: lower it when a step removes one;
 * - every import that breaks a never is in the baseline: a new one fails, naming the import;
 * - a baseline entry that no longer occurs fails too, so the baseline stays honest;
 * - no import runs against the layer order (`RANK`), with no baseline: there are none left.
 *
 * When a step removes a circle or a breach (or moves files), regenerate the baseline and commit it
 * with the step:
 *
 *     UPDATE_ARCHITECTURE_BASELINE=1 npx vitest run test/architecture.test.ts
 *
 * That run writes what the code holds, breaches included, instead of asserting: read its diff, it
 * must only shrink. Files that move take their paths in `test/architecture.json` with them.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  type Architecture,
  baselineDiff,
  circles,
  importGraph,
  importsOf,
  neverViolations,
  pairKey,
  partOf,
  readBaseline,
  ROOT,
  sourceFiles,
  unresolvedImports,
  UPDATE_BASELINE,
  writeBaseline,
} from './helpers/import-graph.js';

const BASELINE_FILE = 'test/architecture.baseline.json';
const REGENERATE = 'UPDATE_ARCHITECTURE_BASELINE=1 npx vitest run test/architecture.test.ts';

interface Baseline {
  /** import circles today, type-only imports included: only shrinks */
  circles: number;
  /** never-pair (`Methods -> Runtime`) → the imports that break it today (`from.ts -> to.ts`): only shrinks */
  never: Record<string, string[]>;
}

/**
 * The layer order (docs/design/seam-v2.md §4.1, the appendix's measure script): an import goes to
 * a part of the same rank or a lower one. Routes and UI sit above HTTP, the composition root on top.
 */
const RANK: Record<string, number> = { Core: 0, DB: 1, Domains: 2, Flows: 3, Methods: 4, Definitions: 5, Runtime: 5, HTTP: 6, UI: 7, Routes: 8, Routes2: 8, Routes3: 8, Edge: 9 };

const architecture = JSON.parse(readFileSync(join(ROOT, 'test/architecture.json'), 'utf8')) as Architecture;
const files = sourceFiles('src');
const graph = importGraph(files);
const found = circles(graph);
const breaches = Object.fromEntries(Object.entries(neverViolations(architecture, graph)).filter(([, imports]) => imports.length > 0));
const measured: Baseline = { circles: found.length, never: breaches };

describe('architecture (test/architecture.json against src/)', () => {
  it('reads the import graph: a known import, a type-only one, every relative import resolved', () => {
    expect(files.length).toBeGreaterThan(100);
    // A value import and a type-only one (registry.ts imports only types from method.ts): both are arrows.
    expect(graph.get('src/flows/methods/registry.ts')?.get('src/flows/methods/password/index.ts')).toBe(false);
    expect(graph.get('src/flows/methods/registry.ts')?.get('src/flows/methods/method.ts')).toBe(true);
    expect(files.some((file) => file.endsWith('test-kit.ts') || file.endsWith('.test.ts'))).toBe(false);
    expect(unresolvedImports(files), 'relative imports that name no file: the graph would miss them').toEqual([]);
  });

  it('reads every form of import, and no comment', () => {
    const text = [
      "import { a } from './value.js';",
      "import type { T } from './types.js';",
      "import { type U, type V } from './only-types.js';",
      "import { type W, w } from './mixed.js';",
      "import './effects.js';",
      "export * from './reexport.js';",
      "export type { X } from './type-reexport.js';",
      "import {\n  many,\n  lines,\n} from '../up/multi.js';",
      "const lazy = () => import('./lazy.js');",
      "type Y = import('./inline-type.js').Y;",
      "// import { no } from './comment.js';",
      "const s = \"import { no } from './string.js'\";",
      "import { z } from 'zod';",
    ].join('\n');
    expect(importsOf('src/x/file.ts', text).map((ref) => [ref.to, ref.typeOnly])).toEqual([
      ['src/x/value.ts', false],
      ['src/x/types.ts', true],
      ['src/x/only-types.ts', true],
      ['src/x/mixed.ts', false],
      ['src/x/effects.ts', false],
      ['src/x/reexport.ts', false],
      ['src/x/type-reexport.ts', true],
      ['src/up/multi.ts', false],
      ['src/x/lazy.ts', false],
      ['src/x/inline-type.ts', true],
    ]);
  });

  it('finds a circle and a broken never when there is one (the checks themselves can fail)', () => {
    const sources: Record<string, string> = {
      'src/low/a.ts': "import type { B } from '../high/b.js';",
      'src/high/b.ts': "import { c } from './c.js';",
      'src/high/c.ts': "import { a } from '../low/a.js';",
      'src/high/d.ts': "import { a } from '../low/a.js';",
    };
    const synthetic = importGraph(Object.keys(sources), (file) => sources[file]);
    expect(circles(synthetic)).toEqual([['src/high/b.ts', 'src/high/c.ts', 'src/low/a.ts']]);
    const layers: Architecture = {
      parts: { Low: { is: ['src/low/'] }, High: { is: ['src/high/'] }, D: { is: ['src/high/d.ts'] } },
      never: [['Low', 'High', 'low knows nothing high']],
    };
    expect(partOf(layers, 'src/high/d.ts')).toBe('D');
    const violations = neverViolations(layers, synthetic);
    expect(violations).toEqual({ 'Low -> High': ['src/low/a.ts -> src/high/b.ts'] });
    // Held against an empty baseline, the breach is new; an entry the code no longer holds is gone.
    expect(baselineDiff(violations['Low -> High'], ['src/low/a.ts -> src/high/c.ts'])).toEqual({
      added: ['src/low/a.ts -> src/high/b.ts'],
      gone: ['src/low/a.ts -> src/high/c.ts'],
    });
  });

  it('the copy names parts that exist: every path of a part is there, every file of src/ has a part', () => {
    const missing = Object.entries(architecture.parts).flatMap(([part, { is }]) => is.filter((path) => !existsSync(join(ROOT, path))).map((path) => `${part}: ${path}`));
    expect(missing, 'paths of test/architecture.json that no longer exist: a file moved, move its path too').toEqual([]);
    expect(files.filter((file) => partOf(architecture, file) === undefined), 'files of src/ in no part of test/architecture.json').toEqual([]);
    const parts = new Set(Object.keys(architecture.parts));
    expect(architecture.never.flatMap(([from, to]) => [from, to]).filter((part) => !parts.has(part))).toEqual([]);
  });

  if (UPDATE_BASELINE) {
    it(`rewrites ${BASELINE_FILE} (UPDATE_ARCHITECTURE_BASELINE=1)`, () => {
      writeBaseline(BASELINE_FILE, measured);
      console.warn(`${BASELINE_FILE} rewritten: ${measured.circles} circles, ${Object.values(measured.never).flat().length} imports breaking a never. Review its diff: it may only shrink.`);
    });
    return;
  }

  const baseline = readBaseline<Baseline>(BASELINE_FILE);

  it('has a baseline', () => {
    expect(baseline, `${BASELINE_FILE} is missing: ${REGENERATE}`).toBeDefined();
  });

  it('import circles, type-only imports included, only shrink', () => {
    const sizes = found.map((members) => `${members.length} files (${members.slice(0, 4).join(', ')}${members.length > 4 ? ', …' : ''})`).join('; ');
    expect(found.length, `more import circles than the baseline's ${baseline?.circles}: ${sizes}. Break the new circle.`).toBeLessThanOrEqual(baseline!.circles);
    expect(found.length, `only ${found.length} import circles left (${sizes || 'none'}), the baseline says ${baseline?.circles}: lower it, ${REGENERATE}`).toBe(baseline!.circles);
  });

  it('no import runs back up the layers (a dependency a lower layer needs is a port it declares)', () => {
    expect(Object.keys(architecture.parts).filter((part) => RANK[part] === undefined), 'parts without a rank').toEqual([]);
    const against: string[] = [];
    for (const [from, targets] of graph) {
      for (const to of targets.keys()) {
        const [low, high] = [partOf(architecture, from), partOf(architecture, to)];
        if (low !== undefined && high !== undefined && RANK[low] < RANK[high]) against.push(`${from} (${low}) -> ${to} (${high})`);
      }
    }
    expect(against).toEqual([]);
  });

  it('every never of test/architecture.json is kept, but for the baseline', () => {
    const problems: string[] = [];
    for (const [from, to, why] of architecture.never) {
      const key = pairKey(from, to);
      const { added, gone } = baselineDiff(measured.never[key] ?? [], baseline!.never[key] ?? []);
      for (const entry of added) problems.push(`new import breaking never ${key} (${why ?? ''}): ${entry}`);
      for (const entry of gone) problems.push(`no longer breaks never ${key}, remove it from the baseline (${REGENERATE}): ${entry}`);
    }
    for (const key of Object.keys(baseline!.never)) if (!architecture.never.some(([from, to]) => pairKey(from, to) === key)) problems.push(`the baseline names ${key}, not a never of test/architecture.json: ${REGENERATE}`);
    expect(problems).toEqual([]);
  });
});
