import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiRefusal } from './api.js';
import type { ConsolePageKit } from './kit.js';
import { afterWrite, pathIds } from './paths.js';
import { outboxMarkup, userMarkup, usersMarkup, type AuditEvent, type CredentialItem, type OutboxMessage, type SessionItem, type UserPage, type UserResource } from './pages/users.js';
import { consoleHref, consoleView, sendConsolePage } from './render.js';
import { userEvents } from './routes.events.js';

const config = { page: true, tenancy: 'credential' } as const;


/** Users of a project (search, one user, revoke, unlock, recovery mail, delete) and the development outbox. */
export function userPages(kit: ConsolePageKit): void {
  const { app, assets } = kit;


  app.get('/console/projects/:project_id/users', { config, exposeHeadRoute: false }, async (request, reply) => {
    const view = consoleView(request);
    const [projectId] = pathIds(request, 'project_id');
    const { project, chrome } = await kit.asProject(request);
    const query = request.query as Record<string, unknown>;
    const identifier = typeof query.identifier === 'string' && query.identifier.trim() !== '' ? query.identifier.trim().slice(0, 320) : undefined;
    const params = new URLSearchParams({ project_id: projectId, limit: '50' });
    if (identifier !== undefined) params.set('identifier', identifier);
    const page = await project.data<{ users: UserResource[]; next_page_token?: string }>('GET', `/users?${params}`);
    const content = usersMarkup(view, projectId, page.users, { identifier, notice: query.notice, more: page.next_page_token !== undefined });
    return sendConsolePage(reply, view, assets, 200, view.t('console.users.title'), content, chrome);
  });

  const renderUser = async (request: FastifyRequest, reply: FastifyReply, status: number, problems: Pick<UserPage, 'attributes' | 'recovery'> = {}) => {
    const view = consoleView(request);
    const [projectId, userId] = pathIds(request, 'project_id', 'user_id');
    const { project, chrome } = await kit.asProject(request);
    const user = await project.data<UserResource>('GET', `/users/${userId}`);
    const [sessions, credentials, audit, events] = await Promise.all([
      project.data<{ sessions: SessionItem[] }>('GET', `/sessions?${new URLSearchParams({ project_id: projectId, user_id: userId, state: 'active', limit: '100' })}`),
      project.data<{ credentials: CredentialItem[] }>('GET', `/users/${userId}/credentials`),
      project.data<{ events: AuditEvent[] }>('GET', `/users/${userId}/audit?limit=20`),
      userEvents(project, projectId, userId),
    ]);
    const page: UserPage = { user, sessions: sessions.sessions, credentials: credentials.credentials, audit: audit.events, events, notice: (request.query as Record<string, unknown>).notice, ...problems };
    return sendConsolePage(reply, view, assets, status, view.t('console.user.title'), userMarkup(view, projectId, page), chrome);
  };

  app.get('/console/projects/:project_id/users/:user_id', { config, exposeHeadRoute: false }, (request, reply) => renderUser(request, reply, 200));

  app.post('/console/projects/:project_id/users/:user_id/attributes', { config }, async (request, reply) => {
    kit.writeGuard(request);
    const view = consoleView(request);
    const [projectId, userId] = pathIds(request, 'project_id', 'user_id');
    const { project } = await kit.asProject(request);
    const text = kit.formOf(request.body).get('attributes') ?? '';
    let attributes: unknown;
    try {
      attributes = JSON.parse(text);
    } catch {
      return renderUser(request, reply, 400, { attributes: { text, message: view.t('console.user.not_json'), errors: [] } });
    }
    const answer = await project.call('PATCH', `/users/${userId}`, { attributes });
    if (answer.status === 400 || answer.status === 409) {
      const refusal = new ApiRefusal(answer);
      return renderUser(request, reply, answer.status, { attributes: { ...refusal.problem, text } });
    }
    if (answer.status !== 200) throw new ApiRefusal(answer);
    return afterWrite(reply, consoleHref(view, `/console/projects/${projectId}/users/${userId}?notice=saved`));
  });

  app.post('/console/projects/:project_id/users/:user_id/credentials/:credential_id/remove', { config }, async (request, reply) => {
    kit.writeGuard(request);
    const view = consoleView(request);
    const [projectId, userId, credentialId] = pathIds(request, 'project_id', 'user_id', 'credential_id');
    const { project } = await kit.asProject(request);
    await project.data('DELETE', `/users/${userId}/credentials/${credentialId}`);
    return afterWrite(reply, consoleHref(view, `/console/projects/${projectId}/users/${userId}?notice=credential_removed`));
  });

  app.post('/console/projects/:project_id/users/:user_id/sessions/:session_id/revoke', { config }, async (request, reply) => {
    kit.writeGuard(request);
    const view = consoleView(request);
    const [projectId, userId, sessionId] = pathIds(request, 'project_id', 'user_id', 'session_id');
    const { project } = await kit.asProject(request);
    const session = await project.data<{ user_id?: string }>('GET', `/sessions/${sessionId}`);
    // The form names the user too: a session of another user is not this page's to end.
    if (session.user_id !== userId) throw new ApiRefusal({ status: 404, body: {} });
    await project.data('DELETE', `/sessions/${sessionId}`);
    return afterWrite(reply, consoleHref(view, `/console/projects/${projectId}/users/${userId}?notice=revoked`));
  });

  app.post('/console/projects/:project_id/users/:user_id/unlock', { config }, async (request, reply) => {
    kit.writeGuard(request);
    const view = consoleView(request);
    const [projectId, userId] = pathIds(request, 'project_id', 'user_id');
    const { project } = await kit.asProject(request);
    await project.data('POST', `/users/${userId}/unlock`);
    return afterWrite(reply, consoleHref(view, `/console/projects/${projectId}/users/${userId}?notice=unlocked`));
  });

  app.post('/console/projects/:project_id/users/:user_id/recovery_link', { config }, async (request, reply) => {
    kit.writeGuard(request);
    const view = consoleView(request);
    const [projectId, userId] = pathIds(request, 'project_id', 'user_id');
    const { project } = await kit.asProject(request);
    const language = kit.formOf(request.body).get('language') === 'de' ? 'de' : 'en';
    const answer = await project.call('POST', `/users/${userId}/recovery_link`, { language });
    // No address, or the address's mail budget is spent: the user page says what the API said.
    if (answer.status === 409 || answer.status === 429) {
      const refusal = new ApiRefusal(answer);
      return renderUser(request, reply, answer.status, { recovery: { ...refusal.problem, message: `${view.t('console.user.recovery_refused')} ${refusal.problem.message}` } });
    }
    if (answer.status !== 202) throw new ApiRefusal(answer);
    return afterWrite(reply, consoleHref(view, `/console/projects/${projectId}/users/${userId}?notice=recovery_sent`));
  });

  app.post('/console/projects/:project_id/users/:user_id/delete', { config }, async (request, reply) => {
    kit.writeGuard(request);
    const view = consoleView(request);
    const [projectId, userId] = pathIds(request, 'project_id', 'user_id');
    const userPage = `/console/projects/${projectId}/users/${userId}`;
    if (kit.formOf(request.body).get('confirm') !== 'yes') return afterWrite(reply, consoleHref(view, userPage));
    const { project, session } = await kit.asProject(request);
    const redirected = kit.stepUp(request, reply, session, userPage);
    if (redirected) return redirected;
    await project.data('DELETE', `/users/${userId}`);
    return afterWrite(reply, consoleHref(view, `/console/projects/${projectId}/users?notice=deleted`));
  });

  app.get('/console/projects/:project_id/outbox', { config, exposeHeadRoute: false }, async (request, reply) => {
    const view = consoleView(request);
    const [projectId] = pathIds(request, 'project_id');
    const { project, chrome } = await kit.asProject(request);
    // Production sends mail by SMTP and keeps no bodies: the page does not exist there.
    if (!chrome.outbox) throw new ApiRefusal({ status: 404, body: {} });
    const outbox = await project.data<{ messages: OutboxMessage[] }>('GET', `/projects/${projectId}/outbox?limit=50`);
    return sendConsolePage(reply, view, assets, 200, view.t('console.outbox.title'), outboxMarkup(view, projectId, outbox.messages), chrome);
  });
}
