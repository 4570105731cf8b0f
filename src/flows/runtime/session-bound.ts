import { AppError, MESSAGES, notFoundError } from '../../core/errors.js';
import { valueAt } from '../../schemas/document.js';
import { SESSION_COOKIE } from '../../sessions/cookie.js';
import type { FlowFrame } from '../state.js';
import type { FlowDeps } from './deps.js';
import type { FlowRun } from './run.js';

/*
 * Flows bound to a signed-in session (a purpose a method declares `sessionBound`: the settings
 * flow, DESIGN §4.13): who may open one, and the frame that starts identified as its user.
 */

/**
 * Who may open a session-bound flow: the holder of an active, signed-in session's token. Session
 * ids are not secrets, so the caller proves it holds the session with its token (cookie
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
 * Binds a new frame to the signed-in user: identified as them, with their identifier collected,
 * so that re-authentication checks their password under their lock-out key.
 */
export async function claimSessionBoundFrame(run: FlowRun, frame: FlowFrame, userId: string): Promise<void> {
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
