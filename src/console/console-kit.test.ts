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

  it('has every console text in English and German, and refuses a key defined twice', () => {
    expect(Object.keys(CONSOLE_TEXTS.de).sort()).toEqual(Object.keys(CONSOLE_TEXTS.en).sort());
    for (const [key, text] of Object.entries(CONSOLE_TEXTS.de)) expect(text.trim(), key).not.toBe('');
    expect(() => mergeTexts({ en: { 'console.a': 'A' }, de: { 'console.a': 'A' } }, [{ en: { 'console.a': 'B' }, de: {} }])).toThrow(/console\.a/);
  });
});
