import { esc } from '../../ui/html.js';
import type { ConsoleView } from '../render.js';

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
