import { esc } from '../../ui/html.js';
import { noticeMarkup, problemAlert, type FormProblem } from './parts.js';
import { consoleHref, type ConsoleView } from '../render.js';
import { eventsTable, filterQuery, type EventItem } from './events.js';

export interface UserResource {
  id: string;
  schema: string;
  attributes: Record<string, unknown>;
  metadata: { created_at: string; updated_at: string; status: string };
}

export interface SessionItem {
  session_id: string;
  state: string;
  factors: Array<{ method: string; verified_at: string }>;
  assurance_levels: string[];
  user_agent: { ip?: string };
  created_at: string;
  expires_at: string;
}

export interface CredentialItem {
  id: string;
  method: string;
  name: string | null;
  created_at: string;
  last_used_at: string | null;
}

const NOTICES = new Set(['revoked', 'unlocked', 'deleted', 'saved', 'credential_removed', 'recovery_sent']);

const noticeOf = (view: ConsoleView, value: unknown) => noticeMarkup(view, value, NOTICES, 'console.notice.');

/** The project's users, or the one an identifier search found. */
export function usersMarkup(view: ConsoleView, projectId: string, users: UserResource[], options: { identifier?: string; notice?: unknown; more: boolean }): string {
  const { t } = view;
  const base = `/console/projects/${encodeURIComponent(projectId)}`;
  const rows = users
    .map((user) => {
      const label = typeof user.attributes.email === 'string' ? user.attributes.email : typeof user.attributes.username === 'string' ? user.attributes.username : user.id;
      return `<tr><td><a href="${esc(consoleHref(view, `${base}/users/${encodeURIComponent(user.id)}`))}">${esc(label)}</a></td><td><code>${esc(user.id)}</code></td><td>${esc(user.metadata.status)}</td><td>${esc(user.metadata.created_at.slice(0, 10))}</td></tr>`;
    })
    .join('');
  const table = users.length
    ? `<table class="console-table"><thead><tr><th scope="col">${esc(t('console.users.identifier'))}</th><th scope="col">${esc(t('console.users.id'))}</th><th scope="col">${esc(t('console.users.status'))}</th><th scope="col">${esc(t('console.projects.created'))}</th></tr></thead><tbody>${rows}</tbody></table>`
    : `<p class="description">${esc(t(options.identifier !== undefined ? 'console.users.none_found' : 'console.users.empty'))}</p>`;
  return (
    `<p><a href="${esc(consoleHref(view, base))}">${esc(t('console.back_to_project'))}</a></p>` +
    `<h1>${esc(t('console.users.title'))}</h1>${noticeOf(view, options.notice)}` +
    `<form method="get" action="${esc(`${base}/users`)}" role="search">` +
    (view.explicitLang ? `<input type="hidden" name="lang" value="${esc(view.lang)}">` : '') +
    `<div class="field"><label for="f-identifier">${esc(t('console.users.search'))}</label><input id="f-identifier" name="identifier" type="search" maxlength="320" value="${esc(options.identifier ?? '')}" autocomplete="off"></div>` +
    `<button type="submit" class="btn secondary">${esc(t('console.users.search_button'))}</button></form>` +
    table +
    (options.more ? `<p class="description">${esc(t('console.users.more'))}</p>` : '')
  );
}

const postButton = (action: string, label: string, extra = '') =>
  `<form method="post" action="${esc(action)}" class="inline">${extra}<button type="submit" class="btn secondary">${esc(label)}</button></form>`;

export interface AuditEvent {
  attribute: string;
  action: string;
  actor: string;
  created_at: string;
}

export interface UserPage {
  user: UserResource;
  sessions: SessionItem[];
  credentials: CredentialItem[];
  audit: AuditEvent[];
  /** the newest events about the user (`GET /events?subject_id=`), and whether there are older ones */
  events: { events: EventItem[]; more: boolean };
  notice?: unknown;
  /** the attributes as typed, and what the API said about them (a refused edit) */
  attributes?: FormProblem & { text: string };
  /** what the API said when it refused to send a recovery mail */
  recovery?: FormProblem;
}

/** The user's newest events, with links to the event log filtered to what is about them and what they did. */
function userEventsMarkup(view: ConsoleView, projectId: string, userId: string, events: UserPage['events']): string {
  const { t } = view;
  const log = `/console/projects/${encodeURIComponent(projectId)}/events`;
  const links =
    `<p class="console-actions"><a href="${esc(consoleHref(view, `${log}${filterQuery({ subject_id: userId })}`))}">${esc(t('console.user.all_events'))}</a>` +
    ` <a href="${esc(consoleHref(view, `${log}${filterQuery({ actor_id: userId })}`))}">${esc(t('console.user.events_by'))}</a></p>`;
  return `<h2>${esc(t('console.user.events'))}</h2>` + (events.events.length ? eventsTable(view, projectId, events.events) : `<p class="description">${esc(t('console.user.no_events'))}</p>`) + links;
}

/** One user: attributes (edited as JSON against the schema), credentials, live sessions, events, audit trail, unlock, recovery mail and delete. */
export function userMarkup(view: ConsoleView, projectId: string, page: UserPage): string {
  const { user, sessions, credentials, audit, notice } = page;
  const { t } = view;
  const base = `/console/projects/${encodeURIComponent(projectId)}/users/${encodeURIComponent(user.id)}`;
  const sessionRows = sessions
    .map(
      (session) =>
        `<tr><td><code>${esc(session.session_id)}</code></td><td>${esc(session.factors.map((f) => f.method).join(', '))}</td><td>${esc(session.assurance_levels.map((l) => l.replace('urn:nist:aal:', 'AAL')).join(', '))}</td><td>${esc(session.created_at.slice(0, 16).replace('T', ' '))}</td>` +
        `<td>${postButton(consoleHref(view, `${base}/sessions/${encodeURIComponent(session.session_id)}/revoke`), t('console.user.revoke'))}</td></tr>`,
    )
    .join('');
  const credentialRows = credentials
    .map((c) => `<li>${esc(c.method)}${c.name ? ` (${esc(c.name)})` : ''} · ${esc(c.created_at.slice(0, 10))} ${postButton(consoleHref(view, `${base}/credentials/${encodeURIComponent(c.id)}/remove`), t('console.user.remove_credential'))}</li>`)
    .join('');
  const refused = problemAlert(page.attributes);
  const auditRows = audit.map((e) => `<tr><td>${esc(e.created_at.slice(0, 19).replace('T', ' '))}</td><td><code>${esc(e.attribute)}</code></td><td>${esc(e.action)}</td><td><code>${esc(e.actor)}</code></td></tr>`).join('');
  return (
    `<p><a href="${esc(consoleHref(view, `/console/projects/${encodeURIComponent(projectId)}/users`))}">${esc(t('console.back_to_users'))}</a></p>` +
    `<h1>${esc(t('console.user.title'))}</h1>${noticeOf(view, notice)}` +
    `<dl class="console-facts"><dt>${esc(t('console.users.id'))}</dt><dd><code>${esc(user.id)}</code></dd><dt>${esc(t('console.users.status'))}</dt><dd>${esc(user.metadata.status)}</dd><dt>${esc(t('console.user.schema'))}</dt><dd><code>${esc(user.schema)}</code></dd></dl>` +
    `<h2>${esc(t('console.user.attributes'))}</h2>${refused}` +
    `<form method="post" action="${esc(consoleHref(view, `${base}/attributes`))}"><div class="field"><label for="f-attributes">${esc(t('console.user.attributes_json'))}</label>` +
    `<textarea id="f-attributes" name="attributes" rows="8" class="code"${page.attributes ? ' aria-invalid="true"' : ''}>${esc(page.attributes?.text ?? JSON.stringify(user.attributes, null, 2))}</textarea></div>` +
    `<button type="submit" class="btn primary">${esc(t('console.settings.save'))}</button></form>` +
    `<h2>${esc(t('console.user.credentials'))}</h2>` +
    (credentials.length ? `<ul class="console-list">${credentialRows}</ul>` : `<p class="description">${esc(t('console.user.no_credentials'))}</p>`) +
    `<h2>${esc(t('console.user.sessions'))}</h2>` +
    (sessions.length
      ? `<table class="console-table"><thead><tr><th scope="col">${esc(t('console.user.session'))}</th><th scope="col">${esc(t('console.user.factors'))}</th><th scope="col">${esc(t('console.user.levels'))}</th><th scope="col">${esc(t('console.projects.created'))}</th><th scope="col"><span class="muted">${esc(t('console.user.actions'))}</span></th></tr></thead><tbody>${sessionRows}</tbody></table>`
      : `<p class="description">${esc(t('console.user.no_sessions'))}</p>`) +
    userEventsMarkup(view, projectId, user.id, page.events) +
    `<h2>${esc(t('console.user.audit'))}</h2>` +
    (audit.length
      ? `<table class="console-table"><thead><tr><th scope="col">${esc(t('console.user.when'))}</th><th scope="col">${esc(t('console.user.attribute'))}</th><th scope="col">${esc(t('console.user.action'))}</th><th scope="col">${esc(t('console.user.actor'))}</th></tr></thead><tbody>${auditRows}</tbody></table>`
      : `<p class="description">${esc(t('console.user.no_audit'))}</p>`) +
    `<h2>${esc(t('console.user.actions'))}</h2>` +
    problemAlert(page.recovery) +
    `<div class="console-actions">${postButton(consoleHref(view, `${base}/unlock`), t('console.user.unlock'))}` +
    `<form method="post" action="${esc(consoleHref(view, `${base}/recovery_link`))}" class="inline"><div class="field"><label for="f-language">${esc(t('console.user.recovery_language'))}</label>` +
    `<select id="f-language" name="language" aria-describedby="f-recovery-hint">${(['en', 'de'] as const).map((lang) => `<option value="${lang}"${lang === view.lang ? ' selected' : ''}>${esc(t(`console.mail.language.${lang}`))}</option>`).join('')}</select></div>` +
    `<p id="f-recovery-hint" class="hint">${esc(t('console.user.recovery_hint'))}</p><button type="submit" class="btn secondary">${esc(t('console.user.recovery'))}</button></form>` +
    `<form method="post" action="${esc(consoleHref(view, `${base}/delete`))}" class="inline danger"><div class="check"><input type="checkbox" id="f-confirm" name="confirm" value="yes" required><label for="f-confirm">${esc(t('console.user.delete_confirm'))}</label></div><button type="submit" class="btn secondary">${esc(t('console.user.delete'))}</button></form></div>`
  );
}

export interface OutboxMessage {
  recipient: string;
  subject: string;
  status: string;
  body: string | null;
  created_at: string;
}

/** Development's mail: what the embedded courier would have sent, codes and links included. */
export function outboxMarkup(view: ConsoleView, projectId: string, messages: OutboxMessage[]): string {
  const { t } = view;
  const items = messages
    .map((m) => `<article class="mail"><h2>${esc(m.subject)}</h2><p class="description">${esc(t('console.outbox.to', { recipient: m.recipient }))} · ${esc(m.created_at.slice(0, 19).replace('T', ' '))} · ${esc(m.status)}</p><pre class="snippet" tabindex="0"><code>${esc(m.body ?? '')}</code></pre></article>`)
    .join('');
  return (
    `<p><a href="${esc(consoleHref(view, `/console/projects/${encodeURIComponent(projectId)}`))}">${esc(t('console.back_to_project'))}</a></p>` +
    `<h1>${esc(t('console.outbox.title'))}</h1><p class="description">${esc(t('console.outbox.intro'))}</p>` +
    (messages.length ? items : `<p class="description">${esc(t('console.outbox.empty'))}</p>`)
  );
}
