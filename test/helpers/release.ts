import { execFileSync } from 'node:child_process';
import { mkdirSync, realpathSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from './process.js';

/**
 * The previous release, whose schema and code the upgrade tests start from (issue 37 item 4).
 * There are no release tags yet: this is the last release-quality commit. When releases are
 * tagged, name the previous tag here; docs/development.md (Migrations: expand and contract)
 * says when to move it.
 */
export const PREVIOUS_RELEASE = 'b039b06';

const git = (...args: string[]) => execFileSync('git', args, { cwd: REPO_ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

/** Fails with what to do when the clone has no history (a shallow clone lacks the release). */
export function resolveRelease(ref = PREVIOUS_RELEASE): string {
  try {
    return git('rev-parse', '--verify', `${ref}^{commit}`).trim();
  } catch {
    throw new Error(`the previous release ${ref} is not in this clone's history: the upgrade tests need it (git fetch --unshallow)`);
  }
}

/** Files at `ref` under `path` (a folder of the repository), by name. */
export function filesAt(ref: string, path: string): string[] {
  return git('ls-tree', '--name-only', `${resolveRelease(ref)}:${path}`).split('\n').filter(Boolean);
}

/** Every file path at `ref` under the given folders (recursive). */
export function pathsAt(ref: string, ...folders: string[]): Set<string> {
  return new Set(git('ls-tree', '-r', '--name-only', resolveRelease(ref), '--', ...folders).split('\n').filter(Boolean));
}

/** True when `ancestor` is `descendant` or comes before it in history. */
export function isAncestor(ancestor: string, descendant: string): boolean {
  try {
    git('merge-base', '--is-ancestor', ancestor, descendant);
    return true;
  } catch {
    return false;
  }
}

/**
 * The release's sources extracted into `dir` (git archive: no worktree entry left behind in the
 * repository), with this checkout's node_modules linked in. Its dependencies are a subset of
 * today's, which the lock file keeps at versions it accepts.
 */
export function checkoutRelease(dir: string, ref = PREVIOUS_RELEASE): string {
  mkdirSync(dir, { recursive: true });
  const archive = join(dir, 'release.tar');
  git('archive', '--format=tar', '-o', archive, resolveRelease(ref), 'src', 'package.json', 'tsconfig.json');
  execFileSync('tar', ['-xf', archive, '-C', dir]);
  symlinkSync(realpathSync(join(REPO_ROOT, 'node_modules')), join(dir, 'node_modules'));
  return dir;
}
