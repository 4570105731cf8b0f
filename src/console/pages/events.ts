import { esc } from '../../ui/html.js';
import { problemAlert, type FormProblem } from './parts.js';
import { consoleHref, type ConsoleView } from '../render.js';

/** An event as `GET /events` lists it (docs/events.md). */
export interface EventItem {
  id: string;
  type: string;
  occurred_at: string;
  project_id: string;
  actor: { kind: string; id: string | null };
  subject: { kind: string; id: string | null };
  data: Record<string, unknown>;
}

/** The event log's filters as the page's query holds them (the form's own values, as typed). */
export interface EventFilter {
  type?: string;
  subject_id?: string;
  actor_id?: string;
  since?: string;
  until?: string;
  page_size?: string;
}

export const FILTER_FIELDS = ['type', 'subject_id', 'actor_id', 'since', 'until', 'page_size'] as const;
export const PAGE_SIZES = ['20', '50', '100'] as const;

export interface EventsPage {
  events: EventItem[];
  filter: EventFilter;
  /** the API's `next_page_token`: the link to the next (older) page */
  next?: string;
  /** whether this is a later page (a link back to the newest events) */
  paged: boolean;
  /** a refused query: the API's message and errors at the form, and the known types it listed */
  problem?: FormProblem & { knownTypes?: string[] };
}

/** The page's query for these filters (empty ones left out), with a page token when given. */
export function filterQuery(filter: EventFilter, pageToken?: string): string {
  const params = new URLSearchParams();
  for (const field of FILTER_FIELDS) if (filter[field]) params.set(field, filter[field]);
  if (pageToken) params.set('page_token', pageToken);
  const query = params.toString();
  return query ? `?${query}` : '';
}

const when = (iso: string) => iso.slice(0, 19).replace('T', ' ');

/** A party (actor or subject) as `kind` and id; a user subject links to the user's page. */
function party(view: ConsoleView, projectBase: string, value: { kind: string; id: string | null }, filterBy: 'subject_id' | 'actor_id'): string {
  if (value.id === null) return `<code>${esc(value.kind)}</code>`;
  const pages: Record<string, string> = { user: 'users', saml_provider: 'saml_providers', webhook: 'webhooks' };
  const page = Object.hasOwn(pages, value.kind) ? `${projectBase}/${pages[value.kind]}/${encodeURIComponent(value.id)}` : undefined;
  const id = page ? `<a href="${esc(consoleHref(view, page))}"><code>${esc(value.id)}</code></a>` : `<code>${esc(value.id)}</code>`;
  const only = `<a href="${esc(consoleHref(view, `${projectBase}/events${filterQuery({ [filterBy]: value.id })}`))}" class="muted">${esc(view.t(filterBy === 'subject_id' ? 'console.events.only_subject' : 'console.events.only_actor'))}</a>`;
  return `<code>${esc(value.kind)}</code><br>${id}<br>${only}`;
}

/** The events as a table: time, type, subject, actor, and under each row the event in full behind a disclosure. */
export function eventsTable(view: ConsoleView, projectId: string, events: EventItem[]): string {
  const { t } = view;
  const projectBase = `/console/projects/${encodeURIComponent(projectId)}`;
  const rows = events
    .map(
      (event) =>
        `<tr class="event"><td>${esc(when(event.occurred_at))}</td>` +
        `<td><a href="${esc(consoleHref(view, `${projectBase}/events${filterQuery({ type: event.type })}`))}"><code>${esc(event.type)}</code></a></td>` +
        `<td>${party(view, projectBase, event.subject, 'subject_id')}</td><td>${party(view, projectBase, event.actor, 'actor_id')}</td></tr>` +
        // The event in full under its row, across the table: the JSON gets the width, the ids keep theirs.
        `<tr class="event-detail"><td colspan="4"><details><summary>${esc(t('console.events.details'))}</summary>` +
        `<pre class="snippet" tabindex="0"><code>${esc(JSON.stringify(event, null, 2))}</code></pre></details></td></tr>`,
    )
    .join('');
  const headings = ['console.events.when', 'console.events.type', 'console.events.subject', 'console.events.actor'];
  return `<table class="console-table console-events"><thead><tr>${headings.map((key) => `<th scope="col">${esc(t(key))}</th>`).join('')}</tr></thead><tbody>${rows}</tbody></table>`;
}

/** `aria-invalid` on a filter the API named (`querystring/<name>`, the route's own checks and the schema's alike). */
const invalid = (problem: FormProblem | undefined, field: string) => (problem?.errors.some((error) => error.path === `querystring/${field}`) ? ' aria-invalid="true"' : '');

const field = (view: ConsoleView, name: keyof EventFilter, value: string | undefined, attributes: string, hint?: string) =>
  `<div class="field"><label for="f-ev-${name}">${esc(view.t(`console.events.filter.${name}`))}</label><input id="f-ev-${name}" name="${name}" value="${esc(value ?? '')}" autocomplete="off"${attributes}${hint ? ` aria-describedby="f-ev-${name}-hint"` : ''}>` +
  (hint ? `<p class="hint" id="f-ev-${name}-hint">${esc(hint)}</p>` : '') +
  `</div>`;

/** The project's event log: the filter form, the events newest first, and the cursor's next page. */
export function eventsMarkup(view: ConsoleView, projectId: string, page: EventsPage): string {
  const { t } = view;
  const { filter, problem } = page;
  const projectBase = `/console/projects/${encodeURIComponent(projectId)}`;
  const base = `${projectBase}/events`;
  const known = problem?.knownTypes?.length ? `<div class="alert" role="note"><p>${esc(t('console.events.known_types'))}</p><p>${problem.knownTypes.map((type) => `<code>${esc(type)}</code>`).join(' ')}</p></div>` : '';
  const form =
    `<form method="get" action="${esc(base)}" role="search" aria-label="${esc(t('console.events.filters'))}">` +
    (view.explicitLang ? `<input type="hidden" name="lang" value="${esc(view.lang)}">` : '') +
    `<div class="console-grid">` +
    field(view, 'type', filter.type, ` maxlength="1000"${invalid(problem, 'type')}`, t('console.events.filter.type_hint')) +
    field(view, 'subject_id', filter.subject_id, ` maxlength="64"${invalid(problem, 'subject_id')}`) +
    field(view, 'actor_id', filter.actor_id, ` maxlength="64"${invalid(problem, 'actor_id')}`) +
    field(view, 'since', filter.since, ` type="datetime-local" step="1"${invalid(problem, 'since')}`, t('console.events.filter.utc')) +
    field(view, 'until', filter.until, ` type="datetime-local" step="1"${invalid(problem, 'until')}`, t('console.events.filter.utc')) +
    `<div class="field"><label for="f-ev-page_size">${esc(t('console.events.filter.page_size'))}</label><select id="f-ev-page_size" name="page_size">` +
    PAGE_SIZES.map((size) => `<option value="${size}"${(filter.page_size ?? '20') === size ? ' selected' : ''}>${size}</option>`).join('') +
    `</select></div></div>` +
    `<p class="console-actions"><button type="submit" class="btn primary">${esc(t('console.events.filter'))}</button> <a href="${esc(consoleHref(view, base))}">${esc(t('console.events.clear'))}</a></p></form>`;
  const filtered = FILTER_FIELDS.some((name) => name !== 'page_size' && filter[name]);
  const list = problem
    ? ''
    : page.events.length
      ? eventsTable(view, projectId, page.events)
      : `<p class="description">${esc(t(filtered ? 'console.events.none_found' : 'console.events.empty'))}</p>`;
  const paging = [
    page.paged ? `<a href="${esc(consoleHref(view, `${base}${filterQuery(filter)}`))}">${esc(t('console.events.newest'))}</a>` : '',
    page.next ? `<a class="btn secondary" rel="next" href="${esc(consoleHref(view, `${base}${filterQuery(filter, page.next)}`))}">${esc(t('console.events.older'))}</a>` : '',
  ].filter(Boolean);
  return (
    `<p><a href="${esc(consoleHref(view, projectBase))}">${esc(t('console.back_to_project'))}</a></p>` +
    `<h1>${esc(t('console.events.title'))}</h1><p class="description">${esc(t('console.events.intro'))}</p>` +
    problemAlert(problem) +
    known +
    form +
    list +
    (paging.length ? `<nav class="console-actions" aria-label="${esc(t('console.events.paging'))}">${paging.join(' ')}</nav>` : '')
  );
}
