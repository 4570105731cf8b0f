import type { MethodTexts } from '../declaration.js';

/** Recovery codes' texts: the field, the credential, the low-codes warning and the second-factor step to use one (and the way back to the app). */
export const recoveryCodeTexts: MethodTexts = {
  en: {
    'field.recovery_code': 'Recovery code',
    'ui.credential.recovery_code': 'Recovery codes',
    'warning.recovery_codes_low': 'You have few recovery codes left. Create new ones in your security settings.',
    'step.recovery_code.title': 'Use a recovery code',
    'step.recovery_code.description': 'Enter one of the recovery codes you saved. Each code works once.',
    'action.use_recovery_code': 'Use a recovery code instead',
    'action.use_totp': 'Use the authenticator app instead',
  },
  de: {
    'field.recovery_code': 'Wiederherstellungscode',
    'ui.credential.recovery_code': 'Wiederherstellungscodes',
    'warning.recovery_codes_low': 'Sie haben nur noch wenige Wiederherstellungscodes. Erstellen Sie neue in Ihren Sicherheitseinstellungen.',
    'step.recovery_code.title': 'Wiederherstellungscode verwenden',
    'step.recovery_code.description': 'Geben Sie einen Ihrer gespeicherten Wiederherstellungscodes ein. Jeder Code gilt einmal.',
    'action.use_recovery_code': 'Stattdessen einen Wiederherstellungscode verwenden',
    'action.use_totp': 'Stattdessen die Authenticator-App verwenden',
  },
};
