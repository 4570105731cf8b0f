import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

/**
 * The import graph of `src/`, read with the TypeScript parser (so comments and strings that look
 * like imports are not imports), for `test/architecture.test.ts` and `src/flows/methods/catalog.test.ts`.
 * Paths are relative to the repository root, with `/`: `src/flows/state.ts`.
 */

/** The repository root, with a trailing `/`. */
export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** `UPDATE_ARCHITECTURE_BASELINE=1`: the rule tests rewrite their baseline files instead of asserting. */
export const UPDATE_BASELINE = process.env.UPDATE_ARCHITECTURE_BASELINE === '1';

/**
 * Test code and test support, which the rules exempt: tests, declaration files, and the helpers the
 * production build leaves out (`tsconfig.build.json`: `testing.ts`, `test-*.ts`, `*test-kit.ts`, `*fixtures.ts`).
 */
export function isTestSupport(path: string): boolean {
  const name = posix.basename(path);
  return name.endsWith('.test.ts') || name.endsWith('.d.ts') || name === 'testing.ts' || name.startsWith('test-') || name.endsWith('test-kit.ts') || name.endsWith('fixtures.ts');
}

/** Every non-test `.ts` file under `dir` (repository-relative), sorted. */
export function sourceFiles(dir = 'src'): string[] {
  const walk = (relativeDir: string): string[] =>
    readdirSync(join(ROOT, relativeDir), { withFileTypes: true }).flatMap((entry) => {
      const path = posix.join(relativeDir, entry.name);
      if (entry.isDirectory()) return walk(path);
      return entry.name.endsWith('.ts') && !isTestSupport(path) ? [path] : [];
    });
  return walk(dir).sort();
}

export function readSource(file: string): string {
  return readFileSync(join(ROOT, file), 'utf8');
}

export function parse(file: string, text = readSource(file)): ts.SourceFile {
  return ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
}

/** One relative import of a file. */
export interface ImportRef {
  /** the importing file */
  from: string;
  /** the imported file, `./x.js` resolved to `x.ts` (repository-relative; it may not exist) */
  to: string;
  specifier: string;
  /** erased at build: `import type`, `import { type A }` only, `export type`, `import('./x.js').T` in a type */
  typeOnly: boolean;
}

/** `./x.js` from `src/a/b.ts` → `src/a/x.ts`. Package specifiers answer undefined. */
export function resolveSpecifier(from: string, specifier: string): string | undefined {
  if (!specifier.startsWith('.')) return undefined;
  return posix.normalize(posix.join(posix.dirname(from), specifier.replace(/\.js$/, '.ts')));
}

const allTypeOnly = (elements: ts.NodeArray<ts.ImportSpecifier | ts.ExportSpecifier>) => elements.length > 0 && elements.every((element) => element.isTypeOnly);

/**
 * Every relative import of a file: static `import` and `export … from` (type-only included),
 * `import './x.js'`, `import('./x.js')` calls and `import('./x.js')` types.
 */
export function importsOf(file: string, text = readSource(file)): ImportRef[] {
  const found: ImportRef[] = [];
  const add = (specifier: string, typeOnly: boolean) => {
    const to = resolveSpecifier(file, specifier);
    if (to !== undefined) found.push({ from: file, to, specifier, typeOnly });
  };
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.importClause;
      const bindings = clause?.namedBindings;
      const typeOnly = clause !== undefined && (clause.isTypeOnly || (clause.name === undefined && bindings !== undefined && ts.isNamedImports(bindings) && allTypeOnly(bindings.elements)));
      add(node.moduleSpecifier.text, typeOnly);
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.exportClause;
      add(node.moduleSpecifier.text, node.isTypeOnly || (clause !== undefined && ts.isNamedExports(clause) && allTypeOnly(clause.elements)));
    } else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference) && ts.isStringLiteral(node.moduleReference.expression)) {
      add(node.moduleReference.expression.text, node.isTypeOnly);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      add(node.argument.literal.text, true);
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && node.arguments[0] && ts.isStringLiteralLike(node.arguments[0])) {
      add(node.arguments[0].text, false);
    }
    ts.forEachChild(node, visit);
  };
  visit(parse(file, text));
  return found;
}

/**
 * The graph over `files`: from → (to → type-only). An arrow is type-only when every import along it
 * is. Imports of files outside `files` (test support, JSON, CSS) are left out.
 */
export type ImportGraph = Map<string, Map<string, boolean>>;

export function importGraph(files: readonly string[], read: (file: string) => string = readSource): ImportGraph {
  const known = new Set(files);
  const graph: ImportGraph = new Map(files.map((file) => [file, new Map<string, boolean>()]));
  for (const file of files) {
    const targets = graph.get(file)!;
    for (const ref of importsOf(file, read(file))) {
      if (!known.has(ref.to) || ref.to === file) continue;
      targets.set(ref.to, (targets.get(ref.to) ?? true) && ref.typeOnly);
    }
  }
  return graph;
}

/** Relative imports that name no file on disk (a wrong resolution would make the graph vacuous). */
export function unresolvedImports(files: readonly string[]): string[] {
  return files.flatMap((file) =>
    importsOf(file)
      .filter((ref) => !existsSync(join(ROOT, ref.to)))
      .map((ref) => `${ref.from}: '${ref.specifier}'`),
  );
}

/** Strongly connected components of more than one file (Tarjan), each sorted, largest first. */
export function circles(graph: ImportGraph): string[][] {
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
    for (const target of graph.get(file)?.keys() ?? []) {
      if (!graph.has(target)) continue;
      if (!index.has(target)) {
        visit(target);
        low.set(file, Math.min(low.get(file)!, low.get(target)!));
      } else if (onStack.has(target)) low.set(file, Math.min(low.get(file)!, index.get(target)!));
    }
    if (low.get(file) !== index.get(file)) return;
    const members: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      members.push(member);
    } while (member !== file);
    if (members.length > 1) found.push(members.sort());
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return found.sort((a, b) => b.length - a.length || a[0].localeCompare(b[0]));
}

/** `architecture.json`: parts (each with the paths it `is`; a path ending in `/` is a folder) and never-pairs. */
export interface Architecture {
  parts: Record<string, { is: string[]; says?: string }>;
  arrows?: Array<[string, string]>;
  never: Array<[string, string, string?]>;
}

/** The part a file belongs to: the one with the longest matching path (a file beats its folder). */
export function partOf(architecture: Architecture, file: string): string | undefined {
  let best: { length: number; part: string } | undefined;
  for (const [part, { is }] of Object.entries(architecture.parts)) {
    for (const path of is) {
      const matches = path.endsWith('/') ? file.startsWith(path) : file === path;
      if (matches && (best === undefined || path.length > best.length)) best = { length: path.length, part };
    }
  }
  return best?.part;
}

/** `A -> B`, the key of a never-pair. */
export const pairKey = (from: string, to: string) => `${from} -> ${to}`;

/** For each never-pair of the architecture, the imports (`from.ts -> to.ts`) that break it, sorted; every pair present. */
export function neverViolations(architecture: Architecture, graph: ImportGraph): Record<string, string[]> {
  const result: Record<string, string[]> = {};
  for (const [fromPart, toPart] of architecture.never) result[pairKey(fromPart, toPart)] = [];
  for (const [from, targets] of graph) {
    const fromPart = partOf(architecture, from);
    if (fromPart === undefined) continue;
    for (const to of targets.keys()) {
      const list = result[pairKey(fromPart, partOf(architecture, to) ?? '')];
      if (list) list.push(pairKey(from, to));
    }
  }
  for (const list of Object.values(result)) list.sort();
  return result;
}

/**
 * Compares what the code holds against a baseline list: entries that are new (the code broke a
 * rule) and entries that are gone (the baseline must shrink). Both are failures.
 */
export function baselineDiff(actual: readonly string[], baseline: readonly string[]): { added: string[]; gone: string[] } {
  const now = new Set(actual);
  const before = new Set(baseline);
  return { added: [...now].filter((entry) => !before.has(entry)).sort(), gone: [...before].filter((entry) => !now.has(entry)).sort() };
}

/** Reads a JSON baseline, or undefined when there is none. */
export function readBaseline<T>(path: string): T | undefined {
  return existsSync(join(ROOT, path)) ? (JSON.parse(readFileSync(join(ROOT, path), 'utf8')) as T) : undefined;
}

export function writeBaseline(path: string, value: unknown): void {
  writeFileSync(join(ROOT, path), `${JSON.stringify(value, null, 2)}\n`);
}

/** The folders (repository-relative, with a trailing `/`) directly under `dir`. */
export function foldersUnder(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => `${posix.join(dir, entry.name)}/`)
    .sort();
}
