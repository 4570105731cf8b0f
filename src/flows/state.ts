import { AppError, notFoundError } from '../core/errors.js';

/**
 * The orchestration state that travels in the `_zflow` cookie (DESIGN §4.5). The server keeps
 * no flow state between requests: everything a flow needs to resume lives here, encrypted.
 * Short keys keep the cookie under its size budget.
 */

/** One flow of a stack: which definition, where it stands, what it has collected. */
export interface FlowFrame {
  /** flow id of this frame (the response `id` while it is on top of the stack) */
  id: string;
  /** flow definition id */
  d: string;
  /** purpose the frame serves (login, register, recovery...) */
  pu: string;
  /** current step name */
  s: string;
  /** collected, non-secret field values (never passwords) */
  c: Record<string, string>;
  /** names of the steps passed, oldest first (bounded) */
  h: string[];
  /** user identified or created by this frame */
  u?: string;
  /** user created by this frame (create_user): the flow may add credentials to it */
  cr?: string;
  /** once the user proved control of the account in this frame: the consumed code whose one grant a password change spends */
  pv?: string;
  /** settings flows: the signed-in user whose credentials the flow manages (the session's user) */
  su?: string;
  /** each method's own state in this frame, under its name (`MethodContext.state`) */
  m?: Record<string, unknown>;
  /** a text key: something that happened between requests failed (an SSO return); shown until the next submit */
  er?: string;
}

/** How long a flow lives after its last step: the `_zflow` cookie's `Max-Age=600` (DESIGN §4.5). */
export const FLOW_TTL_MS = 10 * 60 * 1000;

/** One concurrent flow: a stack of frames plus its project, session and attempt. */
export interface FlowEntry {
  /** project id */
  p: string;
  /** session id the flow works on */
  ss: string;
  /** auth attempt id, once one exists */
  a?: string;
  /** app id the flow was started for (audience) */
  ap?: string;
  /** redirect_uri asked for at start (already checked against the allow-list) */
  r?: string;
  /** created at, epoch ms: the oldest flows are dropped first */
  ct: number;
  /** expires at, epoch ms */
  ex: number;
  /** frames, bottom first; the top frame is the one shown */
  f: FlowFrame[];
  /** set on the tombstone a completed flow leaves: its id answers 410 `flow.completed` */
  done?: 1;
  /** on a tombstone: the answer of a flow an SSO callback completed, for the first `GET /flow/{id}` (then dropped) */
  rs?: unknown;
}

/** The whole cookie: concurrent flows keyed by their entry id (the id of the bottom frame). */
export interface FlowCookieState {
  v: 1;
  flows: Record<string, FlowEntry>;
}

export const emptyState = (): FlowCookieState => ({ v: 1, flows: {} });

/** Finds the entry whose stack holds `flowId` as its top frame (the id clients use). */
export function findByTopId(state: FlowCookieState, flowId: string): { key: string; entry: FlowEntry } | undefined {
  for (const [key, entry] of Object.entries(state.flows)) {
    const top = entry.f[entry.f.length - 1];
    if (top && top.id === flowId) return { key, entry };
  }
  return undefined;
}

/** Finds the entry holding `flowId` anywhere in its stack (a stale id of a pivoted flow). */
export function findAnywhere(state: FlowCookieState, flowId: string): { key: string; entry: FlowEntry } | undefined {
  for (const [key, entry] of Object.entries(state.flows)) {
    if (entry.f.some((frame) => frame.id === flowId)) return { key, entry };
  }
  return undefined;
}

export const topFrame = (entry: FlowEntry): FlowFrame => entry.f[entry.f.length - 1];

/** Whether any frame of the cookie holds one of `keys` (keys a cookie written by an older release may carry). */
export function framesHoldAny(state: FlowCookieState, keys: ReadonlySet<string>): boolean {
  if (keys.size === 0) return false;
  for (const entry of Object.values(state.flows)) for (const frame of entry.f) for (const key of Object.keys(frame)) if (keys.has(key)) return true;
  return false;
}

/**
 * The entry a client addresses by its latest flow id: unknown ids (and flows of another project
 * when the caller names one) answer 404 `flow.not_found`, expired ones 410 `flow.expired`,
 * completed ones (a tombstone) 410 `flow.completed`.
 */
export function requireEntry(state: FlowCookieState, flowId: string, now: Date, projectId?: string): { key: string; entry: FlowEntry } {
  const found = findByTopId(state, flowId);
  if (!found || (projectId !== undefined && found.entry.p !== projectId)) throw notFoundError('flow.not_found', { flow_id: flowId });
  if (found.entry.ex <= now.getTime()) throw new AppError('flow.expired', 'The flow has expired; start a new one.', { flow_id: flowId });
  if (found.entry.done) throw flowCompleted(flowId);
  return found;
}

export function flowCompleted(flowId: string): AppError {
  return new AppError('flow.completed', 'The flow was completed already; start a new one.', { flow_id: flowId });
}

/** What a completed flow leaves in the cookie for the rest of its lifetime (DESIGN §4.5). */
export function tombstone(entry: FlowEntry, flowId: string): FlowEntry {
  return { p: entry.p, ss: entry.ss, ct: entry.ct, ex: entry.ex, f: [{ id: flowId, d: '', pu: '', s: '', c: {}, h: [] }], done: 1 };
}
