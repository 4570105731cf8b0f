import { describe, expect, it } from 'vitest';
import type { AuthMethod } from '../flows/methods/declaration.js';
import { METHODS, methodTexts, registerMethod } from '../flows/methods/registry.js';
import { LANGS } from '../projects/ui-texts.js';
import { hasBuiltInText, translator, withMethodTexts } from './i18n.js';

/** The texts each method keeps in its folder (`AuthMethod.texts`), as the hosted UI's catalogue sees them. */
describe('the methods\' own texts', () => {
  it('say the same keys in every language, and the catalogue and translator find them', () => {
    const withTexts = METHODS.filter((method) => method.texts !== undefined);
    expect(withTexts.map((method) => method.name)).toEqual(expect.arrayContaining(['password', 'passkey', 'sso', 'settings']));
    for (const method of withTexts) {
      const keys = Object.keys(method.texts!.en).sort();
      expect(keys.length, method.name).toBeGreaterThan(0);
      for (const lang of LANGS) {
        expect(Object.keys(method.texts![lang]).sort(), `${method.name} ${lang}`).toEqual(keys);
        for (const key of keys) expect(hasBuiltInText(lang, key), `${method.name} ${lang} ${key}`).toBe(true);
      }
    }
    expect(translator('de')('field.password')).toBe('Passwort');
    expect(translator('en')('action.connect_sso', { name: 'GitHub' })).toBe('Connect GitHub');
    expect(translator('en')('ui.credential.recovery_code')).toBe('Recovery codes');
  });

  it('may not repeat a core key: the merge refuses it rather than change a shared text', () => {
    const core = { en: { 'action.back': 'Back' }, de: { 'action.back': 'Zurück' } };
    expect(withMethodTexts(core, (lang) => ({ 'field.pin': lang === 'en' ? 'PIN' : 'PIN-Nummer' })).de).toEqual({ 'action.back': 'Zurück', 'field.pin': 'PIN-Nummer' });
    expect(() => withMethodTexts(core, () => ({ 'action.back': 'Go back' }))).toThrow(/repeat core text keys.*action\.back/);
  });

  it('may not repeat another method\'s key: registration refuses the method', () => {
    const repeating: AuthMethod = { name: 'pin_texts_repeat', needsSchemaKey: true, texts: { en: { 'field.password': 'PIN' }, de: { 'field.password': 'PIN' } } };
    expect(() => registerMethod(repeating)).toThrow(/repeats text keys of a registered one: field\.password/);
    expect(METHODS).not.toContain(repeating);
    expect(translator('en')('field.password')).toBe('Password');
  });

  it('of a method registered after the catalogue was first read are seen (a plug-in, a test\'s method)', () => {
    expect(hasBuiltInText('en', 'field.pin_late')).toBe(false);
    registerMethod({ name: 'pin_texts_late', needsSchemaKey: true, texts: { en: { 'field.pin_late': 'PIN' }, de: { 'field.pin_late': 'Geheimzahl' } } });
    expect(methodTexts('de')['field.pin_late']).toBe('Geheimzahl');
    expect(hasBuiltInText('de', 'field.pin_late')).toBe(true);
    expect(translator('de')('field.pin_late')).toBe('Geheimzahl');
    expect(translator('de')('field.password')).toBe('Passwort');
  });
});
