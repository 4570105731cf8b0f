import { readFileSync } from 'node:fs';

/**
 * The package's name and version, read once from package.json, which sits two levels above both
 * `src/core` and `dist/core` (as the migrations directory does for `src/db` and `dist/db`).
 */
const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { name: string; version: string };

export const PACKAGE_NAME: string = pkg.name;
export const VERSION: string = pkg.version;
