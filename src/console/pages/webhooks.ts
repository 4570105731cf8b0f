import { esc } from '../../ui/html.js';
import { consoleHref, type ConsoleView } from '../render.js';
import { filterQuery } from './events.js';
import { codeList, deleteForm, invalid, noticeMarkup, problemAlert, table, textField, type FormProblem } from './parts.js';

/** A webhook endpoint as `GET /projects/{id}/webhooks` answers it (src/webhooks/routes.ts): never its secret. */
export interface Webhook {
  id: string;
  url: string;
  events: string[];
  description?: string;
  enabled: boolean;
  disabled_at?: string;
  failing_since?: string;
  created_at: string;
}

/** A delivery as `GET …/webhooks/{wid}/deliveries` lists it. */
export interface Delivery {
  id: string;
  event_id: string;
  event_type: string;
  occurred_at: string;
  status: 'pending' | 'delivered' | 'failed';
  attempts: number;
  next_attempt_at?: string;
  last_status_code?: number;
  last_error?: string;
  delivered_at?: string;
  created_at: string;
}

/** The form as typed (or as stored, on the endpoint page), shown again after a refusal. */
export type WebhookDraft = Record<string, string>;

/** A refused form: the API's message and errors, and the event types it listed for an unknown one. */
export type WebhookProblem = FormProblem & { knownTypes?: string[] };

const NOTICES = new Set(['created', 'saved', 'enabled', 'disabled', 'redelivered', 'deleted', 'not_confirmed', 'rotate_not_confirmed']);

const when = (iso: string) => iso.slice(0, 19).replace('T', ' ');

/** The event log's query for exactly this event: its type and its millisecond (`datetime-local` values, read as UTC). */
function eventLink(delivery: Delivery): string {
  const at = new Date(delivery.occurred_at);
  const local = (date: Date) => date.toISOString().replace(/Z$/, '');
  return filterQuery({ type: delivery.event_type, since: local(at), until: local(new Date(at.getTime() + 1)) });
}

/** The known types the API listed with an unknown one. */
const knownTypes = (view: ConsoleView, problem: WebhookProblem | undefined) =>
  problem?.knownTypes?.length ? `<div class="alert" role="note"><p>${esc(view.t('console.webhooks.known_types'))}</p><p>${problem.knownTypes.map((type) => `<code>${esc(type)}</code>`).join(' ')}</p></div>` : '';

/** The form's fields: URL, event types (comma-separated), description. */
function webhookForm(view: ConsoleView, action: string, draft: WebhookDraft, problem: WebhookProblem | undefined, button: string): string {
  const { t } = view;
  return (
    `<form method="post" action="${esc(consoleHref(view, action))}">` +
    textField('f-wh-url', 'url', t('console.webhooks.url'), draft.url ?? '', ` type="url" required maxlength="2048" autocomplete="off"${invalid(problem, 'url')}`) +
    textField('f-wh-events', 'events', t('console.webhooks.events'), draft.events ?? '', ` required maxlength="5000" autocomplete="off" spellcheck="false"${invalid(problem, 'events')}`, t('console.webhooks.events_hint')) +
    textField('f-wh-description', 'description', t('console.webhooks.description'), draft.description ?? '', ` maxlength="500" autocomplete="off"${invalid(problem, 'description')}`) +
    `<button type="submit" class="btn primary">${esc(t(button))}</button></form>`
  );
}

/** Enabled or disabled, and since when it fails. */
function stateOf(view: ConsoleView, webhook: Webhook): string {
  const { t } = view;
  const state = webhook.enabled ? esc(t('console.webhooks.enabled')) : esc(webhook.disabled_at ? t('console.webhooks.disabled_since', { when: when(webhook.disabled_at) }) : t('console.webhooks.disabled'));
  return state + (webhook.failing_since ? `<br><strong>${esc(t('console.webhooks.failing_since', { when: when(webhook.failing_since) }))}</strong>` : '');
}

/** A signing secret, shown in the answer that made it and never again. */
function secretBox(view: ConsoleView, heading: string, secret: string, previousUntil?: string): string {
  const { t } = view;
  return (
    `<div class="secret" role="status"><h2>${esc(t(heading))}</h2><p><code class="secret-value">${esc(secret)}</code></p>` +
    `<p class="description">${esc(t('console.webhooks.secret_once'))}</p>` +
    (previousUntil ? `<p class="description">${esc(t('console.webhooks.previous_until', { when: when(previousUntil) }))}</p>` : '') +
    `</div>`
  );
}

export interface WebhooksPage {
  webhooks: Webhook[];
  more: boolean;
  notice?: unknown;
  /** the answer of a create: its secret is shown here, this once */
  created?: Webhook & { secret: string };
  problem?: WebhookProblem;
  draft?: WebhookDraft;
}

/** A project's webhook endpoints: the list with delete, the form that adds one, and a new endpoint's secret once. */
export function webhooksMarkup(view: ConsoleView, projectId: string, page: WebhooksPage): string {
  const { t } = view;
  const project = `/console/projects/${encodeURIComponent(projectId)}`;
  const base = `${project}/webhooks`;
  const rows = page.webhooks
    .map((webhook) => {
      const href = `${base}/${encodeURIComponent(webhook.id)}`;
      return (
        `<tr><td><a href="${esc(consoleHref(view, href))}"><code>${esc(webhook.url)}</code></a><br><code>${esc(webhook.id)}</code>${webhook.description ? `<br>${esc(webhook.description)}` : ''}</td>` +
        `<td>${codeList(webhook.events)}</td><td>${stateOf(view, webhook)}</td>` +
        `<td>${deleteForm(view, `${href}/delete`, `f-delete-${webhook.id}`, t('console.webhooks.delete_confirm', { url: webhook.url }))}</td></tr>`
      );
    })
    .join('');
  const created = page.created
    ? secretBox(view, 'console.webhooks.created', page.created.secret) +
      `<p><a href="${esc(consoleHref(view, `${base}/${encodeURIComponent(page.created.id)}`))}">${esc(t('console.webhooks.endpoint_title', { id: page.created.id }))}</a></p>`
    : '';
  return (
    `<p><a href="${esc(consoleHref(view, project))}">${esc(t('console.back_to_project'))}</a></p>` +
    `<h1>${esc(t('console.webhooks.title'))}</h1><p class="description">${esc(t('console.webhooks.intro'))}</p>` +
    noticeMarkup(view, page.notice, NOTICES, 'console.webhooks.notice.') +
    created +
    (page.webhooks.length
      ? table([esc(t('console.webhooks.url')), esc(t('console.webhooks.events_short')), esc(t('console.webhooks.state')), `<span class="muted">${esc(t('console.user.actions'))}</span>`], rows)
      : `<p class="description">${esc(t('console.webhooks.empty'))}</p>`) +
    (page.more ? `<p class="description">${esc(t('console.webhooks.more'))}</p>` : '') +
    `<h2>${esc(t('console.webhooks.create'))}</h2>${problemAlert(page.problem)}${knownTypes(view, page.problem)}` +
    webhookForm(view, base, page.draft ?? {}, page.problem, 'console.webhooks.create')
  );
}

export interface WebhookPage {
  webhook: Webhook;
  deliveries: Delivery[];
  /** the API's `next_page_token`: the link to older deliveries */
  next?: string;
  /** whether this is a later page of deliveries */
  paged: boolean;
  notice?: unknown;
  rotated?: { secret: string; previous_valid_until: string };
  problem?: WebhookProblem;
  draft?: WebhookDraft;
}

/** An endpoint's deliveries: the event (linking to it in the event log), status, attempts, the last answer, and "send again". */
function deliveriesTable(view: ConsoleView, projectBase: string, base: string, deliveries: Delivery[]): string {
  const { t } = view;
  const rows = deliveries
    .map(
      (delivery) =>
        `<tr><td><a href="${esc(consoleHref(view, `${projectBase}/events${eventLink(delivery)}`))}"><code>${esc(delivery.event_type)}</code></a><br>${esc(when(delivery.occurred_at))}<br><code>${esc(delivery.id)}</code></td>` +
        `<td>${esc(t(`console.webhooks.status.${delivery.status}`))}${delivery.delivered_at ? `<br>${esc(t('console.webhooks.delivered_at', { when: when(delivery.delivered_at) }))}` : ''}</td>` +
        `<td>${delivery.attempts}</td>` +
        `<td>${delivery.last_status_code !== undefined ? `<code>${delivery.last_status_code}</code>` : ''}${delivery.last_error ? `${delivery.last_status_code !== undefined ? '<br>' : ''}${esc(delivery.last_error)}` : ''}</td>` +
        `<td>${delivery.next_attempt_at ? esc(when(delivery.next_attempt_at)) : ''}</td>` +
        `<td><form method="post" action="${esc(consoleHref(view, `${base}/deliveries/${encodeURIComponent(delivery.id)}/redeliver`))}" class="inline">` +
        `<button type="submit" class="btn secondary" aria-label="${esc(`${t('console.webhooks.redeliver')}: ${delivery.id}`)}">${esc(t('console.webhooks.redeliver'))}</button></form></td></tr>`,
    )
    .join('');
  const headings = ['console.webhooks.event', 'console.webhooks.status', 'console.webhooks.attempts', 'console.webhooks.last_answer', 'console.webhooks.next_attempt'].map((key) => esc(t(key)));
  return table([...headings, `<span class="muted">${esc(t('console.user.actions'))}</span>`], rows);
}

/** One endpoint: its settings (PATCH), enable or disable, rotate the secret, delete, and its deliveries with the API's cursor. */
export function webhookMarkup(view: ConsoleView, projectId: string, page: WebhookPage): string {
  const { t } = view;
  const { webhook } = page;
  const projectBase = `/console/projects/${encodeURIComponent(projectId)}`;
  const list = `${projectBase}/webhooks`;
  const base = `${list}/${encodeURIComponent(webhook.id)}`;
  const draft = page.draft ?? { url: webhook.url, events: webhook.events.join(', '), description: webhook.description ?? '' };
  const paging = [
    page.paged ? `<a href="${esc(consoleHref(view, base))}">${esc(t('console.webhooks.newest'))}</a>` : '',
    page.next ? `<a class="btn secondary" rel="next" href="${esc(consoleHref(view, `${base}?page_token=${encodeURIComponent(page.next)}`))}">${esc(t('console.webhooks.older'))}</a>` : '',
  ].filter(Boolean);
  return (
    `<p><a href="${esc(consoleHref(view, list))}">${esc(t('console.webhooks.back'))}</a></p>` +
    `<h1>${esc(t('console.webhooks.endpoint_title', { id: webhook.id }))}</h1>` +
    noticeMarkup(view, page.notice, NOTICES, 'console.webhooks.notice.') +
    (page.rotated ? secretBox(view, 'console.webhooks.rotated', page.rotated.secret, page.rotated.previous_valid_until) : '') +
    `<dl class="console-facts"><dt>URL</dt><dd><code>${esc(webhook.url)}</code></dd>` +
    `<dt>${esc(t('console.webhooks.events_short'))}</dt><dd>${codeList(webhook.events)}</dd>` +
    `<dt>${esc(t('console.webhooks.state'))}</dt><dd>${stateOf(view, webhook)}</dd>` +
    `<dt>${esc(t('console.projects.created'))}</dt><dd>${esc(when(webhook.created_at))}</dd></dl>` +
    `<form method="post" action="${esc(consoleHref(view, `${base}/enabled`))}" class="inline"><input type="hidden" name="enabled" value="${webhook.enabled ? 'no' : 'yes'}">` +
    `<button type="submit" class="btn secondary">${esc(t(webhook.enabled ? 'console.webhooks.disable' : 'console.webhooks.enable'))}</button></form>` +
    (webhook.enabled ? '' : `<p class="hint">${esc(t('console.webhooks.enable_hint'))}</p>`) +
    `<p><a href="${esc(consoleHref(view, `${projectBase}/events${filterQuery({ subject_id: webhook.id })}`))}">${esc(t('console.webhooks.its_events'))}</a></p>` +
    `<h2>${esc(t('console.webhooks.deliveries'))}</h2><p class="description">${esc(t('console.webhooks.deliveries_intro'))}</p>` +
    (page.deliveries.length ? deliveriesTable(view, projectBase, base, page.deliveries) : `<p class="description">${esc(t('console.webhooks.no_deliveries'))}</p>`) +
    (paging.length ? `<nav class="console-actions" aria-label="${esc(t('console.webhooks.paging'))}">${paging.join(' ')}</nav>` : '') +
    `<h2>${esc(t('console.webhooks.settings'))}</h2>${problemAlert(page.problem)}${knownTypes(view, page.problem)}` +
    webhookForm(view, base, draft, page.problem, 'console.webhooks.save') +
    `<h2>${esc(t('console.webhooks.rotate'))}</h2>` +
    `<form method="post" action="${esc(consoleHref(view, `${base}/rotate_secret`))}" class="inline"><div class="check"><input type="checkbox" id="f-wh-rotate" name="confirm" value="yes" required>` +
    `<label for="f-wh-rotate">${esc(t('console.webhooks.rotate_confirm'))}</label></div><button type="submit" class="btn secondary">${esc(t('console.webhooks.rotate_button'))}</button></form>` +
    `<h2>${esc(t('console.webhooks.delete'))}</h2>` +
    deleteForm(view, `${base}/delete`, 'f-delete-webhook', t('console.webhooks.delete_confirm', { url: webhook.url }))
  );
}
