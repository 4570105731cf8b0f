/**
 * Text keys of the hosted UI (docs/flows.md "Text keys" plus the page's own `ui.*` keys) in English
 * and German: the keys the engine, the pages or several methods use; a method's own keys are its
 * `texts.ts` (`AuthMethod.texts`), merged in here. A project may override any key per language
 * (project settings `ui.texts`).
 */
import { generation, methodTexts } from '../flows/methods/registry.js';
import { LANGS, type Lang, type Texts } from '../projects/ui-texts.js';
import { DEVICE_TEXTS } from './i18n-device.js';
import { GUIDANCE } from './i18n-guidance.js';

const en: Texts = {
  'step.identify.title': 'Sign in',
  'step.identify.description': 'Enter your e-mail address to continue.',
  'step.password.title': 'Enter your password',
  'step.password.description': '',
  'step.register.title': 'Create your account',
  'step.register.description': '',
  'step.code.title': 'Check your e-mail',
  'step.code.description': 'Enter the code we sent you.',
  'step.done.title': 'Done',
  'step.done.description': 'All set. You can now sign in.',
  'field.email': 'E-mail address',
  'field.name.given': 'First name',
  'field.name.family': 'Last name',
  'action.continue': 'Continue',
  'action.sign_up': 'Create an account',
  'action.sign_in': 'Sign in',
  'action.create_account': 'Create account',
  'action.sign_in_instead': 'I already have an account',
  'action.verify_code': 'Verify code',
  'action.resend_code': 'Send a new code',
  'action.save_password': 'Save password',
  'error.required': 'This field is required.',
  'error.invalid_type': 'This value has the wrong type.',
  'error.too_long': 'This value is too long.',
  'error.invalid_email': 'Enter a valid e-mail address.',
  'error.invalid_code': 'Enter the code as digits.',
  'error.code_exhausted': 'This code was tried too often. Ask for a new code.',
  'error.invalid_characters': 'This value contains characters that are not allowed.',
  'error.unknown_field': 'This field is not expected here.',
  'error.invalid': 'This value is not valid.',
  'error.invalid_credentials': 'The e-mail address or password is wrong.',
  'error.user_already_exists': 'An account with these details already exists.',
  'error.captcha_required': 'Please complete the check that you are human.',
  'error.captcha_invalid': 'The human check failed. Please try again.',
  'error.captcha_expired': 'The human check expired. Please try again.',
  'error.captcha_replayed': 'The human check was already used. Please try again.',
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
  'ui.credential.since': 'added',
  'ui.back_to_sign_in': 'Back to sign in',
  'ui.restart': 'Start again',
  'ui.error.title': 'Something went wrong',
  'ui.error.project_missing': 'This link is incomplete or damaged: it names no valid project.',
  'ui.error.project_not_found': 'This sign-in page does not exist.',
  'ui.error.purpose_unknown': 'This kind of page is not available for this application.',
  'ui.error.redirect_not_allowed': 'The application asked to return to an address that is not allowed. To allow it, add the exact address to the project\'s flow_settings.redirect_uris (PUT /projects/{project_id}/flow_settings).',
  'ui.error.return_invalid': 'The application link is not valid.',
  'ui.error.flow_gone': 'This page has expired or was opened in another window. Please start again.',
  'ui.error.cross_site': 'This form was sent from another site and was refused. Please start again.',
  'ui.error.rate_limited': 'Too many attempts. Please wait a moment and try again.',
  'ui.error.invalid_request': 'The request could not be understood. Please start again.',
  'ui.error.internal': 'An unexpected error occurred. Please try again later.',
  'ui.error.unavailable': 'The service is briefly unavailable. Please try again in a few seconds.',
  'ui.settings.sign_in_first': 'Please sign in to change your settings.',
  'ui.settings.unavailable': 'Account settings are not available for this application yet.',
  'ui.link.title': 'Check your other window',
  'ui.link.description': 'Type the code from the e-mail into the window where you started signing in.',
  'ui.recover.title': 'Get back into your account',
  'ui.recover.description': 'An administrator sent you this link. Continue to sign in and open your account settings, where you can set a new password.',
  'ui.recover.continue': 'Continue',
  'ui.recover.invalid': 'This link is invalid, was already used or has expired. Ask for a new one, or reset your password yourself.',
  'ui.recover.reset_yourself': 'Reset my password',
  'ui.language': 'Language',
  'ui.sso_with': 'Continue with {name}',
  'ui.or': 'or',
  'step.totp.title': 'Authenticator app',
  'step.totp.description': 'Enter the 6-digit code your authenticator app shows. Setting it up? Scan the QR code or type the key into the app first.',
  'action.back': 'Back',
  'action.confirm': 'Confirm',
  'action.finish': 'Done',
  'action.email_me_a_code': 'E-mail me a code',
  'ui.totp_qr': 'QR code for your authenticator app',
};

const de: Texts = {
  'step.identify.title': 'Anmelden',
  'step.identify.description': 'Geben Sie Ihre E-Mail-Adresse ein, um fortzufahren.',
  'step.password.title': 'Passwort eingeben',
  'step.password.description': '',
  'step.register.title': 'Konto erstellen',
  'step.register.description': '',
  'step.code.title': 'E-Mail prüfen',
  'step.code.description': 'Geben Sie den Code ein, den wir Ihnen gesendet haben.',
  'step.done.title': 'Fertig',
  'step.done.description': 'Alles erledigt. Sie können sich jetzt anmelden.',
  'field.email': 'E-Mail-Adresse',
  'field.name.given': 'Vorname',
  'field.name.family': 'Nachname',
  'action.continue': 'Weiter',
  'action.sign_up': 'Konto erstellen',
  'action.sign_in': 'Anmelden',
  'action.create_account': 'Konto erstellen',
  'action.sign_in_instead': 'Ich habe bereits ein Konto',
  'action.verify_code': 'Code prüfen',
  'action.resend_code': 'Neuen Code senden',
  'action.save_password': 'Passwort speichern',
  'error.required': 'Dieses Feld ist erforderlich.',
  'error.invalid_type': 'Dieser Wert hat den falschen Typ.',
  'error.too_long': 'Dieser Wert ist zu lang.',
  'error.invalid_email': 'Geben Sie eine gültige E-Mail-Adresse ein.',
  'error.invalid_code': 'Geben Sie den Code als Ziffern ein.',
  'error.code_exhausted': 'Dieser Code wurde zu oft versucht. Fordern Sie einen neuen Code an.',
  'error.invalid_characters': 'Dieser Wert enthält unzulässige Zeichen.',
  'error.unknown_field': 'Dieses Feld wird hier nicht erwartet.',
  'error.invalid': 'Dieser Wert ist ungültig.',
  'error.invalid_credentials': 'E-Mail-Adresse oder Passwort ist falsch.',
  'error.user_already_exists': 'Ein Konto mit diesen Angaben existiert bereits.',
  'error.captcha_required': 'Bitte schließen Sie die Prüfung ab, dass Sie ein Mensch sind.',
  'error.captcha_invalid': 'Die Prüfung ist fehlgeschlagen. Bitte versuchen Sie es erneut.',
  'error.captcha_expired': 'Die Prüfung ist abgelaufen. Bitte versuchen Sie es erneut.',
  'error.captcha_replayed': 'Die Prüfung wurde bereits verwendet. Bitte versuchen Sie es erneut.',
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
  'ui.credential.since': 'hinzugefügt am',
  'ui.back_to_sign_in': 'Zurück zur Anmeldung',
  'ui.restart': 'Neu beginnen',
  'ui.error.title': 'Etwas ist schiefgelaufen',
  'ui.error.project_missing': 'Dieser Link ist unvollständig oder beschädigt: Er nennt kein gültiges Projekt.',
  'ui.error.project_not_found': 'Diese Anmeldeseite existiert nicht.',
  'ui.error.purpose_unknown': 'Diese Seite ist für diese Anwendung nicht verfügbar.',
  'ui.error.redirect_not_allowed': 'Die Anwendung möchte zu einer Adresse zurückkehren, die nicht erlaubt ist. Um sie zu erlauben, tragen Sie die genaue Adresse in flow_settings.redirect_uris des Projekts ein (PUT /projects/{project_id}/flow_settings).',
  'ui.error.return_invalid': 'Der Link der Anwendung ist ungültig.',
  'ui.error.flow_gone': 'Diese Seite ist abgelaufen oder wurde in einem anderen Fenster geöffnet. Bitte beginnen Sie neu.',
  'ui.error.cross_site': 'Dieses Formular wurde von einer anderen Website gesendet und abgelehnt. Bitte beginnen Sie neu.',
  'ui.error.rate_limited': 'Zu viele Versuche. Bitte warten Sie kurz und versuchen Sie es erneut.',
  'ui.error.invalid_request': 'Die Anfrage war unverständlich. Bitte beginnen Sie neu.',
  'ui.error.internal': 'Ein unerwarteter Fehler ist aufgetreten. Bitte versuchen Sie es später erneut.',
  'ui.error.unavailable': 'Der Dienst ist kurz nicht erreichbar. Bitte versuchen Sie es in einigen Sekunden erneut.',
  'ui.settings.sign_in_first': 'Bitte melden Sie sich an, um Ihre Einstellungen zu ändern.',
  'ui.settings.unavailable': 'Kontoeinstellungen sind für diese Anwendung noch nicht verfügbar.',
  'ui.link.title': 'Sehen Sie in Ihrem anderen Fenster nach',
  'ui.link.description': 'Geben Sie den Code aus der E-Mail in dem Fenster ein, in dem Sie die Anmeldung begonnen haben.',
  'ui.recover.title': 'Wieder in Ihr Konto kommen',
  'ui.recover.description': 'Ein Administrator hat Ihnen diesen Link gesendet. Fahren Sie fort, um sich anzumelden und Ihre Kontoeinstellungen zu öffnen, wo Sie ein neues Passwort festlegen können.',
  'ui.recover.continue': 'Weiter',
  'ui.recover.invalid': 'Dieser Link ist ungültig, wurde schon verwendet oder ist abgelaufen. Bitten Sie um einen neuen oder setzen Sie Ihr Passwort selbst zurück.',
  'ui.recover.reset_yourself': 'Passwort selbst zurücksetzen',
  'ui.language': 'Sprache',
  'ui.sso_with': 'Weiter mit {name}',
  'ui.or': 'oder',
  'step.totp.title': 'Authenticator-App',
  'step.totp.description': 'Geben Sie den 6-stelligen Code aus Ihrer Authenticator-App ein. Zum Einrichten scannen Sie zuerst den QR-Code oder tippen den Schlüssel in die App.',
  'action.back': 'Zurück',
  'action.confirm': 'Bestätigen',
  'action.finish': 'Fertig',
  'action.email_me_a_code': 'Code per E-Mail senden',
  'ui.totp_qr': 'QR-Code für Ihre Authenticator-App',
};

const CORE: Record<Lang, Texts> = { en: { ...en, ...GUIDANCE.en, ...DEVICE_TEXTS.en }, de: { ...de, ...GUIDANCE.de, ...DEVICE_TEXTS.de } };

/**
 * The core tables with the methods' texts. A method's key must be new: one that repeated a core
 * key would change a text the pages and the engine share, so the merge refuses it.
 */
export function withMethodTexts(core: Readonly<Record<Lang, Texts>>, textsOf: (lang: Lang) => Texts): Record<Lang, Texts> {
  const tables = {} as Record<Lang, Texts>;
  for (const lang of LANGS) {
    const own = textsOf(lang);
    const repeated = Object.keys(own).filter((key) => Object.hasOwn(core[lang], key));
    if (repeated.length > 0) throw new Error(`A sign-in method's texts repeat core text keys of ui/i18n.ts (${lang}): ${repeated.join(', ')}.`);
    tables[lang] = { ...core[lang], ...own };
  }
  return tables;
}

// Built at first use and again after a registration (`registerMethod` before the app is built: a
// plug-in, a test's method), which only ever adds to METHODS.
let merged: { generation: number; tables: Record<Lang, Texts> } | undefined;
function builtIn(): Record<Lang, Texts> {
  if (merged?.generation !== generation) merged = { generation, tables: withMethodTexts(CORE, methodTexts) };
  return merged.tables;
}

/** Whether the built-in catalogue of `lang` has `key` (the catalogue test checks every default definition's keys). */
export const hasBuiltInText = (lang: Lang, key: string): boolean => key in builtIn()[lang];

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

/** A translator for one page: project overrides, then the language, then English, then a readable fallback. */
export function translator(lang: Lang, overrides: Partial<Record<Lang, Texts>> = {}): (key: string, vars?: Record<string, string>) => string {
  const tables = builtIn();
  return (key, vars) => {
    let text = overrides[lang]?.[key] ?? tables[lang][key] ?? overrides.en?.[key] ?? tables.en[key];
    // An unknown key (a custom definition's text) still reads as something: its last segment.
    if (text === undefined) text = key.split('.').pop()!.replace(/_/g, ' ');
    if (vars) for (const [name, value] of Object.entries(vars)) text = text.split(`{${name}}`).join(value);
    return text;
  };
}

export type Translate = ReturnType<typeof translator>;
