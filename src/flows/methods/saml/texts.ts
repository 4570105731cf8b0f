import type { MethodTexts } from '../declaration.js';

/** SAML's texts: the home-realm refusal, its credential, and the step linking an existing account. */
export const samlTexts: MethodTexts = {
  en: {
    'error.sso_required': 'Addresses of this organisation sign in with its single sign-on. Continue with your organisation\'s sign-in.',
    'ui.credential.saml': 'SAML single sign-on',
    'step.link_saml.title': 'Connect your account',
    'step.link_saml.description': 'An account with this e-mail address exists. Enter its password to connect your organisation\'s sign-in to it.',
  },
  de: {
    'error.sso_required': 'Adressen dieser Organisation melden sich über deren Single Sign-on an. Fahren Sie mit der Anmeldung Ihrer Organisation fort.',
    'ui.credential.saml': 'SAML-Single-Sign-on',
    'step.link_saml.title': 'Konto verbinden',
    'step.link_saml.description': 'Zu dieser E-Mail-Adresse gibt es bereits ein Konto. Geben Sie sein Passwort ein, um die Anmeldung Ihrer Organisation damit zu verbinden.',
  },
};
