import { SCOPES } from '../../core/scopes.js';
import { esc } from '../../ui/html.js';
import { consoleHref, type ConsoleView } from '../render.js';

export interface ServiceKey {
  id: string;
  name: string;
  client_id: string;
  scopes: string[];
  created_at: string;
}

/** What an app's backend needs for the handoff exchange and session checks (docs/sdk.md). */
const SUGGESTED = new Set(['session.write', 'session.read']);

/** A project's service keys: the list with delete, the create form, and a new key's secret once. */
export function keysMarkup(view: ConsoleView, projectId: string, keys: ServiceKey[], created?: ServiceKey & { client_secret: string }, error?: string): string {
  const { t } = view;
  const base = `/console/projects/${encodeURIComponent(projectId)}/keys`;
  const rows = keys
    .map(
      (key) =>
        `<tr><td>${esc(key.name)}</td><td><code>${esc(key.client_id)}</code></td><td>${esc(key.scopes.join(', '))}</td><td>${esc(key.created_at.slice(0, 10))}</td>` +
        `<td><form method="post" action="${esc(consoleHref(view, `${base}/${encodeURIComponent(key.id)}/delete`))}" class="inline"><button type="submit" class="btn secondary">${esc(t('console.keys.delete'))}</button></form></td></tr>`,
    )
    .join('');
  const shown = created
    ? `<div class="secret" role="status"><h2>${esc(t('console.keys.created'))}</h2><pre class="snippet" tabindex="0"><code>GATEHOUSE_KEY_ID=${esc(created.client_id)}\nGATEHOUSE_KEY_SECRET=${esc(created.client_secret)}</code></pre><p class="description">${esc(t('console.keys.secret_once'))}</p></div>`
    : '';
  const scopes = SCOPES.map(
    (scope) => `<div class="check"><input type="checkbox" id="f-scope-${esc(scope)}" name="scopes" value="${esc(scope)}"${SUGGESTED.has(scope) ? ' checked' : ''}><label for="f-scope-${esc(scope)}"><code>${esc(scope)}</code></label></div>`,
  ).join('');
  return (
    `<p><a href="${esc(consoleHref(view, `/console/projects/${encodeURIComponent(projectId)}`))}">${esc(t('console.back_to_project'))}</a></p>` +
    `<h1>${esc(t('console.keys.title'))}</h1><p class="description">${esc(t('console.keys.intro'))}</p>` +
    shown +
    (keys.length
      ? `<table class="console-table"><thead><tr><th scope="col">${esc(t('console.projects.name'))}</th><th scope="col">${esc(t('console.keys.client_id'))}</th><th scope="col">${esc(t('console.keys.scopes'))}</th><th scope="col">${esc(t('console.projects.created'))}</th><th scope="col"><span class="muted">${esc(t('console.user.actions'))}</span></th></tr></thead><tbody>${rows}</tbody></table>`
      : `<p class="description">${esc(t('console.keys.empty'))}</p>`) +
    `<h2>${esc(t('console.keys.create'))}</h2>` +
    (error ? `<p class="alert" role="alert">${esc(error)}</p>` : '') +
    `<form method="post" action="${esc(consoleHref(view, base))}">` +
    `<div class="field"><label for="f-key-name">${esc(t('console.projects.name'))}</label><input id="f-key-name" name="name" maxlength="200" value="app backend"></div>` +
    `<fieldset class="choices console-grid"><legend>${esc(t('console.keys.scopes'))}</legend>${scopes}</fieldset>` +
    `<button type="submit" class="btn primary">${esc(t('console.keys.create'))}</button></form>`
  );
}

export interface RoleGrant {
  user_id: string;
  role: 'instance_admin' | 'project_admin';
  project_id: string | null;
  granted_at: string;
}

/** The operators' roles (instance admins): the list with revoke, and the grant form by e-mail address. */
export function operatorsMarkup(view: ConsoleView, roles: RoleGrant[], projects: Array<{ id: string; name: string }>, options: { error?: string; notice?: string } = {}): string {
  const { t } = view;
  const nameOf = new Map(projects.map((project) => [project.id, project.name]));
  const rows = roles
    .map((grant) => {
      const query = grant.project_id ? `?project_id=${encodeURIComponent(grant.project_id)}` : '';
      return (
        `<tr><td><code>${esc(grant.user_id)}</code></td><td>${esc(t(`console.role.${grant.role}`))}</td><td>${esc(grant.project_id ? (nameOf.get(grant.project_id) ?? grant.project_id) : t('console.operators.every_project'))}</td><td>${esc(grant.granted_at.slice(0, 10))}</td>` +
        `<td><form method="post" action="${esc(consoleHref(view, `/console/operators/${encodeURIComponent(grant.user_id)}/revoke${query}`))}" class="inline"><button type="submit" class="btn secondary">${esc(t('console.operators.revoke'))}</button></form></td></tr>`
      );
    })
    .join('');
  const options_ = [`<option value="">${esc(t('console.operators.every_project'))} (${esc(t('console.role.instance_admin'))})</option>`, ...projects.map((p) => `<option value="${esc(p.id)}">${esc(p.name)} (${esc(t('console.role.project_admin'))})</option>`)].join('');
  return (
    `<h1>${esc(t('console.operators.title'))}</h1><p class="description">${esc(t('console.operators.intro'))}</p>` +
    (options.notice ? `<p class="notice" role="status">${esc(options.notice)}</p>` : '') +
    `<table class="console-table"><thead><tr><th scope="col">${esc(t('console.users.id'))}</th><th scope="col">${esc(t('console.operators.role'))}</th><th scope="col">${esc(t('console.operators.project'))}</th><th scope="col">${esc(t('console.operators.granted'))}</th><th scope="col"><span class="muted">${esc(t('console.user.actions'))}</span></th></tr></thead><tbody>${rows}</tbody></table>` +
    `<h2>${esc(t('console.operators.grant'))}</h2>` +
    (options.error ? `<p class="alert" role="alert">${esc(options.error)}</p>` : '') +
    `<form method="post" action="${esc(consoleHref(view, '/console/operators'))}">` +
    `<div class="field"><label for="f-op-email">${esc(t('console.operators.email'))}</label><input id="f-op-email" name="email" type="email" required maxlength="320" autocomplete="off"></div>` +
    `<div class="field"><label for="f-op-project">${esc(t('console.operators.role'))}</label><select id="f-op-project" name="project_id">${options_}</select></div>` +
    `<button type="submit" class="btn primary">${esc(t('console.operators.grant'))}</button></form>`
  );
}
