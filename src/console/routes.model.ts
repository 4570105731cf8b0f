import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiRefusal, type ApiAnswer, type ConsoleApi } from './api.js';
import { ID_PATTERN, type ConsolePageKit } from './kit.js';
import { afterWrite, pathIds } from './paths.js';
import {
  definitionProblemOf,
  flowMarkup,
  flowsMarkup,
  objectTypeOf,
  schemasMarkup,
  teamsMarkup,
  type DefinitionEntry,
  type DefinitionProblem,
  type FlowDefinition,
  type FormProblem,
  type SchemaRevision,
  type Team,
} from './pages/model.js';
import { consoleHref, consoleView, sendConsolePage } from './render.js';

const config = { page: true, tenancy: 'credential' } as const;

/** Lists are read a page of 100 at a time, at most this many pages: a page shows at most 500 rows. */
const MAX_PAGES = 5;

const queryOf = (request: FastifyRequest) => request.query as Record<string, unknown>;
const queryId = (value: unknown) => (typeof value === 'string' && ID_PATTERN.test(value) ? value : undefined);

/** A list endpoint read page by page; `more` when rows are left after MAX_PAGES. */
async function listAll<T>(project: ConsoleApi, path: string, params: Record<string, string>, key: string): Promise<{ items: T[]; more: boolean }> {
  const items: T[] = [];
  let token: string | undefined;
  for (let page = 0; page < MAX_PAGES; page += 1) {
    const query = new URLSearchParams({ ...params, limit: '100', ...(token ? { page_token: token } : {}) });
    const body = await project.data<Record<string, unknown>>('GET', `${path}?${query}`);
    items.push(...(body[key] as T[]));
    token = typeof body.next_page_token === 'string' ? body.next_page_token : undefined;
    if (!token) return { items, more: false };
  }
  return { items, more: true };
}

/** The JSON of a textarea, or undefined when it does not parse. */
function parsed(text: string): { value: unknown } | undefined {
  try {
    return { value: JSON.parse(text) };
  } catch {
    return undefined;
  }
}

const problemOf = (answer: ApiAnswer, text: string): FormProblem => {
  const refusal = new ApiRefusal(answer);
  return { ...refusal.problem, text };
};

/** A project's teams, user schemas (revisions side by side) and flow definitions (step graph, save, activate). */
export function modelPages(kit: ConsolePageKit): void {
  const { app, assets } = kit;


  // ---- teams ----

  const renderTeams = async (request: FastifyRequest, reply: FastifyReply, status: number, problem?: FormProblem, deleteProblem?: FormProblem) => {
    const view = consoleView(request);
    const [projectId] = pathIds(request, 'project_id');
    const { project, chrome } = await kit.asProject(request);
    const teams = await listAll<Team>(project, '/teams', { project_id: projectId }, 'teams');
    const content = teamsMarkup(view, projectId, teams.items, { notice: queryOf(request).notice, problem, deleteProblem, more: teams.more });
    return sendConsolePage(reply, view, assets, status, view.t('console.model.teams.title'), content, chrome);
  };

  app.get('/console/projects/:project_id/teams', { config, exposeHeadRoute: false }, (request, reply) => renderTeams(request, reply, 200));

  app.post('/console/projects/:project_id/teams', { config }, async (request, reply) => {
    kit.writeGuard(request);
    const [projectId] = pathIds(request, 'project_id');
    const { project } = await kit.asProject(request);
    const name = kit.formOf(request.body).get('name') ?? '';
    const answer = await project.call('POST', `/teams?${new URLSearchParams({ project_id: projectId })}`, { name });
    // A 409 is a name the project uses already: as much the form's problem as a 400.
    if (answer.status === 400 || answer.status === 409) return renderTeams(request, reply, answer.status, problemOf(answer, name));
    if (answer.status !== 201) throw new ApiRefusal(answer);
    return afterWrite(reply, consoleHref(consoleView(request), `/console/projects/${projectId}/teams?notice=team_created`));
  });

  app.post('/console/projects/:project_id/teams/:team_id/delete', { config }, async (request, reply) => {
    kit.writeGuard(request);
    const [projectId, teamId] = pathIds(request, 'project_id', 'team_id');
    const { project } = await kit.asProject(request);
    const answer = await project.call('DELETE', `/teams/${teamId}`);
    // 409: the team still owns user schemas or users; the page says so above the list.
    if (answer.status === 409) return renderTeams(request, reply, 409, undefined, problemOf(answer, ''));
    if (answer.status !== 204) throw new ApiRefusal(answer);
    return afterWrite(reply, consoleHref(consoleView(request), `/console/projects/${projectId}/teams?notice=team_deleted`));
  });

  // ---- user schemas ----

  const renderSchemas = async (request: FastifyRequest, reply: FastifyReply, status: number, problem?: FormProblem) => {
    const view = consoleView(request);
    const [projectId] = pathIds(request, 'project_id');
    const { project, chrome } = await kit.asProject(request);
    const [revisions, teams] = await Promise.all([
      listAll<SchemaRevision>(project, '/schemas', { project_id: projectId, revisions: 'all' }, 'schemas'),
      listAll<Team>(project, '/teams', { project_id: projectId }, 'teams'),
    ]);
    const query = queryOf(request);
    const [aId, bId] = [queryId(query.a), queryId(query.b)];
    let compare: { a: SchemaRevision; b: SchemaRevision } | undefined;
    if (bId !== undefined) {
      const b = await project.data<SchemaRevision>('GET', `/schemas/${bId}`);
      // `?b=` alone compares a revision with the one before it of the same object type.
      const before = revisions.items.filter((r) => objectTypeOf(r) === objectTypeOf(b) && r.metadata.created_at <= b.metadata.created_at && r.id !== b.id).at(-1);
      const a = aId !== undefined ? await project.data<SchemaRevision>('GET', `/schemas/${aId}`) : before;
      if (a) compare = { a, b };
    }
    const content = schemasMarkup(view, projectId, revisions.items, { teams: teams.items, compare, notice: query.notice, problem, more: revisions.more });
    return sendConsolePage(reply, view, assets, status, view.t('console.model.schemas.title'), content, chrome);
  };

  app.get('/console/projects/:project_id/schemas', { config, exposeHeadRoute: false }, (request, reply) => renderSchemas(request, reply, 200));

  app.post('/console/projects/:project_id/schemas', { config }, async (request, reply) => {
    kit.writeGuard(request);
    const view = consoleView(request);
    const [projectId] = pathIds(request, 'project_id');
    const { project } = await kit.asProject(request);
    const fields = kit.formOf(request.body);
    const text = fields.get('document') ?? '';
    const document = parsed(text);
    if (!document) return renderSchemas(request, reply, 400, { message: view.t('console.model.not_json'), errors: [], text });
    const teamId = fields.get('team_id');
    const query = new URLSearchParams({ project_id: projectId, ...(teamId ? { team_id: teamId } : {}) });
    const answer = await project.call('POST', `/schemas?${query}`, document.value);
    if (answer.status === 400 || answer.status === 409) return renderSchemas(request, reply, answer.status, problemOf(answer, text));
    if (answer.status !== 201) throw new ApiRefusal(answer);
    return afterWrite(reply, consoleHref(view, `/console/projects/${projectId}/schemas?notice=schema_added&b=${encodeURIComponent(String(answer.body.id))}`));
  });

  // ---- flow definitions ----

  /** What the create form starts with: the smallest valid definition, inactive, on the newest user schema. */
  const starterOf = async (project: ConsoleApi, projectId: string) => {
    const latest = await project.data<{ schemas: SchemaRevision[] }>('GET', `/schemas?${new URLSearchParams({ project_id: projectId, revisions: 'latest', limit: '100' })}`);
    const userSchema = (latest.schemas.find((r) => objectTypeOf(r) === 'user') ?? latest.schemas[0])?.schema.$id;
    const starter = { name: 'new_flow', status: 'inactive', ...(typeof userSchema === 'string' ? { user_schema: userSchema } : {}), purposes: { new_flow: 'start' }, steps: [{ name: 'start', complete: 'show' }] };
    return JSON.stringify(starter, null, 2);
  };

  const renderFlows = async (request: FastifyRequest, reply: FastifyReply, status: number, problem?: DefinitionProblem) => {
    const view = consoleView(request);
    const [projectId] = pathIds(request, 'project_id');
    const { project, chrome } = await kit.asProject(request);
    const [entries, starter] = await Promise.all([listAll<DefinitionEntry>(project, '/flow_definitions', { project_id: projectId }, 'flow_definitions'), starterOf(project, projectId)]);
    const content = flowsMarkup(view, projectId, entries.items, { starter, notice: queryOf(request).notice, problem, more: entries.more });
    return sendConsolePage(reply, view, assets, status, view.t('console.model.flows.title'), content, chrome);
  };

  app.get('/console/projects/:project_id/flows', { config, exposeHeadRoute: false }, (request, reply) => renderFlows(request, reply, 200));

  app.post('/console/projects/:project_id/flows', { config }, async (request, reply) => {
    kit.writeGuard(request);
    const view = consoleView(request);
    const [projectId] = pathIds(request, 'project_id');
    const { project } = await kit.asProject(request);
    const text = kit.formOf(request.body).get('definition') ?? '';
    const typed = parsed(text);
    if (!typed) return renderFlows(request, reply, 400, { message: view.t('console.model.not_json'), errors: [], byStep: new Map(), text });
    const answer = await project.call('POST', '/flow_definitions', { project_id: projectId, flow_definition: typed.value });
    if (answer.status === 400) return renderFlows(request, reply, 400, definitionProblemOf(answer.body, typed.value, text));
    if (answer.status !== 201) throw new ApiRefusal(answer);
    return afterWrite(reply, consoleHref(view, `/console/projects/${projectId}/flows/${encodeURIComponent(String(answer.body.id))}?notice=flow_created`));
  });

  const renderFlow = async (request: FastifyRequest, reply: FastifyReply, status: number, options: { problem?: DefinitionProblem; statusProblem?: FormProblem; checked?: string } = {}) => {
    const view = consoleView(request);
    const [projectId, definitionId] = pathIds(request, 'project_id', 'definition_id');
    const { project, chrome } = await kit.asProject(request);
    const definition = await project.data<FlowDefinition>('GET', `/flow_definitions/${definitionId}`);
    const content = flowMarkup(view, projectId, definition, { notice: options.checked !== undefined ? 'flow_checked' : queryOf(request).notice, ...options });
    return sendConsolePage(reply, view, assets, status, view.t('console.model.flows.one_title', { name: String(definition.flow_definition.name ?? definitionId) }), content, chrome);
  };

  /**
   * The body of a PUT: a definition that names no user schema keeps the one it was stored with
   * (the list's `schema_uri`; GET of one definition does not answer it).
   */
  const replacement = async (project: ConsoleApi, projectId: string, definitionId: string, flowDefinition: unknown) => {
    const namesSchema = typeof (flowDefinition as { user_schema?: unknown } | null)?.user_schema === 'string';
    if (namesSchema) return { flow_definition: flowDefinition };
    const entries = await listAll<DefinitionEntry>(project, '/flow_definitions', { project_id: projectId }, 'flow_definitions');
    const stored = entries.items.find((entry) => entry.id === definitionId);
    return { flow_definition: flowDefinition, ...(stored ? { schema_uri: stored.schema_uri } : {}) };
  };

  app.get('/console/projects/:project_id/flows/:definition_id', { config, exposeHeadRoute: false }, (request, reply) => renderFlow(request, reply, 200));

  app.post('/console/projects/:project_id/flows/:definition_id', { config }, async (request, reply) => {
    kit.writeGuard(request);
    const view = consoleView(request);
    const [projectId, definitionId] = pathIds(request, 'project_id', 'definition_id');
    const { project } = await kit.asProject(request);
    const form = kit.formOf(request.body);
    const text = form.get('definition') ?? '';
    const typed = parsed(text);
    if (!typed) return renderFlow(request, reply, 400, { problem: { message: view.t('console.model.not_json'), errors: [], byStep: new Map(), text } });
    if (form.get('intent') === 'check') {
      // Checked, not stored: the text stays in the form either way.
      const checked = await project.call('POST', '/flow_definitions/validate', { project_id: projectId, ...(await replacement(project, projectId, definitionId, typed.value)) });
      if (checked.status === 400) return renderFlow(request, reply, 400, { problem: definitionProblemOf(checked.body, typed.value, text) });
      if (checked.status !== 204) throw new ApiRefusal(checked);
      return renderFlow(request, reply, 200, { checked: text });
    }
    const answer = await project.call('PUT', `/flow_definitions/${definitionId}`, await replacement(project, projectId, definitionId, typed.value));
    // 409: the text made the last active definition of a purpose inactive.
    if (answer.status === 400 || answer.status === 409) return renderFlow(request, reply, answer.status, { problem: definitionProblemOf(answer.body, typed.value, text) });
    if (answer.status !== 200) throw new ApiRefusal(answer);
    return afterWrite(reply, consoleHref(view, `/console/projects/${projectId}/flows/${definitionId}?notice=flow_saved`));
  });

  app.post('/console/projects/:project_id/flows/:definition_id/status', { config }, async (request, reply) => {
    kit.writeGuard(request);
    const view = consoleView(request);
    const [projectId, definitionId] = pathIds(request, 'project_id', 'definition_id');
    const status = kit.formOf(request.body).get('status');
    if (status !== 'active' && status !== 'inactive') return afterWrite(reply, consoleHref(view, `/console/projects/${projectId}/flows/${definitionId}`));
    const { project } = await kit.asProject(request);
    const current = await project.data<FlowDefinition>('GET', `/flow_definitions/${definitionId}`);
    const answer = await project.call('PUT', `/flow_definitions/${definitionId}`, await replacement(project, projectId, definitionId, { ...current.flow_definition, status }));
    if (answer.status === 400 || answer.status === 409) return renderFlow(request, reply, answer.status, { statusProblem: problemOf(answer, '') });
    if (answer.status !== 200) throw new ApiRefusal(answer);
    return afterWrite(reply, consoleHref(view, `/console/projects/${projectId}/flows/${definitionId}?notice=flow_${status === 'active' ? 'activated' : 'deactivated'}`));
  });
}
