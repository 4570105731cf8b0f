import { esc } from '../../ui/html.js';
import { problemAlert, type FormProblem } from './parts.js';
import { consoleHref, type ConsoleView } from '../render.js';
import type { ProjectSummary } from './projects.js';

export interface FlowSettings {
  redirect_uris: string[];
  risk: Record<string, number>;
}

/** A refused form of the page, and which of its forms it was (the alert goes above that one). */
export interface SettingsProblem extends FormProblem {
  form: 'general' | 'redirects' | 'risk';
}

const problemMarkup = (problem: SettingsProblem | undefined, form: SettingsProblem['form']) => (problem?.form === form ? problemAlert(problem) : '');

const lines = (values: string[]) => esc(values.join('\n'));

/** A project's settings: name and preview origins, redirect allow-list, risk and mail limits, the secret, deletion. */
export function settingsMarkup(view: ConsoleView, project: ProjectSummary, flow: FlowSettings, options: { problem?: SettingsProblem; notice?: string; secret?: string; canDelete: boolean }): string {
  const { t } = view;
  const base = `/console/projects/${encodeURIComponent(project.id)}`;
  const action = (path: string) => esc(consoleHref(view, `${base}/settings/${path}`));
  const riskFields = Object.entries(flow.risk)
    .map(([key, value]) => `<div class="field"><label for="f-risk-${esc(key)}"><code>${esc(key)}</code></label><input id="f-risk-${esc(key)}" name="${esc(key)}" type="number" min="0" max="1000000" step="1" value="${esc(value)}" required></div>`)
    .join('');
  const secret = options.secret
    ? `<div class="secret" role="status"><h2>${esc(t('console.project.secret'))}</h2><p><code class="secret-value">${esc(options.secret)}</code></p><p class="description">${esc(t('console.settings.rotated'))}</p></div>`
    : '';
  return (
    `<p><a href="${esc(consoleHref(view, base))}">${esc(t('console.back_to_project'))}</a></p>` +
    `<h1>${esc(t('console.settings.title', { name: project.name }))}</h1>` +
    (options.notice ? `<p class="notice" role="status">${esc(options.notice)}</p>` : '') +
    secret +
    `<h2>${esc(t('console.settings.general'))}</h2>${problemMarkup(options.problem, 'general')}` +
    `<form method="post" action="${action('general')}">` +
    `<div class="field"><label for="f-name">${esc(t('console.projects.name'))}</label><input id="f-name" name="name" required maxlength="200" value="${esc(project.name)}"></div>` +
    `<div class="field"><label for="f-origins">${esc(t('console.settings.preview_origins'))}</label><textarea id="f-origins" name="preview_origins" rows="3">${lines(project.preview_origins)}</textarea><p class="hint">${esc(t('console.settings.one_per_line'))}</p></div>` +
    `<button type="submit" class="btn primary">${esc(t('console.settings.save'))}</button></form>` +
    `<h2>${esc(t('console.settings.redirects'))}</h2><p class="description">${esc(t('console.settings.redirects_hint'))}</p>${problemMarkup(options.problem, 'redirects')}` +
    `<form method="post" action="${action('redirects')}">` +
    `<div class="field"><label for="f-redirects">${esc(t('console.settings.redirect_uris'))}</label><textarea id="f-redirects" name="redirect_uris" rows="4">${lines(flow.redirect_uris)}</textarea><p class="hint">${esc(t('console.settings.one_per_line'))}</p></div>` +
    `<button type="submit" class="btn primary">${esc(t('console.settings.save'))}</button></form>` +
    `<h2>${esc(t('console.settings.risk'))}</h2><p class="description">${esc(t('console.settings.risk_hint'))}</p>${problemMarkup(options.problem, 'risk')}` +
    `<form method="post" action="${action('risk')}" class="console-grid">${riskFields}<div><button type="submit" class="btn primary">${esc(t('console.settings.save'))}</button></div></form>` +
    `<h2>${esc(t('console.settings.secret'))}</h2><p class="description">${esc(t('console.settings.secret_hint'))}</p>` +
    `<form method="post" action="${action('rotate')}" class="inline danger"><div class="check"><input type="checkbox" id="f-rotate" name="confirm" value="yes" required><label for="f-rotate">${esc(t('console.settings.rotate_confirm'))}</label></div><button type="submit" class="btn secondary">${esc(t('console.settings.rotate'))}</button></form>` +
    (options.canDelete
      ? `<h2>${esc(t('console.settings.delete'))}</h2><p class="description">${esc(t('console.settings.delete_hint'))}</p>` +
        `<form method="post" action="${action('delete')}" class="inline danger"><div class="field"><label for="f-confirm-name">${esc(t('console.settings.delete_confirm', { name: project.name }))}</label><input id="f-confirm-name" name="confirm_name" required autocomplete="off"></div><button type="submit" class="btn secondary">${esc(t('console.settings.delete'))}</button></form>`
      : '')
  );
}
