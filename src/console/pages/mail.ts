import { esc } from '../../ui/html.js';
import { problemAlert, type FormProblem } from './parts.js';
import { consoleHref, type ConsoleView } from '../render.js';

/** A template's Liquid source: a built-in one (`GET …/mail_templates/built_in`) or an override. */
export interface MailTemplateSource {
  template: string;
  language: string;
  subject: string;
  text: string;
  html?: string;
}

/** `GET /projects/{id}/mail_templates/{template}/{language}/preview`. */
export interface MailPreview {
  template: string;
  language: string;
  overridden: boolean;
  subject: string;
  text: string;
  variables: Record<string, string | number>;
}


export interface MailTemplatesPage {
  projectId: string;
  templates: string[];
  languages: string[];
  previews: MailPreview[];
  /** the one template and language the edit form is for, with the text it shows (stored or as typed) */
  editing: { template: string; language: string; subject: string; text: string; html: string; overridden: boolean };
  problem?: FormProblem;
  notice?: string;
}

export interface BrandingValues {
  layout: string;
  liquid_template: string;
  logo_url?: string;
  font_url?: string;
  hero_url?: string;
}


const notice = (text: string | undefined) => (text ? `<p class="notice" role="status">${esc(text)}</p>` : '');
const backLink = (view: ConsoleView, projectId: string) => `<p><a href="${esc(consoleHref(view, `/console/projects/${encodeURIComponent(projectId)}`))}">${esc(view.t('console.back_to_project'))}</a></p>`;
const templateLabel = (view: ConsoleView, template: string) => view.t(`console.mail.template.${template}`);
const languageLabel = (view: ConsoleView, language: string) => view.t(`console.mail.language.${language}`);

/** One language's rendered message; `lang` on it so a screen reader reads German as German. */
function previewMarkup(view: ConsoleView, base: string, preview: MailPreview): string {
  const { t } = view;
  const edit = `${consoleHref(view, `${base}/mail_templates?${new URLSearchParams({ template: preview.template, language: preview.language })}`)}#edit`;
  const state = t(preview.overridden ? 'console.mail.overridden' : 'console.mail.built_in');
  return (
    `<section class="mail-preview"><h3>${esc(languageLabel(view, preview.language))} <span class="muted">(${esc(state)})</span></h3>` +
    `<div lang="${esc(preview.language)}"><p><strong>${esc(t('console.mail.subject'))}:</strong> ${esc(preview.subject)}</p>` +
    // Focusable: a long line makes the block scroll, and a keyboard must be able to scroll it too.
    `<pre class="snippet" tabindex="0"><code>${esc(preview.text)}</code></pre></div>` +
    `<p><a href="${esc(edit)}">${esc(t('console.mail.edit_link', { template: templateLabel(view, preview.template), language: languageLabel(view, preview.language) }))}</a></p></section>`
  );
}

/** Every message previewed in each language side by side, and the edit form of one of them. */
export function mailTemplatesMarkup(view: ConsoleView, page: MailTemplatesPage): string {
  const { t } = view;
  const base = `/console/projects/${encodeURIComponent(page.projectId)}`;
  const sample = page.previews[0]?.variables ?? {};
  const sampleText = Object.entries(sample).map(([name, value]) => `${name} = ${value}`).join(', ');
  const sections = page.templates
    .map((template) => {
      const previews = page.languages.map((language) => page.previews.find((one) => one.template === template && one.language === language)).filter((one) => one !== undefined);
      return `<h2>${esc(templateLabel(view, template))}</h2><div class="console-grid mail-previews">${previews.map((preview) => previewMarkup(view, base, preview)).join('')}</div>`;
    })
    .join('');
  const { editing } = page;
  const path = `${base}/mail_templates/${encodeURIComponent(editing.template)}/${encodeURIComponent(editing.language)}`;
  const names = { template: templateLabel(view, editing.template), language: languageLabel(view, editing.language) };
  const reset = editing.overridden
    ? `<form method="post" action="${esc(consoleHref(view, `${path}/reset`))}" class="inline danger"><p class="description">${esc(t('console.mail.reset_hint'))}</p><button type="submit" class="btn secondary">${esc(t('console.mail.reset'))}</button></form>`
    : '';
  return (
    backLink(view, page.projectId) +
    `<h1>${esc(t('console.mail.templates.title'))}</h1>${notice(page.notice)}` +
    `<p class="description">${esc(t('console.mail.templates.intro'))}</p>` +
    `<p class="hint">${esc(t('console.mail.templates.variables', { sample: sampleText }))}</p>` +
    sections +
    `<h2 id="edit">${esc(t('console.mail.edit', names))} <span class="muted">(${esc(t(editing.overridden ? 'console.mail.overridden' : 'console.mail.built_in'))})</span></h2>` +
    `<p class="description">${esc(t('console.mail.edit_hint'))}</p>${problemAlert(page.problem)}` +
    `<form method="post" action="${esc(consoleHref(view, path))}">` +
    `<div class="field"><label for="f-subject">${esc(t('console.mail.subject'))}</label><input id="f-subject" name="subject" maxlength="500" lang="${esc(editing.language)}" value="${esc(editing.subject)}" autocomplete="off"></div>` +
    `<div class="field"><label for="f-text">${esc(t('console.mail.text'))}</label><textarea id="f-text" name="text" rows="10" class="code" lang="${esc(editing.language)}">${esc(editing.text)}</textarea></div>` +
    `<div class="field"><label for="f-html">${esc(t('console.mail.html'))}</label><textarea id="f-html" name="html" rows="6" class="code">${esc(editing.html)}</textarea></div>` +
    `<button type="submit" class="btn primary">${esc(t('console.mail.save'))}</button></form>` +
    reset
  );
}

/** The layouts the hosted pages know (src/ui/layout.ts); a stored other one stays selectable. */
const LAYOUTS = ['centered', 'split', 'wide'];

/** The branding form, its 400 at the form, and a link that opens the hosted sign-in page. */
export function brandingMarkup(view: ConsoleView, projectId: string, branding: BrandingValues, options: { problem?: FormProblem; notice?: string }): string {
  const { t } = view;
  const base = `/console/projects/${encodeURIComponent(projectId)}`;
  const layouts = LAYOUTS.includes(branding.layout) ? LAYOUTS : [...LAYOUTS, branding.layout];
  const choices = layouts
    .map((layout) => `<option value="${esc(layout)}"${layout === branding.layout ? ' selected' : ''}>${esc(LAYOUTS.includes(layout) ? t(`console.mail.branding.layout.${layout}`) : layout)}</option>`)
    .join('');
  const url = (name: 'logo_url' | 'hero_url' | 'font_url') =>
    `<div class="field"><label for="f-${name}">${esc(t(`console.mail.branding.${name}`))}</label><input id="f-${name}" name="${name}" type="url" maxlength="2048" value="${esc(branding[name] ?? '')}" aria-describedby="f-url-hint" autocomplete="off"></div>`;
  // The hosted pages send frame-ancestors 'none': a new tab is the only preview there can be.
  const preview = `/ui/login?${new URLSearchParams({ project_id: projectId })}`;
  return (
    backLink(view, projectId) +
    `<h1>${esc(t('console.mail.branding.title'))}</h1>${notice(options.notice)}` +
    `<p class="description">${esc(t('console.mail.branding.intro'))}</p>` +
    `<p><a href="${esc(preview)}" target="_blank" rel="noopener">${esc(t('console.mail.branding.preview'))}</a></p><p class="hint">${esc(t('console.mail.branding.preview_hint'))}</p>` +
    problemAlert(options.problem) +
    `<form method="post" action="${esc(consoleHref(view, `${base}/branding`))}">` +
    `<div class="field"><label for="f-layout">${esc(t('console.mail.branding.layout'))}</label><select id="f-layout" name="layout">${choices}</select></div>` +
    url('logo_url') +
    url('hero_url') +
    url('font_url') +
    `<p class="hint" id="f-url-hint">${esc(t('console.mail.branding.url_hint'))}</p>` +
    `<div class="field"><label for="f-liquid">${esc(t('console.mail.branding.liquid_template'))}</label><textarea id="f-liquid" name="liquid_template" rows="12" class="code" aria-describedby="f-liquid-hint">${esc(branding.liquid_template)}</textarea><p class="hint" id="f-liquid-hint">${esc(t('console.mail.branding.liquid_hint'))}</p></div>` +
    `<button type="submit" class="btn primary">${esc(t('console.mail.branding.save'))}</button></form>`
  );
}
