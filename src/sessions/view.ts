import { assuranceLevels, type Factor } from './levels.js';
import type { SessionSettings } from './settings.js';
import type { SessionRow, UserAgent } from './store.js';

/** `building` (anonymous shell), `active` (authenticated), `expired` (computed from expires_at). */
export type SessionState = 'building' | 'active' | 'expired';

/** The Session resource of the interface. `user_id`, `name` and `email` are absent when unknown. */
export interface Session {
  session_id: string;
  project_id: string;
  state: SessionState;
  user_id?: string;
  name?: string;
  email?: string;
  factors: Factor[];
  assurance_levels: string[];
  metadata: Record<string, unknown>;
  user_agent: UserAgent;
  created_at: string;
  expires_at: string;
}

/** The list form (GET /sessions, POST /sessions/query): the same fields without name and email. */
export type SessionListItem = Omit<Session, 'name' | 'email'>;

/** What the users domain tells sessions about a user. */
export interface UserProfile {
  name?: string;
  email?: string;
  lifecycle_owner_team_id?: string;
}

/**
 * Looks a user up for session rendering; undefined when the user does not exist (in that
 * project). Wired to the users domain in the container.
 */
export type UserDirectory = (projectId: string, userId: string) => Promise<UserProfile | undefined>;

export function stateOf(row: Pick<SessionRow, 'state' | 'expires_at'>, now: Date): SessionState {
  return row.expires_at.getTime() <= now.getTime() ? 'expired' : row.state;
}

/**
 * `date.toISOString()`, remembered per Date object: it costs about 0.8 µs, most of a session
 * check's rendering, and a cached session row renders the same two dates on every check. The
 * remembered text is used only while the Date still holds the time it was made from.
 */
const isoTexts = new WeakMap<Date, { time: number; text: string }>();
function isoString(date: Date): string {
  const time = date.getTime();
  const known = isoTexts.get(date);
  if (known !== undefined && known.time === time) return known.text;
  const text = date.toISOString();
  isoTexts.set(date, { time, text });
  return text;
}

// Built by assignment, not with conditional spreads: this runs on every session check, and a
// spread copies the whole object again (docs/performance.md, issue 38 third round).
export function toSessionListItem(row: SessionRow, settings: SessionSettings, now: Date): SessionListItem {
  const state = stateOf(row, now);
  const item: SessionListItem = {
    session_id: row.id,
    project_id: row.project_id,
    state,
    factors: row.factors,
    // An expired session satisfies no level.
    assurance_levels: state === 'expired' ? [] : assuranceLevels(row.factors, settings, now),
    metadata: row.metadata,
    user_agent: row.user_agent,
    created_at: isoString(row.created_at),
    expires_at: isoString(row.expires_at),
  };
  if (row.user_id !== null) item.user_id = row.user_id;
  return item;
}

export function toSession(row: SessionRow, settings: SessionSettings, now: Date, profile: UserProfile | undefined): Session {
  const session: Session = toSessionListItem(row, settings, now);
  if (profile?.name !== undefined) session.name = profile.name;
  if (profile?.email !== undefined) session.email = profile.email;
  return session;
}
