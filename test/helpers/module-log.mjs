// Started with `node --import` (NODE_OPTIONS): appends the URL of every module the ESM loader
// loads to the file named by MODULE_LOG_FILE (test/lazy-modules.test.ts).
import { register } from 'node:module';

register(new URL('./module-log-hooks.mjs', import.meta.url), { data: { file: process.env.MODULE_LOG_FILE } });
