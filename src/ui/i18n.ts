/**
 * Text keys of the hosted UI (docs/flows.md "Text keys" plus the page's own `ui.*` keys) in English
 * and German. A project may override any key per language (project settings `ui.texts`).
 */
export type Lang = 'en' | 'de';
export const LANGS: readonly Lang[] = ['en', 'de'];
export type Texts = Record<string, string>;

const en: Texts = {
  'step.identify.title': 'Sign in',
  'step.identify.description': 'Enter your e-mail address to continue.',
  'step.password.title': 'Enter your password',
  'step.password.description': '',
  'step.register.title': 'Create your account',
  'step.register.description': '',
  'step.request.title': 'Reset your password',
  'step.request.description': 'We will send a code to your e-mail address if an account exists.',
  'step.code.title': 'Check your e-mail',
  'step.code.description': 'Enter the code we sent you.',
  'step.new_password.title': 'Choose a new password',
  'step.new_password.description': '',
  'step.done.title': 'Done',
  'step.done.description': 'All set. You can now sign in.',
  'field.email': 'E-mail address',
  'field.password': 'Password',
  'field.code': 'Code',
  'field.name.given': 'First name',
  'field.name.family': 'Last name',
  'action.continue': 'Continue',
  'action.sign_up': 'Create an account',
  'action.forgot_password': 'Forgot your password?',
  'action.sign_in': 'Sign in',
  'action.create_account': 'Create account',
  'action.sign_in_instead': 'I already have an account',
  'action.send_code': 'Send code',
  'action.verify_code': 'Verify code',
  'action.resend_code': 'Send a new code',
  'action.save_password': 'Save password',
  'action.passkey': 'Sign in with a passkey',
  'action.passkey_register': 'Create a passkey',
  'action.sign_in_with_passkey': 'Sign in with a passkey',
  'action.register_with_passkey': 'Sign up with a passkey',
  'error.required': 'This field is required.',
  'error.invalid_type': 'This value has the wrong type.',
  'error.too_long': 'This value is too long.',
  'error.invalid_email': 'Enter a valid e-mail address.',
  'error.invalid_code': 'Enter the code as digits.',
  'error.code_exhausted': 'This code was tried too often. Ask for a new code.',
  'error.sso_failed': 'Signing in with that provider did not work. Try again, or use another way to sign in.',
  'error.sso_account_exists': 'An account with this e-mail address exists already. Sign in to it first, then connect the provider in your settings.',
  'error.invalid_characters': 'This value contains characters that are not allowed.',
  'error.unknown_field': 'This field is not expected here.',
  'error.invalid': 'This value is not valid.',
  'error.invalid_credentials': 'The e-mail address or password is wrong.',
  'error.user_already_exists': 'An account with these details already exists.',
  'error.password_policy': 'This password is too weak or too common. Choose a longer one.',
  'error.captcha_required': 'Please complete the check that you are human.',
  'error.captcha_invalid': 'The human check failed. Please try again.',
  'error.captcha_expired': 'The human check expired. Please try again.',
  'error.captcha_replayed': 'The human check was already used. Please try again.',
  'error.passkey_invalid': 'The passkey could not be verified.',
  'ui.captcha': 'Human check',
  'ui.captcha_hint': 'Your browser solves a small puzzle. Without JavaScript, paste the solution here.',
  'ui.captcha_solving': 'Checking your browser…',
  'ui.captcha_done': 'Check complete.',
  'ui.passkey_needs_js': 'Passkeys need a browser with JavaScript enabled.',
  'ui.errors_title': 'Please correct the following:',
  'ui.signed_in.title': 'You are signed in',
  'ui.signed_in.description': 'You can close this window or return to the application.',
  'ui.sign_out': 'Sign out',
  'ui.manage_account': 'Manage sign-in methods',
  'ui.logout.title': 'Sign out?',
  'ui.logout.description': 'An application asks to sign you out of this device.',
  'ui.signed_out.title': 'You are signed out',
  'ui.signed_out.description': 'Your session on this device has ended.',
  'ui.credential.password': 'Password',
  'ui.credential.passkey': 'Passkey',
  'ui.credential.totp': 'Authenticator app',
  'ui.credential.recovery_code': 'Recovery codes',
  'ui.credential.sso': 'Single sign-on',
  'ui.credential.since': 'added',
  'ui.back_to_sign_in': 'Back to sign in',
  'ui.restart': 'Start again',
  'ui.error.title': 'Something went wrong',
  'ui.error.project_missing': 'This link is incomplete or damaged: it names no valid project.',
  'ui.error.project_not_found': 'This sign-in page does not exist.',
  'ui.error.purpose_unknown': 'This kind of page is not available for this application.',
  'ui.error.redirect_not_allowed': 'The application asked to return to an address that is not allowed.',
  'ui.error.return_invalid': 'The application link is not valid.',
  'ui.error.flow_gone': 'This page has expired or was opened in another window. Please start again.',
  'ui.error.cross_site': 'This form was sent from another site and was refused. Please start again.',
  'ui.error.rate_limited': 'Too many attempts. Please wait a moment and try again.',
  'ui.error.invalid_request': 'The request could not be understood. Please start again.',
  'ui.error.internal': 'An unexpected error occurred. Please try again later.',
  'ui.settings.sign_in_first': 'Please sign in to change your settings.',
  'ui.settings.unavailable': 'Account settings are not available for this application yet.',
  'ui.link.title': 'Check your other window',
  'ui.link.description': 'Type the code from the e-mail into the window where you started signing in.',
  'ui.language': 'Language',
  'ui.sso_with': 'Continue with {name}',
  'ui.or': 'or',
  'action.sso': 'Continue with {name}',
  'action.connect_sso': 'Connect {name}',
  'step.link_account.title': 'Connect your account',
  'step.link_account.description': 'An account with this e-mail address exists. Enter its password to connect the sign-in provider to it.',
  'step.totp.title': 'Authenticator app',
  'step.totp.description': 'Enter the 6-digit code your authenticator app shows. Setting it up? Scan the QR code or type the key into the app first.',
  'step.recovery_code.title': 'Use a recovery code',
  'step.recovery_code.description': 'Enter one of the recovery codes you saved. Each code works once.',
  'step.check.title': 'Checking your sign-in',
  'step.check.description': '',
  'step.reauthenticate.title': 'Confirm it is you',
  'step.reauthenticate.description': 'Your last sign-in was a while ago. Confirm it before changing your sign-in methods.',
  'step.menu.title': 'Sign-in and security',
  'step.menu.description': 'Manage how you sign in.',
  'step.confirm_removal.title': 'Remove your last second factor?',
  'step.confirm_removal.description': 'Without it, your password alone protects your account. Enter your password to confirm.',
  'step.recovery_codes.title': 'New recovery codes',
  'step.recovery_codes.description': 'New codes replace all earlier ones.',
  'step.recovery_codes_shown.title': 'Save your recovery codes',
  'step.recovery_codes_shown.description': 'Store these codes somewhere safe. They are shown only once, and each works once.',
  'field.totp': 'Code from your authenticator app',
  'field.recovery_code': 'Recovery code',
  'field.credential_id': 'Sign-in method to remove',
  'action.add_passkey': 'Add a passkey',
  'action.back': 'Back',
  'action.change_password': 'Change password',
  'action.confirm': 'Confirm',
  'action.enable_totp': 'Turn on',
  'action.finish': 'Done',
  'action.generate_recovery_codes': 'Create new codes',
  'action.new_recovery_codes': 'New recovery codes',
  'action.remove_credential': 'Remove',
  'action.setup_totp': 'Set up an authenticator app',
  'action.use_recovery_code': 'Use a recovery code instead',
  'action.use_totp': 'Use the authenticator app instead',
  'error.last_credential': 'This is your only way to sign in; add another before removing it.',
  'error.unknown_credential': 'There is no such sign-in method on your account.',
  'warning.recovery_codes_low': 'You have few recovery codes left. Create new ones in your security settings.',
  'action.email_me_a_code': 'E-mail me a code',
  'action.use_password': 'Use my password instead',
  'field.otp': 'Code or link from your e-mail',
  'ui.totp_qr': 'QR code for your authenticator app',
};

const de: Texts = {
  'step.identify.title': 'Anmelden',
  'step.identify.description': 'Geben Sie Ihre E-Mail-Adresse ein, um fortzufahren.',
  'step.password.title': 'Passwort eingeben',
  'step.password.description': '',
  'step.register.title': 'Konto erstellen',
  'step.register.description': '',
  'step.request.title': 'Passwort zurücksetzen',
  'step.request.description': 'Wenn ein Konto existiert, senden wir einen Code an Ihre E-Mail-Adresse.',
  'step.code.title': 'E-Mail prüfen',
  'step.code.description': 'Geben Sie den Code ein, den wir Ihnen gesendet haben.',
  'step.new_password.title': 'Neues Passwort wählen',
  'step.new_password.description': '',
  'step.done.title': 'Fertig',
  'step.done.description': 'Alles erledigt. Sie können sich jetzt anmelden.',
  'field.email': 'E-Mail-Adresse',
  'field.password': 'Passwort',
  'field.code': 'Code',
  'field.name.given': 'Vorname',
  'field.name.family': 'Nachname',
  'action.continue': 'Weiter',
  'action.sign_up': 'Konto erstellen',
  'action.forgot_password': 'Passwort vergessen?',
  'action.sign_in': 'Anmelden',
  'action.create_account': 'Konto erstellen',
  'action.sign_in_instead': 'Ich habe bereits ein Konto',
  'action.send_code': 'Code senden',
  'action.verify_code': 'Code prüfen',
  'action.resend_code': 'Neuen Code senden',
  'action.save_password': 'Passwort speichern',
  'action.passkey': 'Mit Passkey anmelden',
  'action.passkey_register': 'Passkey erstellen',
  'action.sign_in_with_passkey': 'Mit Passkey anmelden',
  'action.register_with_passkey': 'Mit Passkey registrieren',
  'error.required': 'Dieses Feld ist erforderlich.',
  'error.invalid_type': 'Dieser Wert hat den falschen Typ.',
  'error.too_long': 'Dieser Wert ist zu lang.',
  'error.invalid_email': 'Geben Sie eine gültige E-Mail-Adresse ein.',
  'error.invalid_code': 'Geben Sie den Code als Ziffern ein.',
  'error.code_exhausted': 'Dieser Code wurde zu oft versucht. Fordern Sie einen neuen Code an.',
  'error.sso_failed': 'Die Anmeldung über diesen Anbieter hat nicht geklappt. Versuchen Sie es erneut oder melden Sie sich anders an.',
  'error.sso_account_exists': 'Ein Konto mit dieser E-Mail-Adresse gibt es bereits. Melden Sie sich dort an und verbinden Sie den Anbieter dann in Ihren Einstellungen.',
  'error.invalid_characters': 'Dieser Wert enthält unzulässige Zeichen.',
  'error.unknown_field': 'Dieses Feld wird hier nicht erwartet.',
  'error.invalid': 'Dieser Wert ist ungültig.',
  'error.invalid_credentials': 'E-Mail-Adresse oder Passwort ist falsch.',
  'error.user_already_exists': 'Ein Konto mit diesen Angaben existiert bereits.',
  'error.password_policy': 'Dieses Passwort ist zu schwach oder zu verbreitet. Wählen Sie ein längeres.',
  'error.captcha_required': 'Bitte schließen Sie die Prüfung ab, dass Sie ein Mensch sind.',
  'error.captcha_invalid': 'Die Prüfung ist fehlgeschlagen. Bitte versuchen Sie es erneut.',
  'error.captcha_expired': 'Die Prüfung ist abgelaufen. Bitte versuchen Sie es erneut.',
  'error.captcha_replayed': 'Die Prüfung wurde bereits verwendet. Bitte versuchen Sie es erneut.',
  'error.passkey_invalid': 'Der Passkey konnte nicht geprüft werden.',
  'ui.captcha': 'Menschen-Prüfung',
  'ui.captcha_hint': 'Ihr Browser löst ein kleines Rätsel. Ohne JavaScript fügen Sie die Lösung hier ein.',
  'ui.captcha_solving': 'Browser wird geprüft…',
  'ui.captcha_done': 'Prüfung abgeschlossen.',
  'ui.passkey_needs_js': 'Passkeys benötigen einen Browser mit aktiviertem JavaScript.',
  'ui.errors_title': 'Bitte korrigieren Sie Folgendes:',
  'ui.signed_in.title': 'Sie sind angemeldet',
  'ui.signed_in.description': 'Sie können dieses Fenster schließen oder zur Anwendung zurückkehren.',
  'ui.sign_out': 'Abmelden',
  'ui.manage_account': 'Anmeldemethoden verwalten',
  'ui.logout.title': 'Abmelden?',
  'ui.logout.description': 'Eine Anwendung möchte Sie auf diesem Gerät abmelden.',
  'ui.signed_out.title': 'Sie sind abgemeldet',
  'ui.signed_out.description': 'Ihre Sitzung auf diesem Gerät ist beendet.',
  'ui.credential.password': 'Passwort',
  'ui.credential.passkey': 'Passkey',
  'ui.credential.totp': 'Authenticator-App',
  'ui.credential.recovery_code': 'Wiederherstellungscodes',
  'ui.credential.sso': 'Single Sign-on',
  'ui.credential.since': 'hinzugefügt am',
  'ui.back_to_sign_in': 'Zurück zur Anmeldung',
  'ui.restart': 'Neu beginnen',
  'ui.error.title': 'Etwas ist schiefgelaufen',
  'ui.error.project_missing': 'Dieser Link ist unvollständig oder beschädigt: Er nennt kein gültiges Projekt.',
  'ui.error.project_not_found': 'Diese Anmeldeseite existiert nicht.',
  'ui.error.purpose_unknown': 'Diese Seite ist für diese Anwendung nicht verfügbar.',
  'ui.error.redirect_not_allowed': 'Die Anwendung möchte zu einer Adresse zurückkehren, die nicht erlaubt ist.',
  'ui.error.return_invalid': 'Der Link der Anwendung ist ungültig.',
  'ui.error.flow_gone': 'Diese Seite ist abgelaufen oder wurde in einem anderen Fenster geöffnet. Bitte beginnen Sie neu.',
  'ui.error.cross_site': 'Dieses Formular wurde von einer anderen Website gesendet und abgelehnt. Bitte beginnen Sie neu.',
  'ui.error.rate_limited': 'Zu viele Versuche. Bitte warten Sie kurz und versuchen Sie es erneut.',
  'ui.error.invalid_request': 'Die Anfrage war unverständlich. Bitte beginnen Sie neu.',
  'ui.error.internal': 'Ein unerwarteter Fehler ist aufgetreten. Bitte versuchen Sie es später erneut.',
  'ui.settings.sign_in_first': 'Bitte melden Sie sich an, um Ihre Einstellungen zu ändern.',
  'ui.settings.unavailable': 'Kontoeinstellungen sind für diese Anwendung noch nicht verfügbar.',
  'ui.link.title': 'Sehen Sie in Ihrem anderen Fenster nach',
  'ui.link.description': 'Geben Sie den Code aus der E-Mail in dem Fenster ein, in dem Sie die Anmeldung begonnen haben.',
  'ui.language': 'Sprache',
  'ui.sso_with': 'Weiter mit {name}',
  'ui.or': 'oder',
  'action.sso': 'Weiter mit {name}',
  'action.connect_sso': '{name} verbinden',
  'step.link_account.title': 'Konto verbinden',
  'step.link_account.description': 'Zu dieser E-Mail-Adresse gibt es bereits ein Konto. Geben Sie sein Passwort ein, um den Anmeldeanbieter damit zu verbinden.',
  'step.totp.title': 'Authenticator-App',
  'step.totp.description': 'Geben Sie den 6-stelligen Code aus Ihrer Authenticator-App ein. Zum Einrichten scannen Sie zuerst den QR-Code oder tippen den Schlüssel in die App.',
  'step.recovery_code.title': 'Wiederherstellungscode verwenden',
  'step.recovery_code.description': 'Geben Sie einen Ihrer gespeicherten Wiederherstellungscodes ein. Jeder Code gilt einmal.',
  'step.check.title': 'Anmeldung wird geprüft',
  'step.check.description': '',
  'step.reauthenticate.title': 'Bestätigen Sie, dass Sie es sind',
  'step.reauthenticate.description': 'Ihre letzte Anmeldung liegt eine Weile zurück. Bestätigen Sie sie, bevor Sie Ihre Anmeldemethoden ändern.',
  'step.menu.title': 'Anmeldung und Sicherheit',
  'step.menu.description': 'Verwalten Sie, wie Sie sich anmelden.',
  'step.confirm_removal.title': 'Letzten zweiten Faktor entfernen?',
  'step.confirm_removal.description': 'Danach schützt nur noch Ihr Passwort Ihr Konto. Geben Sie zur Bestätigung Ihr Passwort ein.',
  'step.recovery_codes.title': 'Neue Wiederherstellungscodes',
  'step.recovery_codes.description': 'Neue Codes ersetzen alle bisherigen.',
  'step.recovery_codes_shown.title': 'Speichern Sie Ihre Wiederherstellungscodes',
  'step.recovery_codes_shown.description': 'Bewahren Sie diese Codes sicher auf. Sie werden nur einmal angezeigt, und jeder gilt einmal.',
  'field.totp': 'Code aus Ihrer Authenticator-App',
  'field.recovery_code': 'Wiederherstellungscode',
  'field.credential_id': 'Zu entfernende Anmeldemethode',
  'action.add_passkey': 'Passkey hinzufügen',
  'action.back': 'Zurück',
  'action.change_password': 'Passwort ändern',
  'action.confirm': 'Bestätigen',
  'action.enable_totp': 'Einschalten',
  'action.finish': 'Fertig',
  'action.generate_recovery_codes': 'Neue Codes erstellen',
  'action.new_recovery_codes': 'Neue Wiederherstellungscodes',
  'action.remove_credential': 'Entfernen',
  'action.setup_totp': 'Authenticator-App einrichten',
  'action.use_recovery_code': 'Stattdessen einen Wiederherstellungscode verwenden',
  'action.use_totp': 'Stattdessen die Authenticator-App verwenden',
  'error.last_credential': 'Dies ist Ihre einzige Anmeldemethode; fügen Sie zuerst eine weitere hinzu.',
  'error.unknown_credential': 'Diese Anmeldemethode gibt es in Ihrem Konto nicht.',
  'warning.recovery_codes_low': 'Sie haben nur noch wenige Wiederherstellungscodes. Erstellen Sie neue in Ihren Sicherheitseinstellungen.',
  'action.email_me_a_code': 'Code per E-Mail senden',
  'action.use_password': 'Stattdessen mein Passwort verwenden',
  'field.otp': 'Code oder Link aus Ihrer E-Mail',
  'ui.totp_qr': 'QR-Code für Ihre Authenticator-App',
};

const BUILT_IN: Record<Lang, Texts> = { en, de };

/** Whether the built-in catalogue of `lang` has `key` (the catalogue test checks every default definition's keys). */
export const hasBuiltInText = (lang: Lang, key: string): boolean => key in BUILT_IN[lang];

const isLang = (value: string): value is Lang => (LANGS as readonly string[]).includes(value);

/** `?lang=` wins when it names a supported language; then the first supported Accept-Language tag; else English. */
export function pickLang(query: string | undefined, acceptLanguage: string | undefined): Lang {
  const asked = query?.toLowerCase().slice(0, 2);
  if (asked && isLang(asked)) return asked;
  const tags = (acceptLanguage ?? '')
    .slice(0, 500)
    .split(',')
    .map((part) => {
      const [tag, ...params] = part.trim().split(';');
      const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find(Boolean);
      return { lang: tag.trim().toLowerCase().slice(0, 2), q: q === undefined ? 1 : Number(q) };
    })
    .filter((entry) => entry.q > 0)
    .sort((a, b) => b.q - a.q);
  return tags.map((entry) => entry.lang).find(isLang) ?? 'en';
}

export const OVERRIDE_KEY = /^[a-z0-9_.-]{1,100}$/;

/** A translator for one page: project overrides, then the language, then English, then a readable fallback. */
export function translator(lang: Lang, overrides: Partial<Record<Lang, Texts>> = {}): (key: string, vars?: Record<string, string>) => string {
  return (key, vars) => {
    let text = overrides[lang]?.[key] ?? BUILT_IN[lang][key] ?? overrides.en?.[key] ?? en[key];
    // An unknown key (a custom definition's text) still reads as something: its last segment.
    if (text === undefined) text = key.split('.').pop()!.replace(/_/g, ' ');
    if (vars) for (const [name, value] of Object.entries(vars)) text = text.split(`{${name}}`).join(value);
    return text;
  };
}

export type Translate = ReturnType<typeof translator>;

/** Per-project text overrides as stored in project settings (`ui.texts`), read leniently. */
export function overridesFrom(projectSettings: Record<string, unknown>): Partial<Record<Lang, Texts>> {
  const ui = projectSettings.ui as { texts?: unknown } | undefined;
  const texts = ui && typeof ui === 'object' ? ui.texts : undefined;
  const result: Partial<Record<Lang, Texts>> = {};
  if (!texts || typeof texts !== 'object') return result;
  for (const lang of LANGS) {
    const table = (texts as Record<string, unknown>)[lang];
    if (!table || typeof table !== 'object') continue;
    result[lang] = Object.fromEntries(Object.entries(table).filter(([k, v]) => OVERRIDE_KEY.test(k) && typeof v === 'string'));
  }
  return result;
}
