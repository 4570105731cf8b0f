import type { MethodTexts } from '../declaration.js';

/** Recovery by mail's texts: the code field and the steps of the `recovery` definition only it has (the `code` step's texts are shared with e-mail codes). */
export const recoveryTexts: MethodTexts = {
  en: {
    'field.code': 'Code',
    'step.request.title': 'Reset your password',
    'step.request.description': 'We will send a code to your e-mail address if an account exists.',
    'step.new_password.title': 'Choose a new password',
    'step.new_password.description': '',
    'action.send_code': 'Send code',
  },
  de: {
    'field.code': 'Code',
    'step.request.title': 'Passwort zurücksetzen',
    'step.request.description': 'Wenn ein Konto existiert, senden wir einen Code an Ihre E-Mail-Adresse.',
    'step.new_password.title': 'Neues Passwort wählen',
    'step.new_password.description': '',
    'action.send_code': 'Code senden',
  },
};
