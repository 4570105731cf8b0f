// Bundles the hosted UI's browser script and stylesheet into dist/ui-assets (npm run build,
// npm test and the vitest global setup call it). esbuild is a devDependency: nothing is downloaded.
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

export async function buildUi() {
  await build({
    absWorkingDir: root,
    entryPoints: { ui: 'src/ui/client/main.ts', 'ui-style': 'src/ui/client/style.css' },
    outdir: 'dist/ui-assets',
    bundle: true,
    minify: true,
    format: 'esm',
    target: ['es2020', 'chrome100', 'firefox100', 'safari15'],
    legalComments: 'none',
    logLevel: 'warning',
  });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await buildUi();
