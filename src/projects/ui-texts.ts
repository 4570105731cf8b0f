/**
 * The hosted UI's languages and a project's text overrides (project settings `ui.texts`), as the
 * project's settings hold them. The built-in texts and the translator live in `ui/i18n.ts`.
 */
export type Lang = 'en' | 'de';
export const LANGS: readonly Lang[] = ['en', 'de'];
export type Texts = Record<string, string>;

export const OVERRIDE_KEY = /^[a-z0-9_.-]{1,100}$/;

/** Per-project text overrides as stored in project settings (`ui.texts`), read leniently. */
export function overridesFrom(projectSettings: Record<string, unknown>): Partial<Record<Lang, Texts>> {
  const ui = projectSettings.ui as { texts?: unknown } | undefined;
  const texts = ui && typeof ui === 'object' ? ui.texts : undefined;
  const result: Partial<Record<Lang, Texts>> = {};
  if (!texts || typeof texts !== 'object') return result;
  for (const lang of LANGS) {
    const table = (texts as Record<string, unknown>)[lang];
    if (!table || typeof table !== 'object') continue;
    result[lang] = Object.fromEntries(Object.entries(table).filter(([k, v]) => OVERRIDE_KEY.test(k) && typeof v === 'string'));
  }
  return result;
}
