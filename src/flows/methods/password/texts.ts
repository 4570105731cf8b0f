import type { MethodTexts } from '../declaration.js';

/** The password's texts: its field, its credential in the settings list, its policy refusal and the way to recovery its steps offer. */
export const passwordTexts: MethodTexts = {
  en: {
    'field.password': 'Password',
    'ui.credential.password': 'Password',
    'error.password_policy': 'This password is too weak or too common. Choose a longer one.',
    'action.forgot_password': 'Forgot your password?',
  },
  de: {
    'field.password': 'Passwort',
    'ui.credential.password': 'Passwort',
    'error.password_policy': 'Dieses Passwort ist zu schwach oder zu verbreitet. Wählen Sie ein längeres.',
    'action.forgot_password': 'Passwort vergessen?',
  },
};
