import type { MethodTexts } from '../declaration.js';

/** The authenticator app's texts: its field and its credential (the `totp` steps of login and settings share `step.totp.*`). */
export const totpTexts: MethodTexts = {
  en: {
    'field.totp': 'Code from your authenticator app',
    'ui.credential.totp': 'Authenticator app',
  },
  de: {
    'field.totp': 'Code aus Ihrer Authenticator-App',
    'ui.credential.totp': 'Authenticator-App',
  },
};
