import { describe, expect, it } from 'vitest';
import { pooledRandomBytes } from './random.js';

describe('pooledRandomBytes', () => {
  it('answers the length asked for, pooled or not', () => {
    for (const length of [0, 1, 12, 26, 32, 64, 65, 200]) expect(pooledRandomBytes(length)).toHaveLength(length);
  });

  it('never hands out the same bytes twice, across many pool refills', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 5000; i++) seen.add(pooledRandomBytes(26).toString('hex'));
    expect(seen.size).toBe(5000);
  });

  it('returns a copy: a later draw does not change bytes already handed out', () => {
    const first = pooledRandomBytes(32);
    const kept = Buffer.from(first);
    for (let i = 0; i < 300; i++) pooledRandomBytes(32);
    expect(first.equals(kept)).toBe(true);
  });

  it('looks uniform: every byte value turns up over 64 KiB of draws', () => {
    const counts = new Array<number>(256).fill(0);
    for (let i = 0; i < 2048; i++) for (const byte of pooledRandomBytes(32)) counts[byte]++;
    // 65536 bytes over 256 values: about 256 each; a stuck or zeroed pool would fail this at once.
    expect(Math.min(...counts)).toBeGreaterThan(150);
    expect(Math.max(...counts)).toBeLessThan(380);
  });
});
