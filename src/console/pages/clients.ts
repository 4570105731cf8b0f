import { esc } from '../../ui/html.js';
import { areaField, codeList, deleteForm, invalid, noticeMarkup, problemAlert, selectField, table, textField, type FormProblem } from './parts.js';
import { consoleHref, type ConsoleView } from '../render.js';

/** An OIDC client as `GET /projects/{id}/oauth_clients` lists it (no secret, ever). */
export interface OAuthClient {
  client_id: string;
  name: string;
  redirect_uris: string[];
  grant_types: string[];
  token_endpoint_auth_method: string;
  login_uri?: string;
  post_logout_redirect_uris: string[];
  backchannel_logout_uri?: string;
  created_at: string;
}

/** An upstream provider as `GET /projects/{id}/sso_providers` lists it (`client_secret_set`, never the secret). */
export interface SsoProvider {
  id: string;
  name: string;
  template: string;
  issuer?: string;
  client_id: string;
  client_secret_set: boolean;
  scopes: string[];
  link: string;
  enabled: boolean;
  redirect_uri: string;
  created_at: string;
}

export type { FormProblem } from './parts.js';

/** The create form as typed, shown again after a refusal (secrets are never put back). */
export type Draft = Record<string, string>;

export const AUTH_METHODS = ['client_secret_basic', 'client_secret_post', 'none'] as const;
/** The grant types a client may name (RFC 7591 `grant_types`; src/oauth/clients.ts), and the API's default. */
export const GRANT_TYPES = ['authorization_code', 'refresh_token', 'urn:ietf:params:oauth:grant-type:device_code'] as const;
const DEFAULT_GRANTS = ['authorization_code', 'refresh_token'];
export const SSO_TEMPLATES = ['oidc', 'google', 'microsoft', 'apple', 'gitlab', 'github'] as const;
export const LINK_POLICIES = ['none', 'verified_email'] as const;

const NOTICES = new Set(['created', 'sso_created', 'deleted', 'not_confirmed']);

export interface OAuthClientsPage {
  clients: OAuthClient[];
  more: boolean;
  notice?: unknown;
  /** the answer of a create: its secret is shown here, this once */
  created?: OAuthClient & { client_secret?: string };
  problem?: FormProblem;
  draft?: Draft;
}

/** A project's OIDC clients: the list with delete, the registration form, and a new client's secret once. */
export function oauthClientsMarkup(view: ConsoleView, projectId: string, page: OAuthClientsPage): string {
  const { t } = view;
  const project = `/console/projects/${encodeURIComponent(projectId)}`;
  const base = `${project}/oauth_clients`;
  const rows = page.clients
    .map(
      (client) =>
        `<tr><td>${esc(client.name)}</td><td><code>${esc(client.client_id)}</code></td><td>${codeList(client.redirect_uris)}</td><td>${codeList(client.grant_types)}</td><td><code>${esc(client.token_endpoint_auth_method)}</code></td><td>${esc(client.created_at.slice(0, 10))}</td>` +
        `<td>${deleteForm(view, `${base}/${encodeURIComponent(client.client_id)}/delete`, `f-delete-${client.client_id}`, t('console.clients.oauth.delete_confirm', { name: client.name }))}</td></tr>`,
    )
    .join('');
  const created = page.created
    ? `<div class="secret" role="status"><h2>${esc(t('console.clients.oauth.created'))}</h2>` +
      `<dl class="console-facts"><dt>${esc(t('console.clients.oauth.client_id'))}</dt><dd><code class="secret-value">${esc(page.created.client_id)}</code></dd>` +
      (page.created.client_secret ? `<dt>client_secret</dt><dd><code class="secret-value">${esc(page.created.client_secret)}</code></dd>` : '') +
      `</dl>${page.created.client_secret ? `<p class="description">${esc(t('console.clients.oauth.secret_once'))}</p>` : ''}</div>`
    : '';
  const draft = page.draft ?? {};
  const problem = page.problem;
  // A new form ticks the API's default; a refused one keeps what was ticked (space-separated in the draft).
  const granted = new Set(draft.grant_types_shown ? (draft.grant_types ?? '').split(' ').filter(Boolean) : DEFAULT_GRANTS);
  const grants = GRANT_TYPES.map(
    (grant, index) =>
      `<div class="check"><input type="checkbox" id="f-client-grant-${index}" name="grant_types" value="${esc(grant)}"${granted.has(grant) ? ' checked' : ''}>` +
      `<label for="f-client-grant-${index}"><code>${esc(grant)}</code> ${esc(t(`console.clients.oauth.grant.${index}`))}</label></div>`,
  ).join('');
  return (
    `<p><a href="${esc(consoleHref(view, project))}">${esc(t('console.back_to_project'))}</a></p>` +
    `<h1>${esc(t('console.clients.oauth.title'))}</h1><p class="description">${esc(t('console.clients.oauth.intro'))}</p>` +
    noticeMarkup(view, page.notice, NOTICES, 'console.clients.notice.') +
    created +
    (page.clients.length
      ? table([esc(t('console.projects.name')), esc(t('console.clients.oauth.client_id')), esc(t('console.clients.oauth.redirect_uris')), esc(t('console.clients.oauth.grant_types')), esc(t('console.clients.oauth.auth_method')), esc(t('console.projects.created')), `<span class="muted">${esc(t('console.user.actions'))}</span>`], rows)
      : `<p class="description">${esc(t('console.clients.oauth.empty'))}</p>`) +
    (page.more ? `<p class="description">${esc(t('console.clients.oauth.more'))}</p>` : '') +
    `<h2>${esc(t('console.clients.oauth.create'))}</h2>${problemAlert(problem)}` +
    `<form method="post" action="${esc(consoleHref(view, base))}">` +
    textField('f-client-name', 'name', t('console.projects.name'), draft.name ?? '', ` maxlength="200" autocomplete="off"${invalid(problem, 'name')}`) +
    areaField('f-client-redirects', 'redirect_uris', t('console.clients.oauth.redirect_uris'), draft.redirect_uris ?? '', invalid(problem, 'redirect_uris'), t('console.clients.oauth.redirect_hint')) +
    `<input type="hidden" name="grant_types_shown" value="1">` +
    `<fieldset class="choices"><legend>${esc(t('console.clients.oauth.grant_types'))}</legend>${grants}</fieldset>` +
    selectField('f-client-auth', 'token_endpoint_auth_method', t('console.clients.oauth.auth_method'), AUTH_METHODS.map((m) => ({ value: m, label: t(`console.clients.oauth.auth.${m}`) })), draft.token_endpoint_auth_method ?? AUTH_METHODS[0], invalid(problem, 'token_endpoint_auth_method')) +
    textField('f-client-login', 'login_uri', t('console.clients.oauth.login_uri'), draft.login_uri ?? '', ` type="url" maxlength="2000" autocomplete="off"${invalid(problem, 'login_uri')}`) +
    areaField('f-client-post-logout', 'post_logout_redirect_uris', t('console.clients.oauth.post_logout'), draft.post_logout_redirect_uris ?? '', invalid(problem, 'post_logout_redirect_uris'), t('console.settings.one_per_line')) +
    textField('f-client-backchannel', 'backchannel_logout_uri', t('console.clients.oauth.backchannel'), draft.backchannel_logout_uri ?? '', ` type="url" maxlength="2000" autocomplete="off"${invalid(problem, 'backchannel_logout_uri')}`) +
    `<button type="submit" class="btn primary">${esc(t('console.clients.oauth.create'))}</button></form>`
  );
}

export interface SsoProvidersPage {
  providers: SsoProvider[];
  more: boolean;
  notice?: unknown;
  problem?: FormProblem;
  draft?: Draft;
}

/** A project's upstream identity providers: the list (with the redirect URI to register) with delete, and the form that adds one. */
export function ssoProvidersMarkup(view: ConsoleView, projectId: string, page: SsoProvidersPage): string {
  const { t } = view;
  const project = `/console/projects/${encodeURIComponent(projectId)}`;
  const base = `${project}/sso_providers`;
  const rows = page.providers
    .map(
      (provider) =>
        `<tr><td>${esc(provider.name)}<br><code>${esc(provider.id)}</code></td><td><code>${esc(provider.template)}</code>${provider.issuer ? `<br><code>${esc(provider.issuer)}</code>` : ''}</td>` +
        `<td><code>${esc(provider.client_id)}</code><br>${esc(t(provider.client_secret_set ? 'console.clients.sso.secret_set' : 'console.clients.sso.no_secret'))}</td>` +
        `<td>${esc(t(provider.enabled ? 'console.clients.sso.on' : 'console.clients.sso.off'))}<br><code>${esc(provider.link)}</code></td><td><code>${esc(provider.redirect_uri)}</code></td>` +
        `<td>${deleteForm(view, `${base}/${encodeURIComponent(provider.id)}/delete`, `f-delete-${provider.id}`, t('console.clients.sso.delete_confirm', { name: provider.name }))}</td></tr>`,
    )
    .join('');
  const draft = page.draft;
  const problem = page.problem;
  // A new form is enabled; a refused one keeps what was ticked.
  const enabled = draft ? draft.enabled === 'yes' : true;
  return (
    `<p><a href="${esc(consoleHref(view, project))}">${esc(t('console.back_to_project'))}</a></p>` +
    `<h1>${esc(t('console.clients.sso.title'))}</h1><p class="description">${esc(t('console.clients.sso.intro'))}</p>` +
    noticeMarkup(view, page.notice, NOTICES, 'console.clients.notice.') +
    (page.providers.length
      ? table(
          [esc(t('console.projects.name')), esc(t('console.clients.sso.template')), esc(t('console.clients.sso.client_id')), esc(t('console.clients.sso.state')), esc(t('console.clients.sso.redirect_uri')), `<span class="muted">${esc(t('console.user.actions'))}</span>`],
          rows,
        )
      : `<p class="description">${esc(t('console.clients.sso.empty'))}</p>`) +
    (page.more ? `<p class="description">${esc(t('console.clients.sso.more'))}</p>` : '') +
    `<h2>${esc(t('console.clients.sso.create'))}</h2>${problemAlert(problem)}` +
    `<form method="post" action="${esc(consoleHref(view, base))}">` +
    textField('f-sso-id', 'provider_id', t('console.clients.sso.id'), draft?.provider_id ?? '', ` required maxlength="64" autocomplete="off"${invalid(problem, 'provider_id')}`, t('console.clients.sso.id_hint')) +
    textField('f-sso-name', 'name', t('console.projects.name'), draft?.name ?? '', ` required maxlength="200" autocomplete="off"${invalid(problem, 'name')}`) +
    selectField('f-sso-template', 'template', t('console.clients.sso.template'), SSO_TEMPLATES.map((value) => ({ value, label: value })), draft?.template ?? 'oidc', invalid(problem, 'template')) +
    textField('f-sso-issuer', 'issuer', t('console.clients.sso.issuer'), draft?.issuer ?? '', ` type="url" maxlength="500" autocomplete="off"${invalid(problem, 'issuer')}`) +
    textField('f-sso-client-id', 'client_id', t('console.clients.sso.client_id'), draft?.client_id ?? '', ` required maxlength="500" autocomplete="off"${invalid(problem, 'client_id')}`) +
    // Write-only: the value typed is never put back into the page.
    textField('f-sso-secret', 'client_secret', t('console.clients.sso.client_secret'), '', ` type="password" maxlength="4000" autocomplete="new-password"${invalid(problem, 'client_secret')}`, t('console.clients.sso.secret_hint')) +
    textField('f-sso-scopes', 'scopes', t('console.clients.sso.scopes'), draft?.scopes ?? '', ` maxlength="2000" autocomplete="off"${invalid(problem, 'scopes')}`) +
    areaField('f-sso-claims', 'claims', t('console.clients.sso.claims'), draft?.claims ?? '', invalid(problem, 'claims')) +
    selectField('f-sso-link', 'link', t('console.clients.sso.link'), LINK_POLICIES.map((value) => ({ value, label: t(`console.clients.sso.link.${value}`) })), draft?.link ?? 'none', invalid(problem, 'link')) +
    `<div class="check"><input type="checkbox" id="f-sso-enabled" name="enabled" value="yes"${enabled ? ' checked' : ''}><label for="f-sso-enabled">${esc(t('console.clients.sso.enabled'))}</label></div>` +
    `<button type="submit" class="btn primary">${esc(t('console.clients.sso.create'))}</button></form>`
  );
}
