import { ApiRefusal, type ConsoleApi } from './api.js';
import type { ConsolePageKit } from './kit.js';
import { pathIds } from './paths.js';
import { eventsMarkup, FILTER_FIELDS, PAGE_SIZES, type EventFilter, type EventItem } from './pages/events.js';
import { consoleView, sendConsolePage } from './render.js';

const config = { page: true, tenancy: 'credential' } as const;

/** What a filter field may hold before the API sees it (the API checks the rest and answers 400). */
const FIELD_LIMITS: Record<keyof EventFilter, number> = { type: 1000, subject_id: 64, actor_id: 64, since: 40, until: 40, page_size: 3 };

/** A browser's `datetime-local` value (`2030-01-01T12:00`, seconds optional) is read as UTC; anything else goes to the API as typed. */
export function apiTime(value: string): string {
  if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/.test(value)) return `${value}:00Z`;
  if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,3})?$/.test(value)) return `${value}Z`;
  return value;
}

/** The filters of the page's query: trimmed, cut to their limits, empty ones left out; an unknown page size is the default. */
export function filterOf(query: Record<string, unknown>): EventFilter {
  const filter: EventFilter = {};
  for (const field of FILTER_FIELDS) {
    const value = query[field];
    if (typeof value === 'string' && value.trim() !== '') filter[field] = value.trim().slice(0, FIELD_LIMITS[field]);
  }
  if (filter.page_size !== undefined && !(PAGE_SIZES as readonly string[]).includes(filter.page_size)) delete filter.page_size;
  return filter;
}

/** The query of `GET /events` for the project and these filters. */
export function eventsQuery(projectId: string, filter: EventFilter, pageToken?: string): URLSearchParams {
  const params = new URLSearchParams({ project_id: projectId, page_size: filter.page_size ?? '20' });
  if (filter.type) params.set('type', filter.type.split(',').map((type) => type.trim()).filter(Boolean).join(','));
  if (filter.subject_id) params.set('subject_id', filter.subject_id);
  if (filter.actor_id) params.set('actor_id', filter.actor_id);
  if (filter.since) params.set('since', apiTime(filter.since));
  if (filter.until) params.set('until', apiTime(filter.until));
  if (pageToken) params.set('page_token', pageToken);
  return params;
}

/** The newest events about one user (the user page's section). */
export async function userEvents(project: ConsoleApi, projectId: string, userId: string, pageSize = 10): Promise<{ events: EventItem[]; more: boolean }> {
  const page = await project.data<{ events: EventItem[]; next_page_token?: string }>('GET', `/events?${eventsQuery(projectId, { subject_id: userId, page_size: String(pageSize) })}`);
  return { events: page.events, more: page.next_page_token !== undefined };
}

/** A project's event log (`GET /events`): filters, the API's cursor, each event in full. */
export function eventPages(kit: ConsolePageKit): void {
  const { app, assets } = kit;

  app.get('/console/projects/:project_id/events', { config, exposeHeadRoute: false }, async (request, reply) => {
    const view = consoleView(request);
    const [projectId] = pathIds(request, 'project_id');
    const { project, chrome } = await kit.asProject(request);
    const query = request.query as Record<string, unknown>;
    const filter = filterOf(query);
    const pageToken = typeof query.page_token === 'string' && query.page_token !== '' ? query.page_token.slice(0, 512) : undefined;
    const answer = await project.call('GET', `/events?${eventsQuery(projectId, filter, pageToken)}`);
    const title = view.t('console.events.title');
    if (answer.status === 400) {
      // A filter the API refused (an unknown type, a malformed time, a page token of another query): shown at the form.
      const details = answer.body.details as { known_types?: unknown } | undefined;
      const knownTypes = Array.isArray(details?.known_types) ? details.known_types.filter((type): type is string => typeof type === 'string') : undefined;
      const content = eventsMarkup(view, projectId, { events: [], filter, paged: false, problem: { ...new ApiRefusal(answer).problem, knownTypes } });
      return sendConsolePage(reply, view, assets, 400, title, content, chrome);
    }
    if (answer.status !== 200) throw new ApiRefusal(answer);
    const page = answer.body as { events: EventItem[]; next_page_token?: string };
    const content = eventsMarkup(view, projectId, { events: page.events, filter, next: page.next_page_token, paged: pageToken !== undefined });
    return sendConsolePage(reply, view, assets, 200, title, content, chrome);
  });
}
