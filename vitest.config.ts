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
    testTimeout: 60_000,
    hookTimeout: 60_000,
    reporters: ['default'],
  },
});
