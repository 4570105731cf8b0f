import type { FastifyReply, FastifyRequest } from 'fastify';
import { DEFAULT_BRANDING, type Branding } from '../flows/settings/service.js';
import type { Lang } from '../projects/ui-texts.js';
import type { UiAssets } from '../ui/assets.js';
import { esc } from '../ui/html.js';
import { pickLang, translator } from '../ui/i18n.js';
import { renderDocument } from '../ui/layout.js';
import { pageHeaders } from '../ui/pages.js';
import { CONSOLE_TEXTS } from './texts.js';

/** The console's look: the hosted UI's stylesheet and layout, wide, never a project's template. */
const CONSOLE_BRANDING: Branding = { ...DEFAULT_BRANDING, layout: 'wide' };

export type ConsoleTranslate = (key: string, vars?: Record<string, string>) => string;

export interface ConsoleView {
  lang: Lang;
  /** whether `?lang=` chose the language (links then keep it) */
  explicitLang: boolean;
  t: ConsoleTranslate;
  /** the path of this page without `lang`, for the language links */
  path: string;
}

export function consoleView(request: FastifyRequest): ConsoleView {
  const query = request.query as Record<string, unknown> | undefined;
  const asked = typeof query?.lang === 'string' ? query.lang : undefined;
  const lang = pickLang(asked, typeof request.headers['accept-language'] === 'string' ? request.headers['accept-language'] : undefined);
  const ui = translator(lang);
  const t: ConsoleTranslate = (key, vars) => {
    let text = CONSOLE_TEXTS[lang][key];
    if (text === undefined) return ui(key, vars);
    for (const [name, value] of Object.entries(vars ?? {})) text = text.split(`{${name}}`).join(value);
    return text;
  };
  const url = new URL(request.url, 'http://console.invalid');
  url.searchParams.delete('lang');
  return { lang, explicitLang: asked !== undefined && asked.slice(0, 2).toLowerCase() === lang, t, path: `${url.pathname}${url.search}` };
}

/** A console link that keeps the language the operator chose with `?lang=`. */
export function consoleHref(view: ConsoleView, path: string): string {
  if (!view.explicitLang) return path;
  return `${path}${path.includes('?') ? '&' : '?'}lang=${view.lang}`;
}

export interface ConsoleChrome {
  /** who is signed in (the header's note and the sign-out form); absent on the set-up and error pages */
  operator?: { userId: string; roles: string[] };
  /** whether the outbox page exists (development: no SMTP) */
  outbox?: boolean;
  /** the account settings page, when the operator has no second factor yet (the next sign-in asks for AAL2) */
  addFactor?: string;
}

function header(view: ConsoleView, chrome: ConsoleChrome): string {
  const { t } = view;
  const nav = chrome.operator
    ? `<nav class="console-nav" aria-label="${esc(t('console.nav'))}">` +
      `<a href="${esc(consoleHref(view, '/console'))}">${esc(t('console.nav.projects'))}</a>` +
      (chrome.operator.roles.includes('instance_admin') ? `<a href="${esc(consoleHref(view, '/console/operators'))}">${esc(t('console.nav.operators'))}</a>` : '') +
      `<form method="post" action="${esc(consoleHref(view, '/console/logout'))}"><button type="submit" class="btn secondary">${esc(t('console.sign_out'))}</button></form>` +
      `</nav>` +
      `<p class="console-who">${esc(t('console.signed_in_as', { user: chrome.operator.userId }))} (${esc(chrome.operator.roles.map((role) => t(`console.role.${role}`)).join(', '))})</p>`
    : '';
  const factor = chrome.addFactor ? `<p class="warning" role="status">${esc(t('console.needs_factor'))} <a href="${esc(chrome.addFactor)}">${esc(t('console.add_factor'))}</a></p>` : '';
  return `<header class="console-header"><p class="console-brand">${esc(t('console.title'))}</p>${nav}</header>${factor}`;
}

function languageLinks(view: ConsoleView): string {
  const links = (['en', 'de'] as const)
    .filter((lang) => lang !== view.lang)
    .map((lang) => `<a href="${esc(`${view.path}${view.path.includes('?') ? '&' : '?'}lang=${lang}`)}" lang="${lang}" hreflang="${lang}">${lang === 'en' ? 'English' : 'Deutsch'}</a>`);
  return `<nav class="lang" aria-label="${esc(view.t('ui.language'))}">${links.join('')}</nav>`;
}

/** Sends a console page: the hosted UI's document and headers (strict CSP, no-store, no framing). */
export async function sendConsolePage(reply: FastifyReply, view: ConsoleView, assets: UiAssets, status: number, title: string, content: string, chrome: ConsoleChrome = {}): Promise<FastifyReply> {
  const html = await renderDocument({
    lang: view.lang,
    title: `${title} · ${view.t('console.title')}`,
    content: header(view, chrome) + content + languageLinks(view),
    branding: CONSOLE_BRANDING,
    page: 'console',
    assets: { css: assets.css },
  });
  return pageHeaders(reply, CONSOLE_BRANDING).header('content-language', view.lang).status(status).send(html);
}

/** A page that only says something (an error, a refused link), with optional links. */
export function sendConsoleMessage(reply: FastifyReply, view: ConsoleView, assets: UiAssets, status: number, message: { title: string; text: string; links?: Array<{ href: string; label: string }> }, chrome: ConsoleChrome = {}): Promise<FastifyReply> {
  const links = (message.links ?? []).map((link) => `<a class="btn primary" href="${esc(link.href)}">${esc(link.label)}</a>`).join('');
  const content = `<h1>${esc(message.title)}</h1><p class="description" role="${status >= 400 ? 'alert' : 'status'}">${esc(message.text)}</p>${links ? `<p class="actions">${links}</p>` : ''}`;
  return sendConsolePage(reply, view, assets, status, message.title, content, chrome);
}
