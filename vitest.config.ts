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
    // Migrates one database whose copy every test engine starts from (PGlite: an image; PostgreSQL:
    // a template database).
    globalSetup: ['test/helpers/build-ui.ts', 'test/helpers/pglite-template.ts', 'test/helpers/postgres-template.ts'],
    pool: 'forks',
    // Vitest's own default is one worker fewer than the cores: on a 2-core machine, one
    // file at a time while most files wait on a database, a socket or a browser. Two workers there
    // took the PGlite pass from 951 to 727 s; the PostgreSQL pass ran in 479 s (docs/development.md).
    maxWorkers: Math.max(2, availableParallelism() - 1),
    testTimeout: 60_000,
    hookTimeout: 60_000,
    reporters: ['default'],
  },
});
