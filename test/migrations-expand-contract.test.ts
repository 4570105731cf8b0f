import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from './helpers/process.js';
import { isAncestor, pathsAt, PREVIOUS_RELEASE, resolveRelease } from './helpers/release.js';

/**
 * Migrations are expand/contract (docs/development.md): a release's schema must still serve the
 * previous release's code, which runs beside it during a rolling upgrade. So a migration newer
 * than the previous release may not drop or rename a column or rename a table, unless the entry
 * below names the release that stopped using it, and that release is the previous one or older:
 * the contract step comes at least one release after the code stopped reading the column.
 */
export const CONTRACT_ALLOWED: ReadonlyArray<{ migration: string; statement: RegExp; stoppedUsingIn: string; why: string }> = [
  // { migration: '0123_drop_users_nickname.sql', statement: /drop column nickname/i, stoppedUsingIn: '<commit or tag>', why: '…' },
];

const CONTRACTING = [
  { what: 'drops a column', pattern: /\bdrop\s+column\b[^;]*/gi },
  // `alter table t rename [column] a to b`; not `rename to` (the table) nor `rename constraint`.
  { what: 'renames a column', pattern: /\brename\s+(?:column\s+)?(?!to\b|constraint\b)"?\w+"?\s+to\b[^;]*/gi },
  { what: 'renames a table', pattern: /\brename\s+to\b[^;]*/gi },
];

/** SQL without its comments (a comment may well mention what it does not do). */
export function withoutComments(sql: string): string {
  return sql.replace(/\/\*[\s\S]*?\*\//g, ' ').replace(/--[^\n]*/g, ' ');
}

/** Every contracting statement of a migration: what it does and the statement's text. */
export function contractingStatements(sql: string): Array<{ what: string; statement: string }> {
  const text = withoutComments(sql);
  return CONTRACTING.flatMap(({ what, pattern }) => [...text.matchAll(pattern)].map((match) => ({ what, statement: match[0].replace(/\s+/g, ' ').trim() })));
}

/** Migration files as `schema_migrations` names them, with their folder in the repository. */
function migrationsNow(): Array<{ version: string; path: string }> {
  const core = readdirSync(join(REPO_ROOT, 'src/db/migrations')).filter((f) => f.endsWith('.sql')).map((f) => ({ version: f, path: `src/db/migrations/${f}` }));
  const methodsDir = join(REPO_ROOT, 'src/flows/methods');
  const methods = readdirSync(methodsDir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .flatMap((entry) => {
      try {
        return readdirSync(join(methodsDir, entry.name, 'migrations')).filter((f) => f.endsWith('.sql')).map((f) => ({ version: `${entry.name}/${f}`, path: `src/flows/methods/${entry.name}/migrations/${f}` }));
      } catch {
        return [];
      }
    });
  return [...core, ...methods];
}

describe(`migrations since the previous release (${PREVIOUS_RELEASE}) only expand`, () => {
  it('finds what contracts, and not what only looks like it', () => {
    const found = contractingStatements(`
      -- we do not drop column legacy here
      alter table users drop column nickname;
      ALTER TABLE users RENAME COLUMN name TO full_name;
      alter table users rename "email" to address;
      alter table sessions rename to user_sessions;
      alter table users rename constraint users_pkey to users_id_pkey;
      /* rename column x to y */ alter table users add column dropped_at timestamptz;`);
    expect(found.map((f) => f.what)).toEqual(['drops a column', 'renames a column', 'renames a column', 'renames a table']);
    expect(found[0].statement).toBe('drop column nickname');
  });

  it('no migration newer than the previous release drops or renames without an allow-list entry naming an earlier release', () => {
    const release = pathsAt(PREVIOUS_RELEASE, 'src/db/migrations', 'src/flows/methods');
    expect([...release].filter((path) => path.endsWith('.sql')).length).toBeGreaterThan(10);
    const newer = migrationsNow().filter((migration) => !release.has(migration.path));
    expect(newer.length).toBeLessThan(migrationsNow().length);
    const refused: string[] = [];
    for (const migration of newer) {
      for (const found of contractingStatements(readFileSync(join(REPO_ROOT, migration.path), 'utf8'))) {
        const allowed = CONTRACT_ALLOWED.find((entry) => entry.migration === migration.version && entry.statement.test(found.statement));
        if (!allowed) refused.push(`${migration.path} ${found.what} (${found.statement}) without an entry in CONTRACT_ALLOWED`);
        else if (!isAncestor(resolveRelease(allowed.stoppedUsingIn), resolveRelease(PREVIOUS_RELEASE))) {
          refused.push(`${migration.path}: ${allowed.stoppedUsingIn} is not the previous release or older: the code that stops using it must ship first`);
        }
      }
    }
    expect(refused, 'see "Migrations: expand and contract" in docs/development.md').toEqual([]);
  });
});
