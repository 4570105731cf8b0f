import type { FastifyReply, FastifyRequest } from 'fastify';
import { esc } from '../ui/html.js';
import { ApiRefusal } from './api.js';
import { ID_PATTERN, isInstanceAdmin, type ConsolePageKit } from './kit.js';
import { afterWrite, pathParam } from './paths.js';
import { keysMarkup, operatorsMarkup, type RoleGrant, type ServiceKey } from './pages/access.js';
import { consoleHref, consoleView, sendConsolePage } from './render.js';

const config = { page: true, tenancy: 'credential' } as const;


/** Who may call the API: a project's service keys, and the operators' roles (instance admins). */
export function accessPages(kit: ConsolePageKit): void {
  const { app, assets } = kit;


  const renderKeys = async (request: FastifyRequest, reply: FastifyReply, status: number, created?: ServiceKey & { client_secret: string }, error?: string) => {
    const view = consoleView(request);
    const { project, projectId, chrome } = await kit.asProject(request);
    const list = await project.data<{ service_keys: ServiceKey[] }>('GET', `/projects/${projectId}/service_keys?limit=100`);
    return sendConsolePage(reply, view, assets, status, view.t('console.keys.title'), keysMarkup(view, projectId, list.service_keys, created, error), chrome);
  };

  app.get('/console/projects/:project_id/keys', { config, exposeHeadRoute: false }, (request, reply) => renderKeys(request, reply, 200));

  app.post('/console/projects/:project_id/keys', { config }, async (request, reply) => {
    kit.writeGuard(request);
    const { project, projectId } = await kit.asProject(request);
    const form = kit.formOf(request.body);
    const name = form.get('name')?.trim();
    const answer = await project.call('POST', `/projects/${projectId}/service_keys`, { ...(name ? { name } : {}), scopes: form.getAll('scopes') });
    if (answer.status === 400) return renderKeys(request, reply, 400, undefined, new ApiRefusal(answer).message);
    if (answer.status !== 201) throw new ApiRefusal(answer);
    // The secret exists in this answer only: shown here, never behind a redirect.
    return renderKeys(request, reply, 201, answer.body as unknown as ServiceKey & { client_secret: string });
  });

  app.post('/console/projects/:project_id/keys/:key_id/delete', { config }, async (request, reply) => {
    kit.writeGuard(request);
    const { project, projectId } = await kit.asProject(request);
    await project.data('DELETE', `/projects/${projectId}/service_keys/${pathParam(request, 'key_id')}`);
    return afterWrite(reply, consoleHref(consoleView(request), `/console/projects/${projectId}/keys`));
  });

  /** Instance admins only: anyone else gets the 404 of a page that is not theirs. */
  const asInstanceAdmin = async (request: FastifyRequest) => {
    const signedIn = await kit.operatorOf(request);
    if (!isInstanceAdmin(signedIn.operator)) throw new ApiRefusal({ status: 404, body: {} });
    return signedIn;
  };

  const renderOperators = async (request: FastifyRequest, reply: FastifyReply, status: number, options: { error?: string; notice?: string } = {}) => {
    const view = consoleView(request);
    const { api, chrome } = await asInstanceAdmin(request);
    const [roles, projects, system] = await Promise.all([
      api.data<{ roles: RoleGrant[] }>('GET', '/operators?limit=100'),
      api.data<{ projects: Array<{ id: string; name: string }> }>('GET', '/projects?limit=100'),
      api.data<{ project_id: string }>('GET', '/operators/system_project'),
    ]);
    const signUp = `${kit.publicUrl}/ui/register?project_id=${encodeURIComponent(system.project_id)}`;
    const others = projects.projects.filter((project) => project.id !== system.project_id);
    // The sentence is escaped around the link, which is built from the public URL and an id.
    const [before, after] = view.t('console.operators.sign_up', { link: '\u0000' }).split('\u0000');
    const content = operatorsMarkup(view, roles.roles, others, options) + `<p class="description">${esc(before)}<a href="${esc(signUp)}">${esc(signUp)}</a>${esc(after ?? '')}</p>`;
    return sendConsolePage(reply, view, assets, status, view.t('console.operators.title'), content, chrome);
  };

  app.get('/console/operators', { config, exposeHeadRoute: false }, (request, reply) => {
    const notice = (request.query as Record<string, unknown>).notice === 'saved' ? consoleView(request).t('console.notice.saved') : undefined;
    return renderOperators(request, reply, 200, { notice });
  });

  app.post('/console/operators', { config }, async (request, reply) => {
    kit.writeGuard(request);
    const view = consoleView(request);
    const { api } = await asInstanceAdmin(request);
    const form = kit.formOf(request.body);
    const email = form.get('email')?.trim() ?? '';
    const projectId = form.get('project_id') || undefined;
    const system = await api.data<{ project_id: string }>('GET', '/operators/system_project');
    const found = email ? await api.data<{ users: Array<{ id: string }> }>('GET', `/users?${new URLSearchParams({ project_id: system.project_id, identifier: email })}`) : { users: [] };
    const userId = found.users[0]?.id;
    if (!userId) return renderOperators(request, reply, 400, { error: view.t('console.operators.no_such_user') });
    const answer = await api.call('PUT', `/operators/${userId}/roles`, projectId ? { role: 'project_admin', project_id: projectId } : { role: 'instance_admin' });
    if (answer.status !== 200) return renderOperators(request, reply, answer.status === 404 ? 404 : 400, { error: new ApiRefusal(answer).message });
    return afterWrite(reply, consoleHref(view, '/console/operators?notice=saved'));
  });

  app.post('/console/operators/:user_id/revoke', { config }, async (request, reply) => {
    kit.writeGuard(request);
    const view = consoleView(request);
    const { api } = await asInstanceAdmin(request);
    const projectId = (request.query as Record<string, unknown>).project_id;
    const query = typeof projectId === 'string' && ID_PATTERN.test(projectId) ? `?project_id=${projectId}` : '';
    const answer = await api.call('DELETE', `/operators/${pathParam(request, 'user_id')}/roles${query}`);
    // The last instance admin keeps the role (409): the page says why.
    if (answer.status === 409) return renderOperators(request, reply, 409, { error: new ApiRefusal(answer).message });
    if (answer.status !== 204) throw new ApiRefusal(answer);
    return afterWrite(reply, consoleHref(view, '/console/operators?notice=saved'));
  });
}
