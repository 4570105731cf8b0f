import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { applyHeapGrowth, semiSpaceFlag } from './heap-growth.js';

const CHURN = fileURLToPath(new URL('./test-heap-churn.ts', import.meta.url));

/** Runs the churn as `npm start` runs the server: its young generation bounded (on Node 24 node's own would raise the old one's limit by 128 MB). */
function churn(percent: number, nodeFlags: string[] = []): { applied: unknown; largestOldMb: number } {
  const child = spawnSync(process.execPath, ['--max-semi-space-size=8', ...nodeFlags, '--import', 'tsx', CHURN, String(percent)], { encoding: 'utf8', timeout: 60_000 });
  expect(child.status, child.stderr).toBe(0);
  return JSON.parse(child.stdout);
}

describe('heap growth (GATEHOUSE_HEAP_GROWTH_PERCENT)', () => {
  it('keeps the old generation close to the live data, where V8 alone lets garbage pile up', () => {
    const bounded = churn(15);
    const unbounded = churn(0);
    expect(bounded.applied).toEqual({ source: 'setting', percent: 15 });
    expect(unbounded.applied).toEqual({ source: 'v8' });
    // Measured: 83-84 MB against 190 on Node 20, 88-90 against 153-154 on 22, 88-91 against 171-172 on 24.
    // A ratio, so a slow machine moves both.
    expect(bounded.largestOldMb).toBeLessThan(unbounded.largestOldMb * 0.75);
  });

  it('leaves a flag given to node itself in charge', () => {
    const given = churn(15, ['--heap-growing-percent=300']);
    expect(given.applied).toEqual({ source: 'command line', flag: '--heap-growing-percent=300' });
    expect(applyHeapGrowth(15, ['--heap_growing_percent', '40'])).toEqual({ source: 'command line', flag: '--heap_growing_percent=40' });
    // V8 keeps the last of a repeated flag, and so does the report.
    expect(applyHeapGrowth(15, ['--heap-growing-percent=300', '--heap-growing-percent=50'])).toEqual({ source: 'command line', flag: '--heap-growing-percent=50' });
  });

  it("reports the young generation's bound from the command line or NODE_OPTIONS, the last one winning", () => {
    expect(semiSpaceFlag([], undefined)).toBeUndefined();
    expect(semiSpaceFlag(['--enable-source-maps'], '--max-old-space-size=512')).toBeUndefined();
    expect(semiSpaceFlag(['--max-semi-space-size=8'], undefined)).toBe('--max-semi-space-size=8');
    expect(semiSpaceFlag([], ' --max-semi-space-size=16 ')).toBe('--max-semi-space-size=16');
    expect(semiSpaceFlag(['--max_semi_space_size', '4'], undefined)).toBe('--max_semi_space_size=4');
    // NODE_OPTIONS is read before the command line, so the command line's value is the one V8 keeps.
    expect(semiSpaceFlag(['--max-semi-space-size=32'], '--max-semi-space-size=8')).toBe('--max-semi-space-size=32');
  });
});
