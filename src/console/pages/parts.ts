import { esc } from '../../ui/html.js';
import { consoleHref, type ConsoleView } from '../render.js';

/** One error of a refused request, under the path the API names (`body/name`, `params/id`…). */
export interface FieldError {
  path: string;
  message: string;
}

/** What a refused form shows: the API's message, its errors by path, and (some forms) the text as typed. */
export interface FormProblem {
  message: string;
  errors: FieldError[];
  text?: string;
}

/** The errors as list items, each with its path. */
export const errorItems = (errors: FieldError[]) => errors.map((error) => `<li><code>${esc(error.path)}</code> ${esc(error.message)}</li>`).join('');

/** The alert above a refused form: the message, then each error with its path (`errors` overrides the problem's own). */
export function problemAlert(problem: FormProblem | undefined, errors: FieldError[] = problem?.errors ?? []): string {
  if (!problem) return '';
  const items = errorItems(errors);
  return `<div class="alert" role="alert"><p>${esc(problem.message)}</p>${items ? `<ul>${items}</ul>` : ''}</div>`;
}

/**
 * The note after a write (PRG: `?notice=<name>`): only a name the page knows is shown, as the text
 * `<prefix><name>`, so a crafted query string can only pick one of the page's own texts.
 */
export function noticeMarkup(view: ConsoleView, value: unknown, known: ReadonlySet<string>, prefix: string): string {
  return typeof value === 'string' && known.has(value) ? `<p class="notice" role="status">${esc(view.t(`${prefix}${value}`))}</p>` : '';
}

/** `aria-invalid` on a control whose field an error names (`body/redirect_uris/0` names `redirect_uris`). */
export function invalid(problem: FormProblem | undefined, field: string): string {
  return problem?.errors.some((error) => error.path.split('/')[1] === field) ? ' aria-invalid="true"' : '';
}

export const textField = (id: string, name: string, label: string, value: string, attributes = '', hint = '') =>
  `<div class="field"><label for="${id}">${esc(label)}</label><input id="${id}" name="${name}" value="${esc(value)}"${attributes}>${hint ? `<p class="hint">${esc(hint)}</p>` : ''}</div>`;
export const areaField = (id: string, name: string, label: string, value: string, attributes = '', hint = '') =>
  `<div class="field"><label for="${id}">${esc(label)}</label><textarea id="${id}" name="${name}" rows="3"${attributes}>${esc(value)}</textarea>${hint ? `<p class="hint">${esc(hint)}</p>` : ''}</div>`;
export const selectField = (id: string, name: string, label: string, choices: Array<{ value: string; label: string }>, chosen: string, attributes = '') =>
  `<div class="field"><label for="${id}">${esc(label)}</label><select id="${id}" name="${name}"${attributes}>${choices.map((c) => `<option value="${esc(c.value)}"${c.value === chosen ? ' selected' : ''}>${esc(c.label)}</option>`).join('')}</select></div>`;

/** A delete button behind a confirmation box (the route deletes only with `confirm=yes`). */
export function deleteForm(view: ConsoleView, action: string, id: string, confirmText: string): string {
  return (
    `<form method="post" action="${esc(consoleHref(view, action))}" class="inline danger"><div class="check"><input type="checkbox" id="${esc(id)}" name="confirm" value="yes" required>` +
    `<label for="${esc(id)}">${esc(confirmText)}</label></div><button type="submit" class="btn secondary">${esc(view.t('console.clients.delete'))}</button></form>`
  );
}

export const table = (headings: string[], rows: string) => `<table class="console-table"><thead><tr>${headings.map((h) => `<th scope="col">${h}</th>`).join('')}</tr></thead><tbody>${rows}</tbody></table>`;
export const codeList = (values: string[]) => values.map((value) => `<code>${esc(value)}</code>`).join('<br>');
