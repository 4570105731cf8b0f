import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** Built by scripts/build-ui.mjs; `src/ui` and `dist/ui` both sit two levels below the root. */
const ASSET_DIR = fileURLToPath(new URL('../../dist/ui-assets/', import.meta.url));

export interface Asset {
  body: Buffer;
  type: string;
}

export interface UiAssets {
  /** URL path of the stylesheet and the script (content-hashed names) */
  css: string;
  js?: string;
  byName: Map<string, Asset>;
}

const SOURCES = [
  { file: 'ui-style.css', stem: 'ui', ext: 'css', type: 'text/css; charset=utf-8' },
  { file: 'ui.js', stem: 'ui', ext: 'js', type: 'text/javascript; charset=utf-8' },
];

/**
 * Loads the built assets once and names them by content hash, so they can be cached for a year
 * (`immutable`): a new build gets new names. A missing build leaves the pages working without
 * script and with the browser's default look.
 */
export function loadAssets(): UiAssets {
  const byName = new Map<string, Asset>();
  const urls: Record<string, string> = {};
  for (const source of SOURCES) {
    const path = `${ASSET_DIR}${source.file}`;
    if (!existsSync(path)) continue;
    const body = readFileSync(path);
    const name = `${source.stem}.${createHash('sha256').update(body).digest('hex').slice(0, 12)}.${source.ext}`;
    byName.set(name, { body, type: source.type });
    urls[source.ext] = `/ui/assets/${name}`;
  }
  return { css: urls.css ?? '/ui/assets/missing.css', js: urls.js, byName };
}
