import type { ConsoleTexts } from './texts.js';

/** The texts of the console's clients pages (./routes.clients.ts). */
export const CLIENTS_TEXTS: ConsoleTexts = {
  en: {
    'console.clients.oauth.title': 'OAuth clients',
    'console.clients.sso.title': 'SSO providers',
  },
  de: {
    'console.clients.oauth.title': 'OAuth-Clients',
    'console.clients.sso.title': 'SSO-Anbieter',
  },
};
