import { bearer, type TestApp } from '../../test/helpers/app.js';
import type { EventResource } from './types.js';

export const DAY = 24 * 60 * 60 * 1000;

/** A project's events through GET /events (admin token), newest first; every page. */
export async function eventsOf(t: TestApp, projectId: string, query: Record<string, string> = {}): Promise<EventResource[]> {
  const all: EventResource[] = [];
  let token: string | undefined;
  do {
    const params = new URLSearchParams({ project_id: projectId, page_size: '100', ...query, ...(token ? { page_token: token } : {}) });
    const response = await t.app.inject({ method: 'GET', url: `/events?${params}`, headers: bearer(t.adminToken) });
    if (response.statusCode !== 200) throw new Error(`GET /events: ${response.statusCode} ${response.body}`);
    all.push(...response.json().events);
    token = response.json().next_page_token;
  } while (token);
  return all;
}

/** The types of a project's events, oldest first. */
export async function typesOf(t: TestApp, projectId: string, query: Record<string, string> = {}): Promise<string[]> {
  return (await eventsOf(t, projectId, query)).map((event) => event.type).reverse();
}
