import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  // The SDK packages' tests run against their sources (no build needed while developing).
  resolve: {
    alias: {
      '@gatehouse/client': new URL('./packages/client/src/index.ts', import.meta.url).pathname,
      '@gatehouse/node': new URL('./packages/node/src/index.ts', import.meta.url).pathname,
    },
  },
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts', 'packages/*/src/**/*.test.ts', 'examples/*/src/**/*.test.ts'],
    // Builds the hosted UI's assets (dist/ui-assets) that the pages link to.
    // Migrates one embedded database whose image every PGlite test engine starts from.
    globalSetup: ['test/helpers/build-ui.ts', 'test/helpers/pglite-template.ts'],
    pool: 'forks',
    // Vitest's default is one worker fewer than the CPUs: one on a 2-core CI machine, so every
    // file waited for the one before while most of them wait on sockets, child processes and the
    // database. Two at least keep the suite under .ci/run's budget there (docs/development.md).
    maxWorkers: Math.max(2, availableParallelism() - 1),
    testTimeout: 60_000,
    hookTimeout: 60_000,
    reporters: ['default'],
  },
});
