import { setFlagsFromString } from 'node:v8';

/**
 * How far the V8 old generation may grow past what survived the last full collection before the
 * next one, for `gatehouse serve` (GATEHOUSE_HEAP_GROWTH_PERCENT, docs/operations.md "Memory").
 *
 * Left to itself V8 picks a factor between 1.1 and 4 from how fast it collects against how fast
 * the process allocates. Under steady load that is near 4: with 60-75 MB live, the old generation
 * filled to 150-190 MB of garbage between full collections, and the resident memory followed it
 * (docs/performance.md, "Issue 38, fifth round"). Full collections here are mostly concurrent and
 * cost tens of milliseconds per tens of MB, so a small factor trades little CPU for a bounded peak.
 *
 * This flag, unlike the heap sizes, is read each time V8 sets the next limit, so the process can
 * set it for itself after it started (the sizes must be given on the command line; NODE_OPTIONS
 * does not accept this one at all).
 */
export type HeapGrowth =
  | { source: 'setting'; percent: number }
  | { source: 'command line'; flag: string }
  | { source: 'v8' };

const HEAP_GROWTH_FLAG = '--heap-growing-percent';
const SEMI_SPACE_FLAG = '--max-semi-space-size';

/**
 * The last occurrence of a V8 flag among node's arguments, as `--name=value` (V8 keeps the last
 * one, and reads - and _ alike in names), or undefined.
 */
function lastFlag(args: readonly string[], name: string): string | undefined {
  const index = args.findLastIndex((arg) => arg.split('=')[0].replace(/_/g, '-') === name);
  if (index < 0) return undefined;
  const arg = args[index];
  return arg.includes('=') ? arg : `${arg}=${args[index + 1] ?? ''}`;
}

export function applyHeapGrowth(percent: number, execArgv: readonly string[] = process.execArgv): HeapGrowth {
  // A flag given to node itself is the operator's explicit choice and wins over the setting.
  const given = lastFlag(execArgv, HEAP_GROWTH_FLAG);
  if (given) return { source: 'command line', flag: given };
  if (percent === 0) return { source: 'v8' };
  setFlagsFromString(`${HEAP_GROWTH_FLAG}=${percent}`);
  return { source: 'setting', percent };
}

/**
 * The young generation's bound this process was started with: the `--max-semi-space-size` of its
 * command line or of NODE_OPTIONS (V8 takes it only at start, so `serve` can report it, not set
 * it), or undefined when node sized it itself (16 MB semi-spaces on Node 20 and 22, 64 MB on
 * Node 24 on a machine with memory to spare).
 */
export function semiSpaceFlag(execArgv: readonly string[] = process.execArgv, nodeOptions: string | undefined = process.env.NODE_OPTIONS): string | undefined {
  // Node reads NODE_OPTIONS first and its command line after: the last one wins.
  return lastFlag([...(nodeOptions ?? '').split(/\s+/), ...execArgv], SEMI_SPACE_FLAG);
}
