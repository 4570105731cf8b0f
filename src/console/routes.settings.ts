import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiRefusal, type ConsoleApi } from './api.js';
import { isInstanceAdmin, type ConsolePageKit } from './kit.js';
import type { ConsoleSession } from './session.js';
import { linesOf } from './paths.js';
import type { ProjectSummary } from './pages/projects.js';
import { settingsMarkup, type FlowSettings, type SettingsProblem } from './pages/settings.js';
import { consoleHref, consoleView, sendConsolePage } from './render.js';

const config = { page: true, tenancy: 'credential' } as const;


/** A project's settings page and its forms; each form is one API call, its 400 shown at the form. */
export function settingsPages(kit: ConsolePageKit): void {
  const { app, assets } = kit;


  const render = async (request: FastifyRequest, reply: FastifyReply, status: number, options: { problem?: SettingsProblem; notice?: string; secret?: string } = {}) => {
    const view = consoleView(request);
    const { project, projectId, operator, chrome } = await kit.asProject(request);
    const [summary, flow] = await Promise.all([project.data<ProjectSummary>('GET', `/projects/${projectId}`), project.data<FlowSettings>('GET', `/projects/${projectId}/flow_settings`)]);
    const content = settingsMarkup(view, summary, flow, { ...options, canDelete: isInstanceAdmin(operator) });
    return sendConsolePage(reply, view, assets, status, view.t('console.settings.title', { name: summary.name }), content, chrome);
  };
  const saved = (request: FastifyRequest, reply: FastifyReply, projectId: string) =>
    reply.header('cache-control', 'no-store').redirect(consoleHref(consoleView(request), `/console/projects/${projectId}/settings?notice=saved`), 303);

  /** One form's API call: a 400 renders the page again with the errors at that form. */
  const submit = async (request: FastifyRequest, reply: FastifyReply, form: SettingsProblem['form'], call: (project: ConsoleApi, projectId: string, fields: URLSearchParams) => Promise<unknown>) => {
    kit.writeGuard(request);
    const { project, projectId } = await kit.asProject(request);
    try {
      await call(project, projectId, kit.formOf(request.body));
    } catch (error) {
      if (!(error instanceof ApiRefusal) || error.answer.status !== 400) throw error;
      return render(request, reply, 400, { problem: { ...error.problem, form } });
    }
    return saved(request, reply, projectId);
  };

  app.get('/console/projects/:project_id/settings', { config, exposeHeadRoute: false }, async (request, reply) => {
    const notice = (request.query as Record<string, unknown>).notice === 'saved' ? consoleView(request).t('console.settings.saved') : undefined;
    return render(request, reply, 200, { notice });
  });

  app.post('/console/projects/:project_id/settings/general', { config }, (request, reply) =>
    submit(request, reply, 'general', (project, id, fields) => project.data('PATCH', `/projects/${id}`, { name: fields.get('name') ?? '', preview_origins: linesOf(fields.get('preview_origins')) })),
  );

  app.post('/console/projects/:project_id/settings/redirects', { config }, (request, reply) =>
    submit(request, reply, 'redirects', (project, id, fields) => project.data('PUT', `/projects/${id}/flow_settings`, { redirect_uris: linesOf(fields.get('redirect_uris')) })),
  );

  app.post('/console/projects/:project_id/settings/risk', { config }, (request, reply) =>
    submit(request, reply, 'risk', (project, id, fields) => {
      // Whole numbers go as numbers; anything else goes as typed, and the API's schema says what is wrong.
      const risk = Object.fromEntries([...fields].map(([key, value]) => [key, /^\d{1,9}$/.test(value.trim()) ? Number(value.trim()) : value]));
      return project.data('PUT', `/projects/${id}/flow_settings`, { risk });
    }),
  );

  /** Rotating the secret and deleting the project ask for a sign-in within five minutes. */
  const stepUp = (request: FastifyRequest, reply: FastifyReply, session: ConsoleSession, projectId: string) => kit.stepUp(request, reply, session, `/console/projects/${projectId}/settings`);

  app.post('/console/projects/:project_id/settings/rotate', { config }, async (request, reply) => {
    kit.writeGuard(request);
    const { project, projectId, session } = await kit.asProject(request);
    if (kit.formOf(request.body).get('confirm') !== 'yes') return saved(request, reply, projectId);
    const redirected = await stepUp(request, reply, session, projectId);
    if (redirected) return redirected;
    const rotated = await project.data<{ project_secret: string }>('POST', `/projects/${projectId}/rotate_secret`, {});
    // The new secret exists in this answer only: shown here, never behind a redirect.
    return render(request, reply, 200, { secret: rotated.project_secret });
  });

  app.post('/console/projects/:project_id/settings/delete', { config }, async (request, reply) => {
    kit.writeGuard(request);
    const view = consoleView(request);
    const { project, projectId, session } = await kit.asProject(request);
    const summary = await project.data<ProjectSummary>('GET', `/projects/${projectId}`);
    if (kit.formOf(request.body).get('confirm_name') !== summary.name) {
      return render(request, reply, 400, { problem: { form: 'general', message: view.t('console.settings.delete_mismatch'), errors: [] } });
    }
    const redirected = await stepUp(request, reply, session, projectId);
    if (redirected) return redirected;
    await project.data('DELETE', `/projects/${projectId}`);
    return reply.header('cache-control', 'no-store').redirect(consoleHref(view, '/console?notice=project_deleted'), 303);
  });
}
