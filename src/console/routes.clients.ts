import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiRefusal } from './api.js';
import type { ConsolePageKit } from './kit.js';
import { afterWrite, linesOf, pairsOf, pathParam, PROVIDER_ID } from './paths.js';
import { oauthClientsMarkup, ssoProvidersMarkup, type Draft, type OAuthClient, type OAuthClientsPage, type SsoProvider, type SsoProvidersPage } from './pages/clients.js';
import { consoleHref, consoleView, sendConsolePage } from './render.js';

const config = { page: true, tenancy: 'credential' } as const;


/** A field's trimmed text, or undefined when left empty (the API then applies its default). */
const optional = (value: string | null) => (value?.trim() ? value.trim() : undefined);


/** A 400 of the API as the form shows it; anything else stays an ApiRefusal for the error page. */
function refusalAtForm(error: unknown): { message: string; errors: Array<{ path: string; message: string }> } {
  if (!(error instanceof ApiRefusal) || error.answer.status !== 400) throw error;
  return error.problem;
}

/** The body of `POST /projects/{id}/oauth_clients` from the form: empty optional fields are left out. */
function oauthClientBody(form: URLSearchParams): Record<string, unknown> {
  const name = optional(form.get('name'));
  const loginUri = optional(form.get('login_uri'));
  const backchannel = optional(form.get('backchannel_logout_uri'));
  const postLogout = linesOf(form.get('post_logout_redirect_uris'));
  return {
    ...(name ? { name } : {}),
    redirect_uris: linesOf(form.get('redirect_uris')),
    // The form's boxes, sent as ticked (none ticked is the API's 400); a post without the form's marker leaves the API's default.
    ...(form.has('grant_types_shown') ? { grant_types: form.getAll('grant_types') } : {}),
    // Sent as chosen: the API's schema refuses anything but its three methods.
    token_endpoint_auth_method: form.get('token_endpoint_auth_method') ?? 'client_secret_basic',
    ...(loginUri ? { login_uri: loginUri } : {}),
    ...(postLogout.length ? { post_logout_redirect_uris: postLogout } : {}),
    ...(backchannel ? { backchannel_logout_uri: backchannel } : {}),
  };
}

/** The body of `PUT /projects/{id}/sso_providers/{provider_id}` from the form (src/sso/routes.ts). */
function ssoProviderBody(form: URLSearchParams): Record<string, unknown> {
  const issuer = optional(form.get('issuer'));
  // Not trimmed: a secret is used exactly as the provider issued it.
  const secret = form.get('client_secret') || undefined;
  const scopes = (form.get('scopes') ?? '').split(/\s+/).filter(Boolean);
  const claims = pairsOf(form.get('claims'));
  return {
    name: form.get('name')?.trim() ?? '',
    template: form.get('template') ?? '',
    ...(issuer ? { issuer } : {}),
    client_id: form.get('client_id')?.trim() ?? '',
    ...(secret ? { client_secret: secret } : {}),
    ...(scopes.length ? { scopes } : {}),
    ...(claims ? { claims } : {}),
    link: form.get('link') ?? 'none',
    enabled: form.get('enabled') === 'yes',
  };
}

/** The form as typed, for showing it again; the secret is left out (write-only); the ticked grant types space-separated. */
const draftOf = (form: URLSearchParams): Draft => ({ ...Object.fromEntries([...form].filter(([name]) => name !== 'client_secret')), grant_types: form.getAll('grant_types').join(' ') });

/** A project's OAuth clients (OIDC relying parties) and its upstream SSO providers. */
export function clientsPages(kit: ConsolePageKit): void {
  const { app, assets } = kit;

  const noticeOf = (request: FastifyRequest) => (request.query as Record<string, unknown>).notice;

  // ---- OAuth clients ----

  const oauthPath = (projectId: string) => `/console/projects/${projectId}/oauth_clients`;

  const renderClients = async (request: FastifyRequest, reply: FastifyReply, status: number, options: Omit<OAuthClientsPage, 'clients' | 'more'> = {}) => {
    const view = consoleView(request);
    const { project, projectId, chrome } = await kit.asProject(request);
    const list = await project.data<{ oauth_clients: OAuthClient[]; next_page_token?: string }>('GET', `/projects/${projectId}/oauth_clients?limit=100`);
    const content = oauthClientsMarkup(view, projectId, { ...options, clients: list.oauth_clients, more: list.next_page_token !== undefined });
    return sendConsolePage(reply, view, assets, status, view.t('console.clients.oauth.title'), content, chrome);
  };

  app.get('/console/projects/:project_id/oauth_clients', { config, exposeHeadRoute: false }, (request, reply) => renderClients(request, reply, 200, { notice: noticeOf(request) }));

  app.post('/console/projects/:project_id/oauth_clients', { config }, async (request, reply) => {
    kit.writeGuard(request);
    const { project, projectId } = await kit.asProject(request);
    const form = kit.formOf(request.body);
    let created: OAuthClient & { client_secret?: string };
    try {
      created = await project.data('POST', `/projects/${projectId}/oauth_clients`, oauthClientBody(form));
    } catch (error) {
      return renderClients(request, reply, 400, { problem: refusalAtForm(error), draft: draftOf(form) });
    }
    // A public client has no secret: nothing to show once, so the usual redirect.
    if (!created.client_secret) return afterWrite(reply, consoleHref(consoleView(request), `${oauthPath(projectId)}?notice=created`));
    // The secret exists in this answer only: shown here, never behind a redirect.
    return renderClients(request, reply, 201, { created });
  });

  app.post('/console/projects/:project_id/oauth_clients/:client_id/delete', { config }, async (request, reply) => {
    kit.writeGuard(request);
    const view = consoleView(request);
    const clientId = pathParam(request, 'client_id');
    const { project, projectId } = await kit.asProject(request);
    if (kit.formOf(request.body).get('confirm') !== 'yes') return afterWrite(reply, consoleHref(view, `${oauthPath(projectId)}?notice=not_confirmed`));
    await project.data('DELETE', `/projects/${projectId}/oauth_clients/${clientId}`);
    return afterWrite(reply, consoleHref(view, `${oauthPath(projectId)}?notice=deleted`));
  });

  // ---- SSO providers ----

  const ssoPath = (projectId: string) => `/console/projects/${projectId}/sso_providers`;

  const renderProviders = async (request: FastifyRequest, reply: FastifyReply, status: number, options: Omit<SsoProvidersPage, 'providers' | 'more'> = {}) => {
    const view = consoleView(request);
    const { project, projectId, chrome } = await kit.asProject(request);
    const list = await project.data<{ sso_providers: SsoProvider[]; next_page_token?: string }>('GET', `/projects/${projectId}/sso_providers?limit=100`);
    const content = ssoProvidersMarkup(view, projectId, { ...options, providers: list.sso_providers, more: list.next_page_token !== undefined });
    return sendConsolePage(reply, view, assets, status, view.t('console.clients.sso.title'), content, chrome);
  };

  app.get('/console/projects/:project_id/sso_providers', { config, exposeHeadRoute: false }, (request, reply) => renderProviders(request, reply, 200, { notice: noticeOf(request) }));

  app.post('/console/projects/:project_id/sso_providers', { config }, async (request, reply) => {
    kit.writeGuard(request);
    const view = consoleView(request);
    const { project, projectId } = await kit.asProject(request);
    const form = kit.formOf(request.body);
    const draft = draftOf(form);
    const providerId = form.get('provider_id')?.trim() ?? '';
    // The id becomes part of the API's path: checked here, as the API's schema would, before any call.
    if (!PROVIDER_ID.test(providerId)) {
      return renderProviders(request, reply, 400, { draft, problem: { message: `${view.t('console.clients.sso.id')} ${view.t('console.clients.sso.bad_id')}.`, errors: [{ path: 'params/provider_id', message: view.t('console.clients.sso.bad_id') }] } });
    }
    // This form only adds: `If-None-Match: *` makes the API refuse a taken id (412) in the insert itself.
    const answer = await project.call('PUT', `/projects/${projectId}/sso_providers/${providerId}`, ssoProviderBody(form), { 'if-none-match': '*' });
    if (answer.status === 412) {
      return renderProviders(request, reply, 400, { draft, problem: { message: view.t('console.clients.sso.taken'), errors: [{ path: 'params/provider_id', message: view.t('console.clients.sso.taken') }] } });
    }
    if (answer.status === 400) return renderProviders(request, reply, 400, { problem: new ApiRefusal(answer).problem, draft });
    if (answer.status !== 201) throw new ApiRefusal(answer);
    return afterWrite(reply, consoleHref(view, `${ssoPath(projectId)}?notice=sso_created`));
  });

  app.post('/console/projects/:project_id/sso_providers/:provider_id/delete', { config }, async (request, reply) => {
    kit.writeGuard(request);
    const view = consoleView(request);
    const providerId = pathParam(request, 'provider_id', PROVIDER_ID);
    const { project, projectId } = await kit.asProject(request);
    if (kit.formOf(request.body).get('confirm') !== 'yes') return afterWrite(reply, consoleHref(view, `${ssoPath(projectId)}?notice=not_confirmed`));
    await project.data('DELETE', `/projects/${projectId}/sso_providers/${providerId}`);
    return afterWrite(reply, consoleHref(view, `${ssoPath(projectId)}?notice=deleted`));
  });
}
