import { chmodSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Makes every folder below `dir` 0700 and every file 0600 (DESIGN: the data directory holds the
 * embedded database and the generated secrets). The embedded engine writes its initial files with
 * explicit 0666 modes, which no umask narrows, so `openPglite` calls this once the engine has
 * created them; files created later follow the process umask, which the CLI sets to 077.
 */
export function makePrivate(dir: string): void {
  const pending = [dir];
  while (pending.length > 0) {
    const current = pending.pop()!;
    if ((statSync(current).mode & 0o077) !== 0) chmodSync(current, 0o700);
    for (const entry of readdirSync(current, { withFileTypes: true })) {
      const path = join(current, entry.name);
      if (entry.isDirectory()) pending.push(path);
      else if (entry.isFile() && (statSync(path).mode & 0o077) !== 0) chmodSync(path, 0o600);
    }
  }
}
