import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * PGlite keeps no lock of its own, and two processes writing one data directory corrupt it (say
 * `gatehouse project create` while `gatehouse serve` runs). A pid file held while the database is
 * open makes the second process stop with one clear line instead. A lock left by a process that
 * no longer exists (a crash, a kill -9) is taken over.
 */
export const LOCK_FILE = 'gatehouse.lock';

export class DataDirLockedError extends Error {
  readonly code = 'EDATADIRLOCKED';

  constructor(dataDir: string, pid: number) {
    super(`GATEHOUSE_DATA_DIR: the embedded database in ${dataDir} is in use by process ${pid}; stop it first (or use DATABASE_URL)`);
    this.name = 'DataDirLockedError';
  }
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to someone else, which still means "running".
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Takes the lock or throws DataDirLockedError; returns the release function. */
export function lockDataDir(dataDir: string): () => void {
  // 0700: the embedded database and the generated secrets are nobody else's business.
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const path = join(dataDir, LOCK_FILE);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(path, `${process.pid}\n`, { flag: 'wx', mode: 0o600 });
      return () => {
        if (readFileSync(path, 'utf8').trim() === String(process.pid)) rmSync(path, { force: true });
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = Number.parseInt(readFileSync(path, 'utf8'), 10);
      if (Number.isInteger(holder) && holder > 0 && isRunning(holder)) throw new DataDirLockedError(dataDir, holder);
      rmSync(path, { force: true });
    }
  }
  throw new DataDirLockedError(dataDir, Number.parseInt(readFileSync(path, 'utf8'), 10));
}
