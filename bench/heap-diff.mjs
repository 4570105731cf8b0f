// Compares two V8 heap snapshots (`npm run bench -- --heap-snapshots <dir>` writes one after the
// soak's first minute and one before its end): what the heap holds by constructor (objects) or
// by kind (strings, code, arrays, closures by function name), with the growth between the two.
//   node bench/heap-diff.mjs <first.heapsnapshot> <second.heapsnapshot> [rows=25]
import { readFileSync } from 'node:fs';

function summarise(path) {
  const snapshot = JSON.parse(readFileSync(path, 'utf8'));
  const meta = snapshot.snapshot.meta;
  const fields = meta.node_fields;
  const types = meta.node_types[0];
  const width = fields.length;
  const typeAt = fields.indexOf('type');
  const nameAt = fields.indexOf('name');
  const sizeAt = fields.indexOf('self_size');
  const { nodes, strings } = snapshot;
  const groups = new Map();
  let total = 0;
  for (let i = 0; i < nodes.length; i += width) {
    const type = types[nodes[i + typeAt]];
    // Objects and closures group by their constructor or function name; everything else by kind,
    // since a string's "name" is its content.
    const key = type === 'object' || type === 'closure' ? `${type} ${strings[nodes[i + nameAt]]}` : `(${type})`;
    const size = nodes[i + sizeAt];
    const group = groups.get(key) ?? { count: 0, bytes: 0 };
    group.count++;
    group.bytes += size;
    groups.set(key, group);
    total += size;
  }
  return { groups, total, nodes: nodes.length / width };
}

const [first, second, rows = '25'] = process.argv.slice(2);
if (!first || !second) {
  console.error('usage: node bench/heap-diff.mjs <first.heapsnapshot> <second.heapsnapshot> [rows]');
  process.exit(2);
}
const a = summarise(first);
const b = summarise(second);
const mb = (bytes) => (bytes / 1048576).toFixed(2);
console.log(`heap (self sizes): ${mb(a.total)} MB in ${a.nodes} nodes -> ${mb(b.total)} MB in ${b.nodes} nodes (${b.total >= a.total ? '+' : ''}${mb(b.total - a.total)} MB)`);
const keys = new Set([...a.groups.keys(), ...b.groups.keys()]);
const diff = [...keys].map((key) => {
  const before = a.groups.get(key) ?? { count: 0, bytes: 0 };
  const after = b.groups.get(key) ?? { count: 0, bytes: 0 };
  return { key, before, after, growth: after.bytes - before.bytes };
});
const table = (title, list) => {
  console.log(`\n${title}`);
  console.log('     MB before    MB after      growth   count before   count after  what');
  for (const row of list.slice(0, Number(rows))) {
    console.log(`${mb(row.before.bytes).padStart(12)}${mb(row.after.bytes).padStart(12)}${((row.growth >= 0 ? '+' : '') + mb(row.growth)).padStart(12)}${String(row.before.count).padStart(15)}${String(row.after.count).padStart(14)}  ${row.key.slice(0, 80)}`);
  }
};
table('largest growth', [...diff].sort((x, y) => y.growth - x.growth));
table('largest at the second snapshot', [...diff].sort((x, y) => y.after.bytes - x.after.bytes));
