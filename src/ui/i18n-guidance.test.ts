import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { LANGS } from '../projects/ui-texts.js';
import { GUIDANCE } from './i18n-guidance.js';
import { hasBuiltInText, translator } from './i18n.js';

describe('the page texts of src/ui', () => {
  it('has every `ui.*` key a page of src/ui names, in English and German', () => {
    const dir = new URL('.', import.meta.url).pathname;
    const keys = new Set<string>();
    for (const file of readdirSync(dir).filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts') && !name.includes('test-kit'))) {
      // Whole keys only: a key built from a variable (`step.${name}.title`) is the definitions' business.
      for (const match of readFileSync(`${dir}/${file}`, 'utf8').matchAll(/'(ui\.[a-z_]+(?:\.[a-z_]+)*)'/g)) if (!/\.(js|css)$/.test(match[1])) keys.add(match[1]);
    }
    expect([...keys]).toEqual(expect.arrayContaining(['ui.notice.password_changed', 'ui.signed_in.next', 'ui.account.menu', 'ui.back_to_sign_in']));
    for (const lang of LANGS) expect([...keys].filter((key) => !hasBuiltInText(lang, key)), lang).toEqual([]);
  });

  it('says the same things in both languages, each its own words', () => {
    expect(Object.keys(GUIDANCE.de).sort()).toEqual(Object.keys(GUIDANCE.en).sort());
    for (const key of Object.keys(GUIDANCE.en)) {
      expect(GUIDANCE.en[key].length, key).toBeGreaterThan(0);
      if (key !== 'ui.account.menu') expect(GUIDANCE.de[key], key).not.toBe(GUIDANCE.en[key]);
    }
    expect(translator('de')('ui.error.redirect_not_allowed')).toContain('flow_settings.redirect_uris');
    expect(translator('en')('ui.error.redirect_not_allowed')).toContain('flow_settings.redirect_uris');
  });
});
