import { Liquid, type Template } from 'liquidjs';
import type { Branding } from '../flows/settings/service.js';
import type { Lang } from '../projects/ui-texts.js';
import { attrs, esc } from './html.js';

export interface PageShell {
  lang: Lang;
  /** the document title (plain text) */
  title: string;
  /** the page's own markup (already escaped HTML) */
  content: string;
  branding: Branding;
  /** which page: login, register, recovery, settings, link, error */
  page: string;
  projectId?: string;
  assets: { css: string; js?: string };
}

// Limits keep a hostile template from burning the server (liquidjs counts ms and bytes).
const liquid = new Liquid({ strictFilters: true, parseLimit: 100_000, renderLimit: 200, memoryLimit: 1_000_000 });
const parsed = new Map<string, Template[]>();

function parse(template: string): Template[] {
  let cached = parsed.get(template);
  if (!cached) {
    cached = liquid.parse(template);
    if (parsed.size > 200) parsed.clear();
    parsed.set(template, cached);
  }
  return cached;
}

const httpUrl = (value: string | undefined): string | undefined => {
  if (!value) return undefined;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.toString() : undefined;
  } catch {
    return undefined;
  }
};

const originOf = (value: string | undefined) => (value ? new URL(value).origin : undefined);
const LAYOUTS = new Set(['centered', 'split', 'wide']);

/**
 * The strict CSP of every page: no inline script, nothing from elsewhere except what the
 * branding names (logo, hero images; the font stylesheet and its font files).
 */
export function contentSecurityPolicy(branding: Branding): string {
  const images = ["'self'", 'data:', originOf(httpUrl(branding.logo_url)), originOf(httpUrl(branding.hero_url))].filter(Boolean);
  const fontCss = originOf(httpUrl(branding.font_url));
  return [
    "default-src 'none'",
    "script-src 'self'",
    `style-src 'self'${fontCss ? ` ${fontCss}` : ''}`,
    `img-src ${[...new Set(images)].join(' ')}`,
    `font-src 'self'${fontCss ? ' https:' : ''}`,
    "connect-src 'self'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/**
 * Variables a project's `liquid_template` sees. Strings are already HTML-escaped, so the
 * template prints them as they are; `content` is the page's markup (printed unescaped).
 */
function templateVariables(shell: PageShell, logo: string | undefined, hero: string | undefined, font: string | undefined) {
  return {
    content: shell.content,
    title: esc(shell.title),
    lang: shell.lang,
    page: esc(shell.page),
    project_id: esc(shell.projectId ?? ''),
    layout: esc(shell.branding.layout),
    logo_url: esc(logo ?? ''),
    hero_url: esc(hero ?? ''),
    font_url: esc(font ?? ''),
  };
}

/** The whole HTML document: our head (CSS, script), the project's template (or ours) around the content. */
export async function renderDocument(shell: PageShell): Promise<string> {
  const { branding } = shell;
  const logo = httpUrl(branding.logo_url);
  const hero = httpUrl(branding.hero_url);
  const font = httpUrl(branding.font_url);
  const layout = LAYOUTS.has(branding.layout) ? branding.layout : 'centered';
  let body: string | undefined;
  if (branding.liquid_template.trim()) {
    try {
      body = String(await liquid.render(parse(branding.liquid_template), templateVariables(shell, logo, hero, font)));
    } catch {
      body = undefined; // a template failing at render time falls back to the default look
    }
  }
  body ??=
    `<div class="shell">` +
    (hero ? `<img class="hero"${attrs({ src: hero, alt: '' })}>` : '') +
    `<main class="card">` +
    (logo ? `<img class="logo"${attrs({ src: logo, alt: '' })}>` : '') +
    shell.content +
    `</main></div>`;
  return (
    `<!doctype html><html lang="${shell.lang}"><head><meta charset="utf-8">` +
    `<meta name="viewport" content="width=device-width, initial-scale=1">` +
    `<meta name="referrer" content="no-referrer">` +
    // No favicon request (a 404 on every page otherwise); the branding's logo is in the page.
    `<link rel="icon" href="data:,">` +
    `<title>${esc(shell.title)}</title>` +
    `<link rel="stylesheet" href="${esc(shell.assets.css)}">` +
    (font ? `<link rel="stylesheet"${attrs({ href: font })}>` : '') +
    (shell.assets.js ? `<script type="module" src="${esc(shell.assets.js)}"></script>` : '') +
    `</head><body class="layout-${layout} page-${esc(shell.page)}">${body}</body></html>`
  );
}
