import type { MethodTexts } from '../declaration.js';

/** E-mail codes' texts: the code field and the way back to the password from `login_code` (its other texts are shared). */
export const otpTexts: MethodTexts = {
  en: {
    'field.otp': 'Code or link from your e-mail',
    'action.use_password': 'Use my password instead',
  },
  de: {
    'field.otp': 'Code oder Link aus Ihrer E-Mail',
    'action.use_password': 'Stattdessen mein Passwort verwenden',
  },
};
