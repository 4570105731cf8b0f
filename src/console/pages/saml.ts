import { esc } from '../../ui/html.js';
import { consoleHref, type ConsoleView } from '../render.js';
import { areaField, codeList, deleteForm, invalid, noticeMarkup, problemAlert, selectField, table, textField, type FormProblem } from './parts.js';

/** A SAML identity provider as `GET /projects/{id}/saml_providers` answers it (src/saml/routes.ts). */
export interface SamlProvider {
  id: string;
  name: string;
  idp_metadata_url?: string;
  idp_metadata_xml?: string;
  idp_entity_id: string | null;
  idp_sso_url: string | null;
  idp_certificates: number;
  metadata_fetched_at?: string;
  domains: string[];
  attributes: Record<string, string>;
  link: string;
  enabled: boolean;
  sp_entity_id: string;
  acs_url: string;
  sp_metadata_url: string;
  created_at: string;
  updated_at: string;
}

/** The form as typed (or as stored, when editing), shown again after a refusal. */
export type SamlDraft = Record<string, string>;

export const SAML_LINK_POLICIES = ['none', 'verified_email'] as const;
const NOTICES = new Set(['created', 'saved', 'deleted', 'not_confirmed']);

/** A stored provider as the edit form's values. */
export function draftOfProvider(provider: SamlProvider): SamlDraft {
  return {
    name: provider.name,
    idp_metadata_xml: provider.idp_metadata_xml ?? '',
    idp_metadata_url: provider.idp_metadata_url ?? '',
    domains: provider.domains.join('\n'),
    attributes: Object.entries(provider.attributes)
      .map(([path, name]) => `${path}=${name}`)
      .join('\n'),
    link: provider.link,
    enabled: provider.enabled ? 'yes' : '',
  };
}

/** The form's fields (the provider id only when adding: the id is in the edit page's path). */
function providerForm(view: ConsoleView, action: string, draft: SamlDraft | undefined, problem: FormProblem | undefined, options: { create: boolean }): string {
  const { t } = view;
  const enabled = draft ? draft.enabled === 'yes' : true;
  // "needs exactly one of idp_metadata_xml and idp_metadata_url" names the body: both fields are marked.
  const either = problem?.errors.some((error) => error.path === 'body') ? ' aria-invalid="true"' : '';
  return (
    `<form method="post" action="${esc(consoleHref(view, action))}">` +
    (options.create ? textField('f-saml-id', 'provider_id', t('console.clients.sso.id'), draft?.provider_id ?? '', ` required maxlength="64" autocomplete="off"${invalid(problem, 'provider_id')}`, t('console.saml.id_hint')) : '') +
    textField('f-saml-name', 'name', t('console.projects.name'), draft?.name ?? '', ` required maxlength="200" autocomplete="off"${invalid(problem, 'name')}`) +
    `<p class="description">${esc(t('console.saml.metadata_hint'))}</p>` +
    textField('f-saml-url', 'idp_metadata_url', t('console.saml.metadata_url'), draft?.idp_metadata_url ?? '', ` type="url" maxlength="2048" autocomplete="off"${invalid(problem, 'idp_metadata_url') || either}`) +
    areaField('f-saml-xml', 'idp_metadata_xml', t('console.saml.metadata_xml'), draft?.idp_metadata_xml ?? '', ` class="code" spellcheck="false"${invalid(problem, 'idp_metadata_xml') || either}`) +
    areaField('f-saml-domains', 'domains', t('console.saml.domains'), draft?.domains ?? '', ` spellcheck="false"${invalid(problem, 'domains')}`, t('console.saml.domains_hint')) +
    areaField('f-saml-attributes', 'attributes', t('console.saml.attributes'), draft?.attributes ?? '', ` class="code" spellcheck="false"${invalid(problem, 'attributes')}`, t('console.saml.attributes_hint')) +
    selectField('f-saml-link', 'link', t('console.clients.sso.link'), SAML_LINK_POLICIES.map((value) => ({ value, label: t(`console.clients.sso.link.${value}`) })), draft?.link ?? 'none', invalid(problem, 'link')) +
    `<div class="check"><input type="checkbox" id="f-saml-enabled" name="enabled" value="yes"${enabled ? ' checked' : ''}><label for="f-saml-enabled">${esc(t('console.saml.enabled'))}</label></div>` +
    `<button type="submit" class="btn primary">${esc(t(options.create ? 'console.saml.create' : 'console.settings.save'))}</button></form>`
  );
}

export interface SamlProvidersPage {
  providers: SamlProvider[];
  more: boolean;
  notice?: unknown;
  problem?: FormProblem;
  draft?: SamlDraft;
}

/** A project's SAML identity providers: the list (with what to register at each IdP) and the form that adds one. */
export function samlProvidersMarkup(view: ConsoleView, projectId: string, page: SamlProvidersPage): string {
  const { t } = view;
  const project = `/console/projects/${encodeURIComponent(projectId)}`;
  const base = `${project}/saml_providers`;
  const rows = page.providers
    .map(
      (provider) =>
        `<tr><td><a href="${esc(consoleHref(view, `${base}/${encodeURIComponent(provider.id)}`))}">${esc(provider.name)}</a><br><code>${esc(provider.id)}</code></td>` +
        `<td>${provider.idp_entity_id ? `<code>${esc(provider.idp_entity_id)}</code>` : `<span class="muted">${esc(t('console.saml.no_metadata'))}</span>`}</td>` +
        `<td>${provider.domains.length ? codeList(provider.domains) : `<span class="muted">${esc(t('console.saml.no_domains'))}</span>`}</td>` +
        `<td>${esc(t(provider.enabled ? 'console.clients.sso.on' : 'console.clients.sso.off'))}<br><code>${esc(provider.link)}</code></td>` +
        `<td><a href="${esc(provider.sp_metadata_url)}">${esc(t('console.saml.sp_metadata'))}</a></td>` +
        `<td>${deleteForm(view, `${base}/${encodeURIComponent(provider.id)}/delete`, `f-delete-${provider.id}`, t('console.clients.sso.delete_confirm', { name: provider.name }))}</td></tr>`,
    )
    .join('');
  return (
    `<p><a href="${esc(consoleHref(view, project))}">${esc(t('console.back_to_project'))}</a></p>` +
    `<h1>${esc(t('console.saml.title'))}</h1><p class="description">${esc(t('console.saml.intro'))}</p>` +
    noticeMarkup(view, page.notice, NOTICES, 'console.saml.notice.') +
    (page.providers.length
      ? table(
          [esc(t('console.projects.name')), esc(t('console.saml.idp_entity_id')), esc(t('console.saml.domains_short')), esc(t('console.clients.sso.state')), esc(t('console.saml.for_idp')), `<span class="muted">${esc(t('console.user.actions'))}</span>`],
          rows,
        )
      : `<p class="description">${esc(t('console.saml.empty'))}</p>`) +
    (page.more ? `<p class="description">${esc(t('console.saml.more'))}</p>` : '') +
    `<h2>${esc(t('console.saml.create'))}</h2>${problemAlert(page.problem)}` +
    providerForm(view, base, page.draft, page.problem, { create: true })
  );
}

export interface SamlProviderPage {
  provider: SamlProvider;
  notice?: unknown;
  problem?: FormProblem;
  draft?: SamlDraft;
}

/** One provider: the values the IdP needs, what its metadata says, the edit form and delete. */
export function samlProviderMarkup(view: ConsoleView, projectId: string, page: SamlProviderPage): string {
  const { t } = view;
  const { provider } = page;
  const list = `/console/projects/${encodeURIComponent(projectId)}/saml_providers`;
  const base = `${list}/${encodeURIComponent(provider.id)}`;
  const fact = (label: string, value: string) => `<dt>${esc(t(label))}</dt><dd>${value}</dd>`;
  const none = `<span class="muted">${esc(t('console.saml.no_metadata'))}</span>`;
  return (
    `<p><a href="${esc(consoleHref(view, list))}">${esc(t('console.saml.back'))}</a></p>` +
    `<h1>${esc(t('console.saml.provider_title', { name: provider.name }))}</h1>` +
    noticeMarkup(view, page.notice, NOTICES, 'console.saml.notice.') +
    `<h2>${esc(t('console.saml.for_idp'))}</h2><p class="description">${esc(t('console.saml.for_idp_hint'))}</p>` +
    `<dl class="console-facts">` +
    fact('console.saml.sp_metadata', `<a href="${esc(provider.sp_metadata_url)}"><code>${esc(provider.sp_metadata_url)}</code></a>`) +
    fact('console.saml.sp_entity_id', `<code>${esc(provider.sp_entity_id)}</code>`) +
    fact('console.saml.acs_url', `<code>${esc(provider.acs_url)}</code>`) +
    `</dl>` +
    `<h2>${esc(t('console.saml.from_idp'))}</h2><dl class="console-facts">` +
    fact('console.saml.idp_entity_id', provider.idp_entity_id ? `<code>${esc(provider.idp_entity_id)}</code>` : none) +
    fact('console.saml.idp_sso_url', provider.idp_sso_url ? `<code>${esc(provider.idp_sso_url)}</code>` : none) +
    fact('console.saml.idp_certificates', esc(String(provider.idp_certificates))) +
    (provider.metadata_fetched_at ? fact('console.saml.fetched_at', esc(provider.metadata_fetched_at.slice(0, 19).replace('T', ' '))) : '') +
    `</dl>` +
    `<h2>${esc(t('console.saml.edit'))}</h2>${problemAlert(page.problem)}` +
    providerForm(view, base, page.draft ?? draftOfProvider(provider), page.problem, { create: false }) +
    `<h2>${esc(t('console.clients.delete'))}</h2>` +
    deleteForm(view, `${base}/delete`, 'f-delete-provider', t('console.clients.sso.delete_confirm', { name: provider.name }))
  );
}
