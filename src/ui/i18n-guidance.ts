import type { Lang, Texts } from '../projects/ui-texts.js';

/**
 * Texts that tell a person what happened and what to do next (issue 39): the note after a
 * password recovery, the signed-in page without an application, the
 * account menu. Merged into the built-in catalogue by `i18n.ts`; projects override them as any key.
 */
export const GUIDANCE: Record<Lang, Texts> = {
  en: {
    'ui.notice.password_changed': 'Your password was changed. Sign in with your new password.',
    'ui.signed_in.no_app': 'No application is waiting for this sign-in.',
    'ui.signed_in.next': 'Connect an application: docs/sdk.md',
    'ui.account.menu': 'Your account',
  },
  de: {
    'ui.notice.password_changed': 'Ihr Passwort wurde geändert. Melden Sie sich mit Ihrem neuen Passwort an.',
    'ui.signed_in.no_app': 'Auf diese Anmeldung wartet keine Anwendung.',
    'ui.signed_in.next': 'Eine Anwendung anbinden: docs/sdk.md',
    'ui.account.menu': 'Ihr Konto',
  },
};
