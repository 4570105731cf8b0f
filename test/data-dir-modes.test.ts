import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createEmptyDatabase, testEngineKind } from './helpers/engine.js';
import { cliEnv, runCli, tempDir } from './helpers/process.js';

/** Every entry below `dir` with its permission bits. */
function walk(dir: string): Array<{ path: string; mode: number; directory: boolean }> {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    const here = { path, mode: statSync(path).mode & 0o777, directory: entry.isDirectory() };
    return entry.isDirectory() ? [here, ...walk(path)] : [here];
  });
}

describe('the data directory is private (0700 folders, no file readable by others)', { timeout: 180_000 }, () => {
  const root = tempDir();
  afterAll(() => root.remove());

  it(`holds nothing group- or world-accessible after a first run (${testEngineKind()})`, async () => {
    const dataDir = join(root.path, 'nested', 'data');
    const database = testEngineKind() === 'postgres' ? await createEmptyDatabase(process.env.DATABASE_URL!) : undefined;
    try {
      const result = await runCli(['project', 'create', '--name', 'Modes'], cliEnv({ GATEHOUSE_DATA_DIR: dataDir, DATABASE_URL: database?.url }));
      expect(result.code, result.stderr).toBe(0);
    } finally {
      await database?.drop();
    }
    expect(statSync(dataDir).mode & 0o777).toBe(0o700);
    const entries = walk(dataDir);
    // The generated admin token and secret at least; with the embedded database, its files too.
    expect(entries.map((entry) => entry.path)).toEqual(expect.arrayContaining([join(dataDir, 'admin-token'), join(dataDir, 'secret')]));
    const open = entries.filter((entry) => (entry.mode & 0o077) !== 0).map((entry) => `${entry.path} ${entry.mode.toString(8)}`);
    expect(open).toEqual([]);
    for (const entry of entries) expect(entry.mode & 0o700, entry.path).toBe(entry.directory ? 0o700 : 0o600);
  });
});
