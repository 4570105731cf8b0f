import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The Node.js flags of package.json's start script (`exec node <flags> dist/cli/main.js serve`):
 * what a deployment runs, so every server the bench measures starts with them.
 */
export function startScriptNodeFlags(root: string): string[] {
  const start: string = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).scripts.start;
  const shape = /^exec node((?: --[\w-]+(?:=\S+)?)*) dist\/cli\/main\.js serve$/.exec(start);
  if (!shape) throw new Error(`bench: package.json's start script is not "exec node [flags] dist/cli/main.js serve" any more: ${start}`);
  return shape[1].split(' ').filter((flag) => flag.length > 0);
}
