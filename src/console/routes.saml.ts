import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiRefusal, type ApiAnswer } from './api.js';
import type { ConsolePageKit } from './kit.js';
import { afterWrite, pairsOf, pathParam, PROVIDER_ID } from './paths.js';
import { samlProviderMarkup, samlProvidersMarkup, type SamlDraft, type SamlProvider, type SamlProvidersPage, type SamlProviderPage } from './pages/saml.js';
import type { FormProblem } from './pages/parts.js';
import { consoleHref, consoleView, sendConsolePage } from './render.js';

const config = { page: true, tenancy: 'credential' } as const;

/**
 * IdP metadata is pasted into these forms: the API takes documents up to 512 KiB, and a form
 * encodes markup at up to three bytes a character (the console's other forms keep 16 KiB).
 */
const METADATA_FORM_LIMIT = 2 * 1024 * 1024;

/** Domains one per line (or separated by commas); a line as typed otherwise, so the API names what it refuses. */
const domainsOf = (value: string | null) => (value ?? '').split(/[\r\n,]+/).map((domain) => domain.trim()).filter(Boolean);

/**
 * The body of `PUT /projects/{id}/saml_providers/{provider_id}` from the form (src/saml/routes.ts).
 * The metadata is what was filled in: the XML, the URL, or both (the API then names the body: exactly one).
 */
function providerBody(form: URLSearchParams): Record<string, unknown> {
  const xml = form.get('idp_metadata_xml')?.trim();
  const url = form.get('idp_metadata_url')?.trim();
  const attributes = pairsOf(form.get('attributes'));
  return {
    name: form.get('name')?.trim() ?? '',
    ...(xml ? { idp_metadata_xml: xml } : {}),
    ...(url ? { idp_metadata_url: url } : {}),
    domains: domainsOf(form.get('domains')),
    ...(attributes ? { attributes } : {}),
    link: form.get('link') ?? 'none',
    enabled: form.get('enabled') === 'yes',
  };
}

const draftOf = (form: URLSearchParams): SamlDraft => Object.fromEntries(form);

/** The API's refusals a form shows: 400 (fields), 409 (a domain another provider holds); anything else is the error page. */
function formProblem(answer: ApiAnswer): FormProblem | undefined {
  return answer.status === 400 || answer.status === 409 ? new ApiRefusal(answer).problem : undefined;
}

/** A project's SAML 2.0 identity providers (issue 35): list, add, edit, delete, and the values to register at the IdP. */
export function samlPages(kit: ConsolePageKit): void {
  const { app, assets } = kit;
  const listPath = (projectId: string) => `/console/projects/${projectId}/saml_providers`;
  const noticeOf = (request: FastifyRequest) => (request.query as Record<string, unknown>).notice;

  const renderList = async (request: FastifyRequest, reply: FastifyReply, status: number, options: Omit<SamlProvidersPage, 'providers' | 'more'> = {}) => {
    const view = consoleView(request);
    const { project, projectId, chrome } = await kit.asProject(request);
    const list = await project.data<{ saml_providers: SamlProvider[]; next_page_token?: string }>('GET', `/projects/${projectId}/saml_providers?limit=100`);
    const content = samlProvidersMarkup(view, projectId, { ...options, providers: list.saml_providers, more: list.next_page_token !== undefined });
    return sendConsolePage(reply, view, assets, status, view.t('console.saml.title'), content, chrome);
  };

  const renderOne = async (request: FastifyRequest, reply: FastifyReply, status: number, options: Omit<SamlProviderPage, 'provider'> = {}) => {
    const view = consoleView(request);
    const providerId = pathParam(request, 'provider_id', PROVIDER_ID);
    const { project, projectId, chrome } = await kit.asProject(request);
    const provider = await project.data<SamlProvider>('GET', `/projects/${projectId}/saml_providers/${providerId}`);
    const content = samlProviderMarkup(view, projectId, { ...options, provider });
    return sendConsolePage(reply, view, assets, status, view.t('console.saml.provider_title', { name: provider.name }), content, chrome);
  };

  app.get('/console/projects/:project_id/saml_providers', { config, exposeHeadRoute: false }, (request, reply) => renderList(request, reply, 200, { notice: noticeOf(request) }));

  app.post('/console/projects/:project_id/saml_providers', { config, bodyLimit: METADATA_FORM_LIMIT }, async (request, reply) => {
    kit.writeGuard(request);
    const view = consoleView(request);
    const { project, projectId } = await kit.asProject(request);
    const form = kit.formOf(request.body);
    const draft = draftOf(form);
    const providerId = form.get('provider_id')?.trim() ?? '';
    // The id becomes part of the API's path: checked here, as the API's schema would, before any call.
    if (!PROVIDER_ID.test(providerId)) {
      return renderList(request, reply, 400, { draft, problem: { message: `${view.t('console.clients.sso.id')} ${view.t('console.clients.sso.bad_id')}.`, errors: [{ path: 'params/provider_id', message: view.t('console.clients.sso.bad_id') }] } });
    }
    // This form only adds: `If-None-Match: *` makes the API refuse a taken id (412) in the insert itself.
    const answer = await project.call('PUT', `/projects/${projectId}/saml_providers/${providerId}`, providerBody(form), { 'if-none-match': '*' });
    if (answer.status === 412) {
      return renderList(request, reply, 400, { draft, problem: { message: view.t('console.saml.taken'), errors: [{ path: 'params/provider_id', message: view.t('console.saml.taken') }] } });
    }
    const problem = formProblem(answer);
    if (problem) return renderList(request, reply, answer.status, { draft, problem });
    if (answer.status !== 201) throw new ApiRefusal(answer);
    // The new provider's page shows what to register at the IdP.
    return afterWrite(reply, consoleHref(view, `${listPath(projectId)}/${providerId}?notice=created`));
  });

  app.get('/console/projects/:project_id/saml_providers/:provider_id', { config, exposeHeadRoute: false }, (request, reply) => renderOne(request, reply, 200, { notice: noticeOf(request) }));

  app.post('/console/projects/:project_id/saml_providers/:provider_id', { config, bodyLimit: METADATA_FORM_LIMIT }, async (request, reply) => {
    kit.writeGuard(request);
    const view = consoleView(request);
    const providerId = pathParam(request, 'provider_id', PROVIDER_ID);
    const { project, projectId } = await kit.asProject(request);
    // Edits a provider that exists: another project's id (or one deleted meanwhile) is a 404, never a create.
    await project.data('GET', `/projects/${projectId}/saml_providers/${providerId}`);
    const form = kit.formOf(request.body);
    const answer = await project.call('PUT', `/projects/${projectId}/saml_providers/${providerId}`, providerBody(form));
    const problem = formProblem(answer);
    if (problem) return renderOne(request, reply, answer.status, { draft: draftOf(form), problem });
    if (answer.status !== 200) throw new ApiRefusal(answer);
    return afterWrite(reply, consoleHref(view, `${listPath(projectId)}/${providerId}?notice=saved`));
  });

  app.post('/console/projects/:project_id/saml_providers/:provider_id/delete', { config }, async (request, reply) => {
    kit.writeGuard(request);
    const view = consoleView(request);
    const providerId = pathParam(request, 'provider_id', PROVIDER_ID);
    const { project, projectId } = await kit.asProject(request);
    if (kit.formOf(request.body).get('confirm') !== 'yes') return afterWrite(reply, consoleHref(view, `${listPath(projectId)}/${providerId}?notice=not_confirmed`));
    // The API's DELETE is idempotent: a provider this project does not have is the page's 404, not a "deleted".
    await project.data('GET', `/projects/${projectId}/saml_providers/${providerId}`);
    await project.data('DELETE', `/projects/${projectId}/saml_providers/${providerId}`);
    return afterWrite(reply, consoleHref(view, `${listPath(projectId)}?notice=deleted`));
  });
}
