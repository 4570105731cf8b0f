import { createHash } from 'node:crypto';
import type { Clock } from '../core/clock.js';
import type { Page, Paginator } from '../core/pagination.js';
import type { SessionSettings } from './settings.js';
import type { SessionFilter, SessionStore } from './store.js';
import { toSessionListItem, type SessionListItem } from './view.js';

/** One list request: GET /sessions (query string) and POST /sessions/query (body) both map here. */
export interface ListRequest {
  filter: SessionFilter;
  direction?: 'asc' | 'desc';
  limit?: number;
  pageToken?: string;
}

interface ListDeps {
  store: SessionStore;
  paginator: Paginator;
  clock: Clock;
}

/**
 * Page tokens are bound to the project, the filters and the direction, so a token from one
 * query cannot be replayed against another (400 `req.invalid`).
 */
function scopeOf(projectId: string, request: ListRequest): string {
  const { filter } = request;
  const shape = JSON.stringify([
    filter.userId ?? null,
    filter.state ?? null,
    filter.createdAfter?.toISOString() ?? null,
    filter.createdBefore?.toISOString() ?? null,
    filter.lifecycleOwnerTeamId ?? null,
    request.direction ?? 'asc',
  ]);
  return `sessions:${projectId}:${createHash('sha256').update(shape).digest('base64url').slice(0, 16)}`;
}

/** Cursor-paginated sessions of every state, each with its computed state and levels. */
export async function listSessions(deps: ListDeps, settings: SessionSettings, projectId: string, request: ListRequest): Promise<Page<SessionListItem>> {
  const scope = scopeOf(projectId, request);
  const cursor = request.pageToken ? deps.paginator.decode(request.pageToken, scope) : undefined;
  const limit = deps.paginator.limitOf({ limit: request.limit });
  const now = deps.clock.now();
  const rows = await deps.store.list(projectId, request.filter, now, cursor, limit, request.direction ?? 'asc');
  return deps.paginator.page(rows, limit, scope, (row) => ({ createdAt: row.created_at, id: row.id }), (row) => toSessionListItem(row, settings, now));
}
