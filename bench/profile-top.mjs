// Prints the functions with the most self time in a V8 .cpuprofile (from `npm run bench -- --cpu-prof <dir>`).
// Usage: node bench/profile-top.mjs <file.cpuprofile> [count]
import { readFileSync } from 'node:fs';

const [file, countArg] = process.argv.slice(2);
const profile = JSON.parse(readFileSync(file, 'utf8'));
const count = Number(countArg ?? 25);
const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const selfUs = new Map();
const deltas = profile.timeDeltas;
for (let i = 0; i < profile.samples.length; i++) {
  const id = profile.samples[i];
  selfUs.set(id, (selfUs.get(id) ?? 0) + (deltas[i] ?? 0));
}
const byFunction = new Map();
let total = 0;
for (const [id, us] of selfUs) {
  const { callFrame } = byId.get(id);
  const where = callFrame.url ? `${callFrame.url.replace(/^.*node_modules\//, '').replace(/^file:\/\/.*\/(src|dist)\//, '$1/')}:${callFrame.lineNumber + 1}` : '';
  const key = `${callFrame.functionName || '(anonymous)'} ${where}`;
  byFunction.set(key, (byFunction.get(key) ?? 0) + us);
  total += us;
}
const idle = [...byFunction].filter(([key]) => key.startsWith('(idle)')).reduce((sum, [, us]) => sum + us, 0);
console.log(`total ${(total / 1e6).toFixed(1)} s sampled, idle ${((100 * idle) / total).toFixed(1)} %`);
for (const [key, us] of [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, count)) {
  console.log(`${((100 * us) / total).toFixed(1).padStart(5)} %  ${key}`);
}
