/**
 * The method catalog's rules, as declarations (issue 32, docs/design/seam-v2.md §4.4 (1) and (2)):
 *
 * 1. The flow engine knows no method by name. The engine and runtime files (`src/flows/runtime/**`,
 *    `src/flows/state.ts`, `src/flows/cookie.ts`, the response shapes in `src/flows/view.ts`; comments do not count) name no method registered in
 *    `registry.ts` (nor a factor a method declares; nor do `src/sessions/levels.ts` and `src/oauth/session-claims.ts`) as a whole string literal (`'passkey'`), an object key (`passkey:`, `{ passkey }`,
 *    `passkey?: T`) or an import of a method's folder (`../methods/passkey/…`).
 * 2. A method sees only its port: no file under `src/flows/methods/` imports from `src/flows/runtime/`,
 *    `src/http/` or `src/ui/` (type-only imports included).
 *
 * Test support (`*test-kit.ts`, tests) is exempt. Today both rules are broken: the breaches are kept in
 * `src/flows/methods/catalog.baseline.json`, which only shrinks. A breach that is not in it fails; an
 * entry of it that the code no longer holds fails too (per file and name, counted). When a step
 * removes one, regenerate the baseline and commit it with the step:
 *
 *     UPDATE_ARCHITECTURE_BASELINE=1 npx vitest run src/flows/methods/catalog.test.ts
 *
 * That run writes what the code holds, breaches included, instead of asserting: read its diff.
 */
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { baselineDiff, foldersUnder, importsOf, parse, readBaseline, readSource, sourceFiles, UPDATE_BASELINE, writeBaseline } from '../../../test/helpers/import-graph.js';
import { BUDGETED_FACTORS } from '../risk/service.js';
import { budgetedFactors, METHODS } from './registry.js';

const BASELINE_FILE = 'src/flows/methods/catalog.baseline.json';
const REGENERATE = 'UPDATE_ARCHITECTURE_BASELINE=1 npx vitest run src/flows/methods/catalog.test.ts';

/**
 * The files of the engine that must name no method, and the domain files whose per-method tables
 * the methods declare now (`AuthMethod.factors`: assurance kinds and `amr`).
 */
const ENGINE_FILES = [...sourceFiles('src/flows/runtime'), 'src/flows/state.ts', 'src/flows/cookie.ts', 'src/flows/view.ts', 'src/sessions/levels.ts', 'src/oauth/session-claims.ts'];
/** Where a method may not import from. */
const FORBIDDEN_TO_METHODS = ['src/flows/runtime/', 'src/http/', 'src/ui/'];

interface Baseline {
  /** `file: string 'name'` / `file: key name` / `file: imports folder/` → how often the file does it today */
  names: Record<string, number>;
  /** `method-file.ts -> forbidden.ts` */
  imports: string[];
}

/** One place a file names a method. */
interface Naming {
  /** the baseline key: `src/flows/state.ts: key passkey` */
  entry: string;
  line: number;
}

const isKey = (node: ts.Node) =>
  (ts.isPropertyAssignment(node) ||
    ts.isShorthandPropertyAssignment(node) ||
    ts.isPropertySignature(node) ||
    ts.isPropertyDeclaration(node) ||
    ts.isMethodDeclaration(node) ||
    ts.isMethodSignature(node) ||
    ts.isGetAccessorDeclaration(node) ||
    ts.isSetAccessorDeclaration(node));

/** The text of a property name that is written out (`passkey`, `'passkey'`), not computed. */
function keyText(name: ts.Node | undefined): string | undefined {
  if (name === undefined) return undefined;
  if (ts.isIdentifier(name) || ts.isStringLiteral(name) || ts.isNoSubstitutionTemplateLiteral(name)) return name.text;
  return undefined;
}

/**
 * Where a file names one of `names` (method names) or imports from one of `folders` (method folders,
 * with a trailing `/`). Comments are not read: the file is parsed.
 */
function methodNamings(file: string, text: string, names: readonly string[], folders: readonly string[]): Naming[] {
  const wanted = new Set(names);
  const source = parse(file, text);
  const found: Naming[] = [];
  const at = (node: ts.Node, entry: string) => found.push({ entry: `${file}: ${entry}`, line: source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1 });
  const visit = (node: ts.Node) => {
    if (isKey(node)) {
      const key = keyText((node as ts.NamedDeclaration).name);
      if (key !== undefined && wanted.has(key)) at(node, `key ${key}`);
    } else if (ts.isBindingElement(node) && ts.isObjectBindingPattern(node.parent)) {
      const key = keyText(node.propertyName ?? node.name);
      if (key !== undefined && wanted.has(key)) at(node, `key ${key}`);
    } else if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) {
      const parent = node.parent;
      const isName = (isKey(parent) || ts.isBindingElement(parent)) && ((parent as ts.NamedDeclaration).name === node || (ts.isBindingElement(parent) && parent.propertyName === node));
      const isSpecifier = ts.isImportDeclaration(parent) || ts.isExportDeclaration(parent) || ts.isExternalModuleReference(parent) || ts.isLiteralTypeNode(parent) && ts.isImportTypeNode(parent.parent);
      if (!isName && !isSpecifier && wanted.has(node.text)) at(node, `string '${node.text}'`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  const lines = new Map<string, number>();
  for (const ref of importsOf(file, text)) {
    const folder = folders.find((candidate) => ref.to.startsWith(candidate));
    if (folder !== undefined && !lines.has(folder)) lines.set(folder, text.slice(0, text.indexOf(ref.specifier)).split('\n').length);
  }
  for (const [folder, line] of lines) found.push({ entry: `${file}: imports ${folder}`, line });
  return found;
}

/** Imports of files under `src/flows/methods/` into the places a method may not reach, `from -> to`. */
function forbiddenMethodImports(files: readonly string[], read?: (file: string) => string): string[] {
  const found = new Set<string>();
  for (const file of files) {
    for (const ref of importsOf(file, read?.(file))) if (FORBIDDEN_TO_METHODS.some((place) => ref.to.startsWith(place))) found.add(`${file} -> ${ref.to}`);
  }
  return [...found].sort();
}

const count = (namings: readonly Naming[]) => {
  const counts: Record<string, number> = {};
  for (const { entry } of [...namings].sort((a, b) => a.entry.localeCompare(b.entry))) counts[entry] = (counts[entry] ?? 0) + 1;
  return counts;
};

const methodNames = [...new Set(METHODS.flatMap((method) => [method.name, ...Object.keys(method.factors ?? {})]))];
const methodFolders = foldersUnder('src/flows/methods');
const namings = ENGINE_FILES.flatMap((file) => methodNamings(file, readSource(file), methodNames, methodFolders));
const measured: Baseline = { names: count(namings), imports: forbiddenMethodImports(sourceFiles('src/flows/methods')) };

describe('the method catalog (rules as declarations)', () => {
  it('reads the registry and the engine files (the rules cannot pass for want of input)', () => {
    expect(methodNames).toEqual(expect.arrayContaining(['password', 'passkey', 'webauthn', 'magic_link']));
    expect(methodNames).toContain('password');
    expect(methodNames).toContain('passkey');
    expect(new Set(methodNames).size).toBe(methodNames.length);
    expect(methodFolders).toContain('src/flows/methods/password/');
    expect(ENGINE_FILES).toContain('src/flows/runtime/engine.ts');
    expect(ENGINE_FILES.some((file) => file.endsWith('.test.ts') || file.endsWith('test-kit.ts'))).toBe(false);
  });

  it('finds a method named in engine code, and nowhere else (the check itself can fail)', () => {
    const text = [
      "import { passwordMethod } from '../methods/password/index.js';",
      "import type { X } from '../methods/password/types.js';",
      "import { METHODS } from '../methods/registry.js';",
      "const a = 'password';",
      'type Kind = `passkey`;',
      'const frame = { passkey: 1, "totp": 2, [key]: 3 };',
      'interface Step { sso?: string }',
      'const { otp, other: recovery_code } = value;',
      "// const b = 'password'; passkey: 1",
      '/* totp: 2 */',
      "const c = 'x-auth-methods#password', d = 'Password', e = run.password, password2 = 'ssoo';",
    ].join('\n');
    const names = ['password', 'passkey', 'totp', 'sso', 'otp', 'recovery_code'];
    expect(methodNamings('src/flows/runtime/x.ts', text, names, ['src/flows/methods/password/', 'src/flows/methods/sso/']).map(({ entry, line }) => `${line} ${entry}`)).toEqual([
      "4 src/flows/runtime/x.ts: string 'password'",
      "5 src/flows/runtime/x.ts: string 'passkey'",
      '6 src/flows/runtime/x.ts: key passkey',
      '6 src/flows/runtime/x.ts: key totp',
      '7 src/flows/runtime/x.ts: key sso',
      '8 src/flows/runtime/x.ts: key otp',
      '1 src/flows/runtime/x.ts: imports src/flows/methods/password/',
    ]);
    const sources: Record<string, string> = {
      'src/flows/methods/pin/index.ts': "import type { FlowRun } from '../../runtime/run.js';\nimport { SESSION_COOKIE } from '../../../http/cookies.js';\nimport { x } from '../../state.js';",
    };
    expect(forbiddenMethodImports(Object.keys(sources), (file) => sources[file])).toEqual([
      'src/flows/methods/pin/index.ts -> src/flows/runtime/run.ts',
      'src/flows/methods/pin/index.ts -> src/http/cookies.ts',
    ]);
  });

  if (UPDATE_BASELINE) {
    it(`rewrites ${BASELINE_FILE} (UPDATE_ARCHITECTURE_BASELINE=1)`, () => {
      writeBaseline(BASELINE_FILE, measured);
      console.warn(`${BASELINE_FILE} rewritten: ${namings.length} namings of a method in engine files, ${measured.imports.length} forbidden imports in methods. Review its diff: it may only shrink.`);
    });
    return;
  }

  const baseline = readBaseline<Baseline>(BASELINE_FILE);

  it('the risk service\'s default list of budgeted factors is the registry\'s (methods declaring budget: account)', () => {
    expect([...BUDGETED_FACTORS].sort()).toEqual(budgetedFactors().sort());
    expect(budgetedFactors().length).toBeGreaterThan(0);
  });

  it('has a baseline', () => {
    expect(baseline, `${BASELINE_FILE} is missing: ${REGENERATE}`).toBeDefined();
  });

  it('the engine and runtime files name no registered method, but for the baseline', () => {
    const problems: string[] = [];
    for (const entry of new Set([...Object.keys(measured.names), ...Object.keys(baseline!.names)])) {
      const now = measured.names[entry] ?? 0;
      const before = baseline!.names[entry] ?? 0;
      const lines = namings.filter((naming) => naming.entry === entry).map((naming) => naming.line);
      if (now > before) problems.push(`names a method: ${entry} (${now}×, the baseline allows ${before}; line ${lines.join(', ')}): ask the registry instead`);
      if (now < before) problems.push(`${entry}: ${now}× now, the baseline says ${before}: lower it, ${REGENERATE}`);
    }
    expect(problems).toEqual([]);
  });

  it('no method imports from runtime/, http/ or ui/, but for the baseline', () => {
    const { added, gone } = baselineDiff(measured.imports, baseline!.imports);
    expect([
      ...added.map((entry) => `a method imports past its port: ${entry}`),
      ...gone.map((entry) => `no longer imported, remove it from the baseline (${REGENERATE}): ${entry}`),
    ]).toEqual([]);
  });
});
