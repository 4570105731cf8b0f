import type { MethodTexts } from '../declaration.js';

/** The passkey's texts: its action kinds and the actions of those kinds in the default definitions, its refusal and its credential. */
export const passkeyTexts: MethodTexts = {
  en: {
    'action.passkey': 'Sign in with a passkey',
    'action.passkey_register': 'Create a passkey',
    'action.sign_in_with_passkey': 'Sign in with a passkey',
    'action.register_with_passkey': 'Sign up with a passkey',
    'action.add_passkey': 'Add a passkey',
    'error.passkey_invalid': 'The passkey could not be verified.',
    'ui.credential.passkey': 'Passkey',
  },
  de: {
    'action.passkey': 'Mit Passkey anmelden',
    'action.passkey_register': 'Passkey erstellen',
    'action.sign_in_with_passkey': 'Mit Passkey anmelden',
    'action.register_with_passkey': 'Mit Passkey registrieren',
    'action.add_passkey': 'Passkey hinzufügen',
    'error.passkey_invalid': 'Der Passkey konnte nicht geprüft werden.',
    'ui.credential.passkey': 'Passkey',
  },
};
