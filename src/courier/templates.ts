/**
 * The messages Gatehouse sends, as Liquid templates in English and German (DESIGN §4.11). Every
 * message has a subject, a text part and an HTML part. In the text part the code stands alone on
 * a line of exactly 6 digits and the link alone on its line, so that people and mail clients find
 * them. Projects override subject and bodies per language (`mail_templates`).
 *
 * Variables: `code` (6 digits; not in `recovery_link`), `link` (the link, only in `magic_link` and
 * `recovery_link`), `project_name`, `expires_minutes` (10; 60 for `recovery_link`), `email` (the
 * recipient). `recovery_link` is the mail an operator sends (POST /users/{id}/recovery_link).
 */

export const TEMPLATE_NAMES = ['recovery_code', 'sign_in_code', 'magic_link', 'recovery_link'] as const;
export type TemplateName = (typeof TEMPLATE_NAMES)[number];

export const LANGUAGES = ['en', 'de'] as const;
export type Language = (typeof LANGUAGES)[number];

export interface MailTemplate {
  subject: string;
  text: string;
  html: string;
}

const html = (paragraphs: string[]) => `<!doctype html>
<html><body style="font-family: sans-serif; line-height: 1.5">
${paragraphs.map((p) => `<p>${p}</p>`).join('\n')}
</body></html>
`;

const CODE_HTML = '<strong style="font-size: 1.6em; letter-spacing: 0.2em">{{ code }}</strong>';

export const DEFAULT_TEMPLATES: Record<TemplateName, Record<Language, MailTemplate>> = {
  recovery_code: {
    en: {
      subject: 'Your recovery code for {{ project_name }}',
      text: 'Your recovery code is:\n\n{{ code }}\n\nIt is valid for {{ expires_minutes }} minutes. If you did not ask for it, ignore this message.\n',
      html: html(['Your recovery code is:', CODE_HTML, 'It is valid for {{ expires_minutes }} minutes. If you did not ask for it, ignore this message.']),
    },
    de: {
      subject: 'Ihr Wiederherstellungscode für {{ project_name }}',
      text: 'Ihr Wiederherstellungscode lautet:\n\n{{ code }}\n\nEr ist {{ expires_minutes }} Minuten gültig. Wenn Sie ihn nicht angefordert haben, ignorieren Sie diese Nachricht.\n',
      html: html(['Ihr Wiederherstellungscode lautet:', CODE_HTML, 'Er ist {{ expires_minutes }} Minuten gültig. Wenn Sie ihn nicht angefordert haben, ignorieren Sie diese Nachricht.']),
    },
  },
  sign_in_code: {
    en: {
      subject: 'Your sign-in code for {{ project_name }}',
      text: 'Your sign-in code is:\n\n{{ code }}\n\nType it in the window where you asked for it. It is valid for {{ expires_minutes }} minutes. If you did not ask for it, ignore this message.\n',
      html: html(['Your sign-in code is:', CODE_HTML, 'Type it in the window where you asked for it. It is valid for {{ expires_minutes }} minutes. If you did not ask for it, ignore this message.']),
    },
    de: {
      subject: 'Ihr Anmeldecode für {{ project_name }}',
      text: 'Ihr Anmeldecode lautet:\n\n{{ code }}\n\nGeben Sie ihn in dem Fenster ein, in dem Sie ihn angefordert haben. Er ist {{ expires_minutes }} Minuten gültig. Wenn Sie ihn nicht angefordert haben, ignorieren Sie diese Nachricht.\n',
      html: html(['Ihr Anmeldecode lautet:', CODE_HTML, 'Geben Sie ihn in dem Fenster ein, in dem Sie ihn angefordert haben. Er ist {{ expires_minutes }} Minuten gültig. Wenn Sie ihn nicht angefordert haben, ignorieren Sie diese Nachricht.']),
    },
  },
  magic_link: {
    en: {
      subject: 'Sign in to {{ project_name }}',
      text: 'Open this link in the browser where you asked to sign in:\n\n{{ link }}\n\nOr type this code there:\n\n{{ code }}\n\nBoth are valid for {{ expires_minutes }} minutes and work once. If you did not ask for them, ignore this message.\n',
      html: html([
        'Open this link in the browser where you asked to sign in:',
        '<a href="{{ link }}">Sign in to {{ project_name }}</a>',
        'Or type this code there:',
        CODE_HTML,
        'Both are valid for {{ expires_minutes }} minutes and work once. If you did not ask for them, ignore this message.',
      ]),
    },
    de: {
      subject: 'Anmeldung bei {{ project_name }}',
      text: 'Öffnen Sie diesen Link in dem Browser, in dem Sie die Anmeldung angefordert haben:\n\n{{ link }}\n\nOder geben Sie dort diesen Code ein:\n\n{{ code }}\n\nBeide sind {{ expires_minutes }} Minuten gültig und funktionieren einmal. Wenn Sie sie nicht angefordert haben, ignorieren Sie diese Nachricht.\n',
      html: html([
        'Öffnen Sie diesen Link in dem Browser, in dem Sie die Anmeldung angefordert haben:',
        '<a href="{{ link }}">Bei {{ project_name }} anmelden</a>',
        'Oder geben Sie dort diesen Code ein:',
        CODE_HTML,
        'Beide sind {{ expires_minutes }} Minuten gültig und funktionieren einmal. Wenn Sie sie nicht angefordert haben, ignorieren Sie diese Nachricht.',
      ]),
    },
  },
  recovery_link: {
    en: {
      subject: 'Reset your password for {{ project_name }}',
      text: 'An administrator of {{ project_name }} sent you this link to get back into your account:\n\n{{ link }}\n\nIt signs you in and opens your account settings, where you can set a new password. It is valid for {{ expires_minutes }} minutes and works once. If you did not expect it, ignore this message.\n',
      html: html([
        'An administrator of {{ project_name }} sent you this link to get back into your account:',
        '<a href="{{ link }}">Reset your password</a>',
        'It signs you in and opens your account settings, where you can set a new password. It is valid for {{ expires_minutes }} minutes and works once. If you did not expect it, ignore this message.',
      ]),
    },
    de: {
      subject: 'Passwort für {{ project_name }} zurücksetzen',
      text: 'Ein Administrator von {{ project_name }} hat Ihnen diesen Link gesendet, damit Sie wieder in Ihr Konto kommen:\n\n{{ link }}\n\nEr meldet Sie an und öffnet Ihre Kontoeinstellungen, wo Sie ein neues Passwort festlegen können. Er ist {{ expires_minutes }} Minuten gültig und funktioniert einmal. Wenn Sie ihn nicht erwartet haben, ignorieren Sie diese Nachricht.\n',
      html: html([
        'Ein Administrator von {{ project_name }} hat Ihnen diesen Link gesendet, damit Sie wieder in Ihr Konto kommen:',
        '<a href="{{ link }}">Passwort zurücksetzen</a>',
        'Er meldet Sie an und öffnet Ihre Kontoeinstellungen, wo Sie ein neues Passwort festlegen können. Er ist {{ expires_minutes }} Minuten gültig und funktioniert einmal. Wenn Sie ihn nicht erwartet haben, ignorieren Sie diese Nachricht.',
      ]),
    },
  },
};

/** The language of a request's `Accept-Language` (first supported tag), English otherwise. */
export function mailLanguage(acceptLanguage: string | undefined): Language {
  for (const part of (acceptLanguage ?? '').split(',').slice(0, 20)) {
    const tag = part.split(';')[0].trim().toLowerCase().split('-')[0];
    if ((LANGUAGES as readonly string[]).includes(tag)) return tag as Language;
  }
  return 'en';
}
