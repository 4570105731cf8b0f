import type { Lang, Texts } from '../projects/ui-texts.js';

/**
 * Texts that tell a person what happened and what to do next (issue 39): the note after a
 * password recovery, the signed-in page without an application, the
 * account menu, a step-up's reason and what to do when the proof given falls short. Merged into the built-in catalogue by `i18n.ts`; projects override them as any key.
 */
export const GUIDANCE: Record<Lang, Texts> = {
  en: {
    'ui.notice.password_changed': 'Your password was changed. Sign in with your new password.',
    'ui.signed_in.no_app': 'No application is waiting for this sign-in.',
    'ui.signed_in.next': 'Connect an application: docs/sdk.md',
    'ui.account.menu': 'Your account',
    'ui.step_up.stronger': "Confirm it's you with a stronger method. The page you came from needs more than your last sign-in.",
    'ui.step_up.recent': "Confirm it's you. Your last sign-in was too long ago for the page you came from.",
    'ui.step_up.short.title': 'This sign-in is not strong enough',
    'ui.step_up.short.passkey_totp': 'The page you came from needs a passkey, or your password together with an authenticator app. Add a passkey or an authenticator app to your account, then try again.',
    'ui.step_up.short.passkey': 'The page you came from needs a passkey. Add a passkey to your account, then try again.',
    'ui.step_up.short.totp': 'The page you came from needs your password together with an authenticator app. Add an authenticator app to your account, then try again.',
    'ui.step_up.short.none': 'The page you came from needs a stronger sign-in than this account offers. Ask the operator of the application for help.',
    'ui.step_up.try_again': 'Try again',
  },
  de: {
    'ui.notice.password_changed': 'Ihr Passwort wurde geändert. Melden Sie sich mit Ihrem neuen Passwort an.',
    'ui.signed_in.no_app': 'Auf diese Anmeldung wartet keine Anwendung.',
    'ui.signed_in.next': 'Eine Anwendung anbinden: docs/sdk.md',
    'ui.account.menu': 'Ihr Konto',
    'ui.step_up.stronger': 'Bestätigen Sie mit einer stärkeren Methode, dass Sie es sind. Die Seite, von der Sie kommen, verlangt mehr als Ihre letzte Anmeldung.',
    'ui.step_up.recent': 'Bestätigen Sie, dass Sie es sind. Ihre letzte Anmeldung liegt für die Seite, von der Sie kommen, zu lange zurück.',
    'ui.step_up.short.title': 'Diese Anmeldung reicht nicht aus',
    'ui.step_up.short.passkey_totp': 'Die Seite, von der Sie kommen, verlangt einen Passkey oder Ihr Passwort zusammen mit einer Authenticator-App. Fügen Sie Ihrem Konto einen Passkey oder eine Authenticator-App hinzu und versuchen Sie es dann erneut.',
    'ui.step_up.short.passkey': 'Die Seite, von der Sie kommen, verlangt einen Passkey. Fügen Sie Ihrem Konto einen Passkey hinzu und versuchen Sie es dann erneut.',
    'ui.step_up.short.totp': 'Die Seite, von der Sie kommen, verlangt Ihr Passwort zusammen mit einer Authenticator-App. Fügen Sie Ihrem Konto eine Authenticator-App hinzu und versuchen Sie es dann erneut.',
    'ui.step_up.short.none': 'Die Seite, von der Sie kommen, verlangt eine stärkere Anmeldung, als dieses Konto bietet. Wenden Sie sich an den Betreiber der Anwendung.',
    'ui.step_up.try_again': 'Erneut versuchen',
  },
};
