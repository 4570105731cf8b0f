import type { ConsoleTexts } from './texts.js';

/** The texts of the console's model pages (./routes.model.ts). */
export const MODEL_TEXTS: ConsoleTexts = {
  en: {
    'console.model.teams.title': 'Teams',
    'console.model.schemas.title': 'User schemas',
    'console.model.flows.title': 'Flow definitions',
  },
  de: {
    'console.model.teams.title': 'Teams',
    'console.model.schemas.title': 'Benutzerschemas',
    'console.model.flows.title': 'Flow-Definitionen',
  },
};
