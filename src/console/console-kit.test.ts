import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/helpers/app.js';
import { consoleBrowser } from './console-test-kit.js';
import { mergeTexts } from './text-table.js';
import { CONSOLE_TEXTS } from './texts.js';

const ORIGIN = 'http://localhost';

describe('console test kit', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ publicUrl: ORIGIN });
  });
  afterAll(async () => t.close());

  it('signs a new instance admin in to the console', async () => {
    const browser = await consoleBrowser(t, [{ role: 'instance_admin' }], ORIGIN);
    const home = await browser.get('/console');
    expect(home.statusCode).toBe(200);
    expect(home.body).toContain(browser.userId);
    expect((await browser.post('/console/projects', { name: 'Kit' })).statusCode).toBe(201);
  });

  it('ends the console when the operator\'s Gatehouse session is revoked, and refreshes it while the session lives', async () => {
    const browser = await consoleBrowser(t, [{ role: 'instance_admin' }], ORIGIN);
    t.clock.advance(5 * 60 * 1000);
    const refreshed = await browser.get('/console');
    expect(refreshed.statusCode).toBe(200);
    const cookie = refreshed.cookies.filter((c) => c.name === '_zconsole').map((c) => `${c.name}=${c.value}`).join('; ');
    expect(cookie).not.toBe('');
    const revoked = await t.app.inject({ method: 'DELETE', url: `/sessions/${browser.sessionId}`, headers: { authorization: `Bearer ${t.adminToken}` } });
    expect(revoked.statusCode).toBe(204);
    const after = await t.app.inject({ method: 'GET', url: '/console', headers: { cookie } });
    expect(after.statusCode).toBe(303);
    expect(new URL(String(after.headers.location)).pathname).toBe('/auth/authorize');
  });

  it('refreshes once per request: a form refused after the expiry renders, and the renewed cookie keeps working', async () => {
    const browser = await consoleBrowser(t, [{ role: 'instance_admin' }], ORIGIN);
    const project = await t.createProject('Refreshed');
    t.clock.advance(5 * 60 * 1000);
    // The refused form renders the page again: both ask for the operator in the same request.
    const refused = await browser.post(`/console/projects/${project.id}/settings/general`, { name: 'Refreshed', preview_origins: 'not an origin' });
    expect(refused.statusCode).toBe(400);
    const cookie = refused.cookies.filter((c) => c.name === '_zconsole').map((c) => `${c.name}=${c.value}`).join('; ');
    expect((await t.app.inject({ method: 'GET', url: '/console', headers: { cookie } })).statusCode).toBe(200);
  });

  it('has every console text in English and German, and refuses a key defined twice', () => {
    expect(Object.keys(CONSOLE_TEXTS.de).sort()).toEqual(Object.keys(CONSOLE_TEXTS.en).sort());
    for (const [key, text] of Object.entries(CONSOLE_TEXTS.de)) expect(text.trim(), key).not.toBe('');
    expect(() => mergeTexts({ en: { 'console.a': 'A' }, de: { 'console.a': 'A' } }, [{ en: { 'console.a': 'B' }, de: {} }])).toThrow(/console\.a/);
  });

  it('reaches the data only through the API: its imports outside src/console are the allowed helpers', () => {
    // The console's own access (its OAuth client, set-up links) and page helpers; never a store or a domain service.
    const allowed = [/^ui\//, /^core\//, /^http\/(cookies|csrf)\.ts$/, /^flows\/settings\/service\.ts$/, /^projects\/ui-texts\.ts$/, /^operators\/console-access\.ts$/, /^config\.ts$/];
    const root = resolve(import.meta.dirname, '..');
    const files = readdirSync(import.meta.dirname, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts') && !f.endsWith('test-kit.ts'));
    const outside: string[] = [];
    for (const file of files) {
      const path = join(import.meta.dirname, file);
      for (const [, target] of readFileSync(path, 'utf8').matchAll(/from '(\.[^']+)'/g)) {
        const named = relative(root, resolve(path, '..', target)).replace(/\.js$/, '.ts');
        if (!named.startsWith('console/') && !allowed.some((rule) => rule.test(named))) outside.push(`${file} -> ${named}`);
      }
    }
    expect(files.length).toBeGreaterThan(10);
    expect(outside).toEqual([]);
  });

  it('makes every preformatted block reachable by keyboard (it scrolls sideways when a line is long: axe scrollable-region-focusable)', () => {
    const unreachable: string[] = [];
    for (const file of readdirSync(join(import.meta.dirname, 'pages'))) {
      for (const [tag] of readFileSync(join(import.meta.dirname, 'pages', file), 'utf8').matchAll(/<pre\b[^>]*>/g)) if (!tag.includes('tabindex="0"')) unreachable.push(`${file}: ${tag}`);
    }
    expect(unreachable).toEqual([]);
  });
});
