import { esc } from '../../ui/html.js';
import { consoleHref, type ConsoleView } from '../render.js';

export interface ProjectSummary {
  id: string;
  name: string;
  preview_origins: string[];
  created_at: string;
}

/** The projects the operator may see, and (instance admins) the form that creates one. */
export function projectsMarkup(view: ConsoleView, projects: ProjectSummary[], options: { canCreate: boolean; systemProjectId?: string; notice?: string; error?: string }): string {
  const { t } = view;
  const rows = projects
    .map((project) => {
      const note = project.id === options.systemProjectId ? ` <span class="muted">(${esc(t('console.projects.system'))})</span>` : '';
      return `<tr><td><a href="${esc(consoleHref(view, `/console/projects/${encodeURIComponent(project.id)}`))}">${esc(project.name)}</a>${note}</td><td><code>${esc(project.id)}</code></td><td>${esc(project.created_at.slice(0, 10))}</td></tr>`;
    })
    .join('');
  const table = projects.length
    ? `<table class="console-table"><thead><tr><th scope="col">${esc(t('console.projects.name'))}</th><th scope="col">${esc(t('console.projects.id'))}</th><th scope="col">${esc(t('console.projects.created'))}</th></tr></thead><tbody>${rows}</tbody></table>`
    : `<p class="description">${esc(t('console.projects.empty'))}</p>`;
  const error = options.error ? `<p class="alert" role="alert">${esc(options.error)}</p>` : '';
  const create = options.canCreate
    ? `<h2>${esc(t('console.projects.create'))}</h2>${error}` +
      `<form method="post" action="${esc(consoleHref(view, '/console/projects'))}">` +
      `<div class="field"><label for="f-name">${esc(t('console.projects.name'))}</label><input id="f-name" name="name" required maxlength="100" autocomplete="off"></div>` +
      `<button type="submit" class="btn primary">${esc(t('console.projects.create_button'))}</button></form>`
    : '';
  const notice = options.notice ? `<p class="notice" role="status">${esc(options.notice)}</p>` : '';
  return `<h1>${esc(t('console.projects.title'))}</h1>${notice}${table}${create}`;
}

/** The project page's links to its sections, in this order (`outbox` only in development). */
export const PROJECT_SECTIONS: Array<{ path: string; label: string }> = [
  { path: 'users', label: 'console.users.title' },
  { path: 'keys', label: 'console.keys.title' },
  { path: 'settings', label: 'console.settings.link' },
  { path: 'oauth_clients', label: 'console.clients.oauth.title' },
  { path: 'sso_providers', label: 'console.clients.sso.title' },
  { path: 'saml_providers', label: 'console.saml.title' },
  { path: 'mail_templates', label: 'console.mail.templates.title' },
  { path: 'branding', label: 'console.mail.branding.title' },
  { path: 'teams', label: 'console.model.teams.title' },
  { path: 'schemas', label: 'console.model.schemas.title' },
  { path: 'flows', label: 'console.model.flows.title' },
  { path: 'webhooks', label: 'console.webhooks.title' },
  { path: 'events', label: 'console.events.title' },
  { path: 'outbox', label: 'console.outbox.title' },
];

/** The snippet a newcomer pastes into an Express app (docs/sdk.md shows the same). */
function snippet(publicUrl: string, projectId: string): string {
  return [
    "import { Gatehouse, requireSession, sessionCookie } from '@gatehouse/node';",
    '',
    'const gatehouse = new Gatehouse({',
    `  baseUrl: '${publicUrl}',`,
    `  projectId: '${projectId}',`,
    '  serviceKey: { clientId: process.env.GATEHOUSE_KEY_ID, clientSecret: process.env.GATEHOUSE_KEY_SECRET },',
    '});',
    '',
    "app.get('/auth/callback', async (req, res) => {",
    '  const { session, session_token } = await gatehouse.exchangeHandoff(String(req.query.handoff_token));',
    "  res.append('set-cookie', sessionCookie(session_token, session, { secure: true }));",
    "  res.redirect(303, '/account');",
    '});',
    "app.get('/account', requireSession(gatehouse), (req, res) => res.json(req.gatehouse.session));",
  ].join('\n');
}

/** One project: what it is, the links a newcomer needs next, and a secret shown once right after creation. */
export function projectMarkup(view: ConsoleView, project: ProjectSummary, publicUrl: string, options: { created?: { project_secret: string }; outbox?: boolean } = {}): string {
  const { created } = options;
  const base = `/console/projects/${encodeURIComponent(project.id)}`;
  const links = PROJECT_SECTIONS.filter((section) => section.path !== 'outbox' || options.outbox)
    .map((section) => `<a href="${esc(consoleHref(view, `${base}/${section.path}`))}">${esc(view.t(section.label))}</a>`)
    .join('');
  const sections = `<nav class="console-sections" aria-label="${esc(view.t('console.project.sections'))}">${links}</nav>`;
  const { t } = view;
  const signIn = `${publicUrl}/ui/login?project_id=${encodeURIComponent(project.id)}`;
  const register = `${publicUrl}/ui/register?project_id=${encodeURIComponent(project.id)}`;
  const secret = created
    ? `<p class="notice" role="status">${esc(t('console.project.created'))}</p>` +
      `<div class="secret"><h2>${esc(t('console.project.secret'))}</h2><p><code class="secret-value">${esc(created.project_secret)}</code></p><p class="description">${esc(t('console.project.secret_once'))}</p></div>`
    : '';
  return (
    `<p><a href="${esc(consoleHref(view, '/console'))}">${esc(t('console.back'))}</a></p>` +
    `<h1>${esc(t('console.project.title', { name: project.name }))}</h1>` +
    secret +
    sections +
    `<dl class="console-facts"><dt>${esc(t('console.projects.id'))}</dt><dd><code>${esc(project.id)}</code></dd>` +
    `<dt>${esc(t('console.projects.created'))}</dt><dd>${esc(project.created_at)}</dd></dl>` +
    `<h2>${esc(t('console.project.next'))}</h2>` +
    `<ul class="console-links"><li><a href="${esc(signIn)}">${esc(t('console.project.sign_in_link'))}</a>: <code>${esc(signIn)}</code></li>` +
    `<li><a href="${esc(register)}">${esc(t('console.project.register_link'))}</a>: <code>${esc(register)}</code></li></ul>` +
    `<h3>${esc(t('console.project.snippet'))}</h3><p class="description">${esc(t('console.project.snippet_hint'))}</p>` +
    `<pre class="snippet" tabindex="0"><code>${esc(snippet(publicUrl, project.id))}</code></pre>`
  );
}
