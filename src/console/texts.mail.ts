import type { ConsoleTexts } from './texts.js';

/** The texts of the console's mail pages (./routes.mail.ts). */
export const MAIL_TEXTS: ConsoleTexts = {
  en: {
    'console.mail.templates.title': 'Mail templates',
    'console.mail.branding.title': 'Branding',
  },
  de: {
    'console.mail.templates.title': 'Mail-Vorlagen',
    'console.mail.branding.title': 'Erscheinungsbild',
  },
};
