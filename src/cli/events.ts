import type { Config } from '../config.js';

type UsageErrorClass = new (message: string) => Error;

/** One event as GET /events answers it (the fields the tail prints). */
export interface TailedEvent {
  id: string;
  type: string;
  occurred_at: string;
  actor: { kind: string; id: string | null };
  subject: { kind: string; id: string | null };
  data: Record<string, unknown>;
}

/** One line per event: time, type, subject, actor, data. */
export function formatEvent(event: TailedEvent): string {
  const party = (p: { kind: string; id: string | null }) => (p.id === null ? p.kind : `${p.kind}:${p.id}`);
  return `${event.occurred_at}  ${event.type}  ${party(event.subject)}  by ${party(event.actor)}  ${JSON.stringify(event.data)}`;
}

/**
 * Events commit in transactions, so one written a moment earlier may become visible after a later
 * one: each poll reads this far back again and prints only the ids it has not printed.
 */
export const TAIL_OVERLAP_MS = 5_000;

const byTime = (a: TailedEvent, b: TailedEvent) => a.occurred_at.localeCompare(b.occurred_at) || a.id.localeCompare(b.id);

export interface TailDeps {
  /** GET a path of the API (with the credential); the parsed body, or a thrown error */
  get(path: string): Promise<Record<string, unknown>>;
  print(line: string): void;
  /** waits `ms`; false to stop the tail */
  sleep(ms: number): Promise<boolean>;
  /** reports a failed poll; the tail keeps going */
  warn(message: string): void;
  /** told once the starting point is read (the newest event, if any) */
  ready?(newest: TailedEvent | undefined): void;
}

/**
 * `gatehouse events tail`: starts at the project's newest event (printing nothing older) and
 * polls GET /events once a second, printing each new event once, oldest first.
 */
export async function tailEvents(projectId: string, deps: TailDeps, intervalMs = 1_000): Promise<void> {
  const base = `/events?project_id=${encodeURIComponent(projectId)}`;
  const seen = new Map<string, string>();
  /** Every event at or after `since`, all pages, newest first as the API answers. */
  const readSince = async (since: string | undefined): Promise<TailedEvent[]> => {
    const events: TailedEvent[] = [];
    let token: string | undefined;
    do {
      const query = `${since ? `&since=${encodeURIComponent(since)}` : ''}&page_size=100${token ? `&page_token=${encodeURIComponent(token)}` : ''}`;
      const page = await deps.get(`${base}${query}`);
      events.push(...(page.events as TailedEvent[]));
      token = page.next_page_token as string | undefined;
    } while (token);
    return events;
  };
  const back = (at: string) => new Date(new Date(at).getTime() - TAIL_OVERLAP_MS).toISOString();

  const newest = ((await deps.get(`${base}&page_size=1`)).events as TailedEvent[])[0];
  let since = newest ? back(newest.occurred_at) : undefined;
  // The newest event and those just before it count as printed: the tail starts after them.
  if (newest) for (const event of await readSince(since)) seen.set(event.id, event.occurred_at);
  deps.ready?.(newest);
  while (await deps.sleep(intervalMs)) {
    let fresh: TailedEvent[];
    try {
      fresh = (await readSince(since)).filter((event) => !seen.has(event.id)).sort(byTime);
    } catch (error) {
      deps.warn(`gatehouse: ${error instanceof Error ? error.message : String(error)} (retrying)`);
      continue;
    }
    for (const event of fresh) {
      deps.print(formatEvent(event));
      seen.set(event.id, event.occurred_at);
    }
    const latest = fresh.at(-1)?.occurred_at;
    if (latest !== undefined && (since === undefined || back(latest) > since)) since = back(latest);
    // Forget what lies before the window: it is never read again.
    for (const [id, at] of seen) if (since !== undefined && at < since) seen.delete(id);
  }
}

/**
 * The API the tail reads: GATEHOUSE_PUBLIC_URL, with GATEHOUSE_TOKEN (a project secret or a
 * service key's access token holding `event.read`) or else the instance admin token.
 */
export function apiGetter(config: Config, token: string | undefined, UsageError: UsageErrorClass): (path: string) => Promise<Record<string, unknown>> {
  const credential = token || config.adminToken;
  return async (path) => {
    let response: Response;
    try {
      response = await fetch(`${config.publicUrl}${path}`, { headers: { authorization: `Bearer ${credential}` }, signal: AbortSignal.timeout(10_000) });
    } catch {
      throw new UsageError(`the server does not answer at ${config.publicUrl} (set GATEHOUSE_PUBLIC_URL to the server's address)`);
    }
    const body = (await response.json().catch(() => ({}))) as Record<string, unknown>;
    if (response.status === 404) throw new UsageError('the project does not exist (or the credential cannot see it)');
    if (response.status === 401 || response.status === 403) throw new UsageError(`the server refused the credential (${response.status} ${String(body.code ?? '')}): it needs the scope event.read`);
    if (!response.ok) throw new UsageError(`the server at ${config.publicUrl} answered ${response.status} ${String(body.code ?? '')}`.trim());
    return body;
  };
}
