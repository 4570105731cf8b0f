import type { Lang } from '../projects/ui-texts.js';

/** A table of console texts per language (`console.*` keys). */
export type ConsoleTexts = Record<Lang, Record<string, string>>;

/**
 * The core texts with each page group's own (`texts.<group>.ts`). A group's key must be new: the
 * merge refuses one that repeats a key, so no group changes another's text.
 */
export function mergeTexts(core: ConsoleTexts, groups: ConsoleTexts[]): ConsoleTexts {
  const merged: ConsoleTexts = { en: { ...core.en }, de: { ...core.de } };
  for (const group of groups) {
    for (const lang of ['en', 'de'] as const) {
      for (const [key, text] of Object.entries(group[lang])) {
        if (Object.hasOwn(merged[lang], key)) throw new Error(`console text ${key} (${lang}) is defined twice`);
        merged[lang][key] = text;
      }
    }
  }
  return merged;
}
