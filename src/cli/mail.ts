import type { Config } from '../config.js';
import type { Container } from '../container.js';
import { DataDirLockedError } from '../db/data-dir-lock.js';

type UsageErrorClass = new (message: string) => Error;

/** One outbox message as `gatehouse mail list` prints it: the envelope, then what a person types or opens. */
export interface ListedMail {
  id: string;
  project_id: string | null;
  created_at: string;
  to: string;
  template: string;
  subject: string;
  status: string;
  codes: string[];
  links: string[];
}

interface OutboxMessage {
  id: string;
  project_id?: string | null;
  recipient: string;
  subject: string;
  template: string;
  status: string;
  body: string | null;
  created_at: string | Date;
}

/** The templates put the code alone on a line of 6 digits and the link alone on its line (courier/templates.ts). */
export function listed(message: OutboxMessage, projectId?: string): ListedMail {
  const body = message.body ?? '';
  const codes = [...body.matchAll(/^\s*(\d{6})\s*$/gm)].map((m) => m[1]);
  const links = [...new Set(body.match(/https?:\/\/[^\s<>"']+/g) ?? [])];
  const created = message.created_at instanceof Date ? message.created_at.toISOString() : message.created_at;
  return { id: message.id, project_id: message.project_id ?? projectId ?? null, created_at: created, to: message.recipient, template: message.template, subject: message.subject, status: message.status, codes, links };
}

export function formatMail(messages: ListedMail[]): string {
  if (messages.length === 0) return 'no messages in the outbox';
  return messages
    .map((m) => {
      const lines = [`${m.created_at}  ${m.to}  ${m.template}  (${m.project_id ?? 'no project'}, ${m.id})`, `  subject: ${m.subject}`];
      for (const code of m.codes) lines.push(`  code: ${code}`);
      for (const link of m.links) lines.push(`  link: ${link}`);
      if (m.status !== 'logged') lines.push(`  status: ${m.status} (sent by SMTP: the body is not kept)`);
      return lines.join('\n');
    })
    .join('\n\n');
}

export interface MailListOptions {
  project?: string;
  to?: string;
  limit?: string;
}

function limitOf(raw: string | undefined, UsageError: UsageErrorClass): number {
  if (raw === undefined) return 10;
  const limit = Number(raw);
  if (!Number.isInteger(limit) || limit < 1 || limit > 100) throw new UsageError('--limit must be a whole number from 1 to 100');
  return limit;
}

/**
 * `gatehouse mail list`: the latest outbox messages with their codes and links. Reads the table;
 * when a running server holds the embedded database, asks that server instead (admin token).
 */
export async function mailList(
  options: MailListOptions,
  withContainer: <T>(fn: (c: Container) => Promise<T>) => Promise<T>,
  loadConfig: () => Config,
  UsageError: UsageErrorClass,
): Promise<ListedMail[]> {
  const limit = limitOf(options.limit, UsageError);
  const query = { projectId: options.project, recipient: options.to, limit };
  try {
    return await withContainer(async (c) => {
      if (options.project !== undefined && !(await c.projects.row(options.project))) throw new UsageError(`project ${options.project} does not exist`);
      return (await c.flows.courier.latest(query)).map((row) => listed(row));
    });
  } catch (error) {
    if (!(error instanceof DataDirLockedError)) throw error;
    return fromServer(loadConfig(), query, UsageError);
  }
}

async function fromServer(config: Config, query: { projectId?: string; recipient?: string; limit: number }, UsageError: UsageErrorClass): Promise<ListedMail[]> {
  const get = async (path: string): Promise<Record<string, unknown>> => {
    let response: Response;
    try {
      response = await fetch(`${config.publicUrl}${path}`, { headers: { authorization: `Bearer ${config.adminToken}` }, signal: AbortSignal.timeout(10_000) });
    } catch {
      throw new UsageError(`the embedded database is in use and the server does not answer at ${config.publicUrl} (run with the server's PORT and GATEHOUSE_DATA_DIR)`);
    }
    const body = (await response.json().catch(() => ({}))) as Record<string, unknown>;
    if (response.status === 404 && query.projectId !== undefined) throw new UsageError(`project ${query.projectId} does not exist`);
    if (!response.ok) throw new UsageError(`the server at ${config.publicUrl} answered ${response.status} ${String(body.code ?? '')}`.trim());
    return body;
  };
  const projectIds: string[] = query.projectId !== undefined ? [query.projectId] : [];
  if (query.projectId === undefined) {
    let token: string | undefined;
    do {
      const page = await get(`/projects?limit=100${token ? `&page_token=${encodeURIComponent(token)}` : ''}`);
      projectIds.push(...(page.projects as Array<{ id: string }>).map((p) => p.id));
      token = page.next_page_token as string | undefined;
    } while (token);
  }
  const recipient = query.recipient !== undefined ? `&recipient=${encodeURIComponent(query.recipient)}` : '';
  const all: ListedMail[] = [];
  for (const id of projectIds) {
    const page = await get(`/projects/${encodeURIComponent(id)}/outbox?limit=${query.limit}${recipient}`);
    all.push(...(page.messages as OutboxMessage[]).map((message) => listed(message, id)));
  }
  // Newest first across projects, as the table would answer.
  return all.sort((a, b) => b.created_at.localeCompare(a.created_at) || b.id.localeCompare(a.id)).slice(0, query.limit);
}
