// Run as a child by heap-growth.test.ts: `node --import tsx test-heap-churn.ts <percent>`.
// Keeps a bounded live set (a full cache, like the session and profile caches under load) while
// allocating short-lived garbage, some of which lives long enough to be promoted; prints the
// largest old generation seen (the young one's size is node's choice: 32 MB on Node 20, 128 on 24)
// and what was applied.
import { getHeapSpaceStatistics } from 'node:v8';
import { applyHeapGrowth } from './heap-growth.js';

const applied = applyHeapGrowth(Number(process.argv[2]));
const base = Array.from({ length: 400_000 }, (_, i) => ({ key: `entry-${i}`, pair: [i, i + 1] }));
const cache: unknown[] = new Array(20_000).fill(null);
let largestOld = 0;
for (let round = 0; round < 3000; round++) {
  for (let i = 0; i < 200; i++) cache[(round * 200 + i) % cache.length] = { text: `value-${round}-${i}`, list: new Array(16).fill(round) };
  const shortLived: object[] = [];
  for (let i = 0; i < 3000; i++) shortLived.push({ i });
  if (round % 10 === 0) largestOld = Math.max(largestOld, getHeapSpaceStatistics().find((space) => space.space_name === 'old_space')!.space_size);
}
// `live` reads the live set at the end, so none of it becomes garbage before the last measurement.
process.stdout.write(JSON.stringify({ applied, largestOldMb: largestOld / 2 ** 20, live: base.length + cache.length }));
