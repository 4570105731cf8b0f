import { AppError, MESSAGES, notFoundError } from '../../../core/errors.js';
import { valueAt } from '../../../schemas/document.js';
import type { Factor } from '../../../sessions/levels.js';
import { SESSION_COOKIE } from '../../../sessions/cookie.js';
import type { FlowFrame } from '../../state.js';
import type { FlowDeps } from '../../runtime/deps.js';
import { invalidAction } from '../../errors.js';
import type { FlowRun } from '../../runtime/run.js';

/** Purpose of the self-service settings flows (DESIGN §4.13). */
export const SETTINGS_PURPOSE = 'settings';
/** A settings change needs a factor of the user verified this recently; older: re-authenticate first. */
export const RECENT_SIGN_IN_MS = 15 * 60 * 1000;
/** Removing the last second factor needs a password verified in the flow itself this recently. */
export const FRESH_PASSWORD_MS = 5 * 60 * 1000;

/**
 * The user whose credentials a settings flow manages: the signed-in user of the session the flow
 * was started for (`frame.su`, set at start), while that session is still active and theirs.
 */
export async function settingsUser(run: FlowRun): Promise<string | undefined> {
  const userId = run.frame.su;
  if (userId === undefined) return undefined;
  const session = await run.deps.sessions.get(run.projectId, run.entry.ss).catch(() => undefined);
  return session?.state === 'active' && session.user_id === userId ? userId : undefined;
}

/** The user's factors this flow's auth attempt holds (re-authentication writes them), and unless `flowOnly` the session's. */
async function factorsOf(run: FlowRun, userId: string, flowOnly: boolean): Promise<Factor[]> {
  const { deps, entry, projectId } = run;
  const session = flowOnly ? undefined : await deps.sessions.get(projectId, entry.ss).catch(() => undefined);
  const attempt = entry.a === undefined ? undefined : run.attempt?.id === entry.a ? run.attempt : await deps.attempts.get(projectId, entry.a).catch(() => undefined);
  return [...(session?.factors ?? []), ...(attempt?.factors ?? [])].filter((factor) => factor.payload.user_id === userId);
}

/**
 * Whether a factor of the user (of `method`, if given) was verified within `windowMs` of now, in
 * the session or this flow (`flowOnly`: in this flow, as a fresh confirmation must be).
 */
export async function provenWithin(run: FlowRun, userId: string, windowMs: number, method?: string, flowOnly = false): Promise<boolean> {
  const now = run.deps.clock.now().getTime();
  const factors = await factorsOf(run, userId, flowOnly);
  return factors.some((factor) => (method === undefined || factor.method === method) && now - Date.parse(factor.verified_at) < windowMs);
}

/**
 * The settings user, when they signed in within the last 15 minutes (in the session or in this
 * flow); otherwise the change is refused (400 `flow.invalid_action`) and the flow must
 * re-authenticate first.
 */
export async function recentlyProvenUser(run: FlowRun, action: string): Promise<string> {
  const userId = await settingsUser(run);
  if (userId === undefined) throw invalidAction(run.frame.id, action, 'Only a signed-in session can change its credentials.');
  if (!(await provenWithin(run, userId, RECENT_SIGN_IN_MS))) throw invalidAction(run.frame.id, action, 'Sign in again first: the last sign-in is older than 15 minutes.');
  return userId;
}

/**
 * Who may open a settings flow (DESIGN §4.13): the holder of an active, signed-in session's token.
 * Session ids are not secrets, so the caller proves it holds the session with its token (cookie
 * `__service_session` or `Authorization: Bearer`). Another project's or an unknown session: 404;
 * an expired one: 404; an anonymous shell: 400; no or another session's token: 401.
 */
export async function signedInUser(deps: FlowDeps, projectId: string, sessionId: string | undefined, token: string | undefined): Promise<string> {
  if (sessionId === undefined) {
    throw new AppError('att.invalid_request', MESSAGES.invalidRequest, { errors: [{ path: 'body/session_id', message: 'a settings flow needs the signed-in session' }] });
  }
  const session = await deps.sessions.get(projectId, sessionId);
  if (session.state === 'expired') throw notFoundError('sess.not_found');
  if (session.state !== 'active' || session.user_id === undefined) {
    throw new AppError('att.invalid_request', MESSAGES.invalidRequest, { errors: [{ path: 'body/session_id', message: 'must be a signed-in session, not an anonymous one' }] });
  }
  const holder = token ? await deps.sessions.findByToken(token).catch(() => undefined) : undefined;
  if (holder?.session_id !== session.session_id) {
    throw new AppError('auth.unauthorized', MESSAGES.sessionUnauthorized, {}, { 'www-authenticate': `Cookie realm="gatehouse", cookie-name="${SESSION_COOKIE}"` });
  }
  return session.user_id;
}

/**
 * Binds a new settings frame to the signed-in user: identified as them, with their identifier
 * collected, so that re-authentication checks their password under their lock-out key.
 */
export async function claimSettingsFrame(run: FlowRun, frame: FlowFrame, userId: string): Promise<void> {
  frame.u = userId;
  frame.su = userId;
  const loaded = await run.load(frame);
  const user = await run.deps.users.find(run.projectId, userId);
  for (const path of loaded.schema.identifiers) {
    const value = user ? valueAt(user.attributes, path) : undefined;
    if (typeof value === 'string') {
      frame.c[path] = value;
      break;
    }
  }
}
