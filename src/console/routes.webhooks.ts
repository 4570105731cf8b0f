import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiRefusal, type ApiAnswer } from './api.js';
import type { ConsolePageKit } from './kit.js';
import { afterWrite, pathParam } from './paths.js';
import { webhookMarkup, webhooksMarkup, type Delivery, type Webhook, type WebhookDraft, type WebhookPage, type WebhookProblem, type WebhooksPage } from './pages/webhooks.js';
import { consoleHref, consoleView, sendConsolePage } from './render.js';

const config = { page: true, tenancy: 'credential' } as const;

/** Deliveries a page of the endpoint's log shows. */
const DELIVERIES_PER_PAGE = 20;

/** Event types separated by commas (or white space), as typed otherwise: the API names what it refuses. */
const typesOf = (value: string | null) => (value ?? '').split(/[\s,]+/).filter(Boolean);

/** The body of `POST /projects/{id}/webhooks` (or of its PATCH) from the form; an empty description is none (PATCH: removed). */
function webhookBody(form: URLSearchParams, options: { patch: boolean }): Record<string, unknown> {
  const description = form.get('description')?.trim();
  return {
    url: form.get('url')?.trim() ?? '',
    events: typesOf(form.get('events')),
    ...(description ? { description } : options.patch ? { description: null } : {}),
  };
}

const draftOf = (form: URLSearchParams): WebhookDraft => Object.fromEntries(form);

/** A 400 at the form: the API's message and field errors, and the types it listed for an unknown one. Anything else is the error page. */
function formProblem(answer: ApiAnswer): WebhookProblem | undefined {
  if (answer.status !== 400) return undefined;
  const details = answer.body.details as { known_types?: unknown } | undefined;
  const knownTypes = Array.isArray(details?.known_types) ? details.known_types.filter((type): type is string => typeof type === 'string') : undefined;
  return { ...new ApiRefusal(answer).problem, knownTypes };
}

/** A project's webhook endpoints and their deliveries (DESIGN §4.21), all through `/projects/{id}/webhooks`. */
export function webhookPages(kit: ConsolePageKit): void {
  const { app, assets } = kit;
  const listPath = (projectId: string) => `/console/projects/${projectId}/webhooks`;
  const query = (request: FastifyRequest) => request.query as Record<string, unknown>;

  const renderList = async (request: FastifyRequest, reply: FastifyReply, status: number, options: Omit<WebhooksPage, 'webhooks' | 'more'> = {}) => {
    const view = consoleView(request);
    const { project, projectId, chrome } = await kit.asProject(request);
    const list = await project.data<{ webhooks: Webhook[]; next_page_token?: string }>('GET', `/projects/${projectId}/webhooks?limit=100`);
    const content = webhooksMarkup(view, projectId, { ...options, webhooks: list.webhooks, more: list.next_page_token !== undefined });
    return sendConsolePage(reply, view, assets, status, view.t('console.webhooks.title'), content, chrome);
  };

  const renderOne = async (request: FastifyRequest, reply: FastifyReply, status: number, options: Omit<WebhookPage, 'webhook' | 'deliveries' | 'paged'> = {}) => {
    const view = consoleView(request);
    const webhookId = pathParam(request, 'webhook_id');
    const { project, projectId, chrome } = await kit.asProject(request);
    const webhook = await project.data<Webhook>('GET', `/projects/${projectId}/webhooks/${webhookId}`);
    // Only a GET pages; a page after a form post shows the newest deliveries.
    const token = request.method === 'GET' ? query(request).page_token : undefined;
    const pageToken = typeof token === 'string' && token !== '' ? token.slice(0, 512) : undefined;
    const params = new URLSearchParams({ limit: String(DELIVERIES_PER_PAGE), ...(pageToken ? { page_token: pageToken } : {}) });
    const log = await project.data<{ deliveries: Delivery[]; next_page_token?: string }>('GET', `/projects/${projectId}/webhooks/${webhookId}/deliveries?${params}`);
    const content = webhookMarkup(view, projectId, { ...options, webhook, deliveries: log.deliveries, next: log.next_page_token, paged: pageToken !== undefined });
    return sendConsolePage(reply, view, assets, status, view.t('console.webhooks.endpoint_title', { id: webhook.id }), content, chrome);
  };

  /** Back to the endpoint's page with a note (PRG). */
  const toEndpoint = (request: FastifyRequest, reply: FastifyReply, projectId: string, webhookId: string, notice: string) =>
    afterWrite(reply, consoleHref(consoleView(request), `${listPath(projectId)}/${webhookId}?notice=${notice}`));

  app.get('/console/projects/:project_id/webhooks', { config, exposeHeadRoute: false }, (request, reply) => renderList(request, reply, 200, { notice: query(request).notice }));

  app.post('/console/projects/:project_id/webhooks', { config }, async (request, reply) => {
    kit.writeGuard(request);
    const { project, projectId } = await kit.asProject(request);
    const form = kit.formOf(request.body);
    const answer = await project.call('POST', `/projects/${projectId}/webhooks`, webhookBody(form, { patch: false }));
    const problem = formProblem(answer);
    if (problem) return renderList(request, reply, 400, { problem, draft: draftOf(form) });
    if (answer.status !== 201) throw new ApiRefusal(answer);
    // The secret exists in this answer only: shown here, never behind a redirect.
    return renderList(request, reply, 201, { created: answer.body as unknown as Webhook & { secret: string } });
  });

  app.get('/console/projects/:project_id/webhooks/:webhook_id', { config, exposeHeadRoute: false }, (request, reply) => renderOne(request, reply, 200, { notice: query(request).notice }));

  app.post('/console/projects/:project_id/webhooks/:webhook_id', { config }, async (request, reply) => {
    kit.writeGuard(request);
    const webhookId = pathParam(request, 'webhook_id');
    const { project, projectId } = await kit.asProject(request);
    const form = kit.formOf(request.body);
    const answer = await project.call('PATCH', `/projects/${projectId}/webhooks/${webhookId}`, webhookBody(form, { patch: true }));
    const problem = formProblem(answer);
    // The page reads the endpoint first: another project's id is its 404, whatever the form held.
    if (problem) return renderOne(request, reply, 400, { problem, draft: draftOf(form) });
    if (answer.status !== 200) throw new ApiRefusal(answer);
    return toEndpoint(request, reply, projectId, webhookId, 'saved');
  });

  app.post('/console/projects/:project_id/webhooks/:webhook_id/enabled', { config }, async (request, reply) => {
    kit.writeGuard(request);
    const webhookId = pathParam(request, 'webhook_id');
    const { project, projectId } = await kit.asProject(request);
    const enabled = kit.formOf(request.body).get('enabled') === 'yes';
    await project.data('PATCH', `/projects/${projectId}/webhooks/${webhookId}`, { enabled });
    return toEndpoint(request, reply, projectId, webhookId, enabled ? 'enabled' : 'disabled');
  });

  app.post('/console/projects/:project_id/webhooks/:webhook_id/rotate_secret', { config }, async (request, reply) => {
    kit.writeGuard(request);
    const webhookId = pathParam(request, 'webhook_id');
    const { project, projectId } = await kit.asProject(request);
    if (kit.formOf(request.body).get('confirm') !== 'yes') {
      // Not this project's endpoint: the 404, not a note on a page that does not exist.
      await project.data('GET', `/projects/${projectId}/webhooks/${webhookId}`);
      return toEndpoint(request, reply, projectId, webhookId, 'rotate_not_confirmed');
    }
    const rotated = await project.data<{ secret: string; previous_valid_until: string }>('POST', `/projects/${projectId}/webhooks/${webhookId}/rotate_secret`);
    // The new secret exists in this answer only: shown here, never behind a redirect.
    return renderOne(request, reply, 200, { rotated });
  });

  app.post('/console/projects/:project_id/webhooks/:webhook_id/delete', { config }, async (request, reply) => {
    kit.writeGuard(request);
    const view = consoleView(request);
    const webhookId = pathParam(request, 'webhook_id');
    const { project, projectId } = await kit.asProject(request);
    if (kit.formOf(request.body).get('confirm') !== 'yes') {
      await project.data('GET', `/projects/${projectId}/webhooks/${webhookId}`);
      return toEndpoint(request, reply, projectId, webhookId, 'not_confirmed');
    }
    await project.data('DELETE', `/projects/${projectId}/webhooks/${webhookId}`);
    return afterWrite(reply, consoleHref(view, `${listPath(projectId)}?notice=deleted`));
  });

  app.post('/console/projects/:project_id/webhooks/:webhook_id/deliveries/:delivery_id/redeliver', { config }, async (request, reply) => {
    kit.writeGuard(request);
    const webhookId = pathParam(request, 'webhook_id');
    const deliveryId = pathParam(request, 'delivery_id');
    const { project, projectId } = await kit.asProject(request);
    await project.data('POST', `/projects/${projectId}/webhooks/${webhookId}/deliveries/${deliveryId}/redeliver`);
    return toEndpoint(request, reply, projectId, webhookId, 'redelivered');
  });
}
