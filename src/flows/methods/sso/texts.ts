import type { MethodTexts } from '../declaration.js';

/** Single sign-on's texts: its refusals, its action kind's texts (sign in, connect), its credential and the steps after an upstream return. */
export const ssoTexts: MethodTexts = {
  en: {
    'error.sso_failed': 'Signing in with that provider did not work. Try again, or use another way to sign in.',
    'error.sso_account_exists': 'An account with this e-mail address exists already. Sign in to it first, then connect the provider in your settings.',
    'error.sso_email_unverified': 'That provider has not confirmed your e-mail address. Confirm it there, or use another way to sign in.',
    'ui.credential.sso': 'Single sign-on',
    'action.sso': 'Continue with {name}',
    'action.connect_sso': 'Connect {name}',
    'step.after_sso.title': 'Checking your sign-in',
    'step.after_sso.description': '',
    'step.link_account.title': 'Connect your account',
    'step.link_account.description': 'An account with this e-mail address exists. Enter its password to connect the sign-in provider to it.',
  },
  de: {
    'error.sso_failed': 'Die Anmeldung über diesen Anbieter hat nicht geklappt. Versuchen Sie es erneut oder melden Sie sich anders an.',
    'error.sso_account_exists': 'Ein Konto mit dieser E-Mail-Adresse gibt es bereits. Melden Sie sich dort an und verbinden Sie den Anbieter dann in Ihren Einstellungen.',
    'error.sso_email_unverified': 'Dieser Anbieter hat Ihre E-Mail-Adresse nicht bestätigt. Bestätigen Sie sie dort, oder melden Sie sich anders an.',
    'ui.credential.sso': 'Single Sign-on',
    'action.sso': 'Weiter mit {name}',
    'action.connect_sso': '{name} verbinden',
    'step.after_sso.title': 'Anmeldung wird geprüft',
    'step.after_sso.description': '',
    'step.link_account.title': 'Konto verbinden',
    'step.link_account.description': 'Zu dieser E-Mail-Adresse gibt es bereits ein Konto. Geben Sie sein Passwort ein, um den Anmeldeanbieter damit zu verbinden.',
  },
};
