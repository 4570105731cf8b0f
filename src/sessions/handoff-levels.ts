import type { AttemptService } from '../attempts/service.js';
import type { Clock } from '../core/clock.js';
import { assuranceLevels, mergeFactors } from './levels.js';
import { stepsUp } from './service.exchange.js';
import type { SessionService } from './service.js';
import type { SessionStore } from './store.js';

/** What `levelsAfterExchange` reads: the attempt behind a token, the session it names, the project's windows. */
export interface HandoffLevelsDeps {
  attempts: Pick<AttemptService, 'peekHandoff'>;
  sessions: Pick<SessionService, 'settingsFor'> & { store: Pick<SessionStore, 'find'> };
  clock: Clock;
}

/**
 * The assurance levels the session will hold once this handoff token is exchanged, read without
 * consuming it: a page can tell a step-up that falls short before the app loops on it. The merge
 * is the exchange's own rule (`stepsUp`, service.exchange.ts).
 * Undefined when the token is unknown, used or expired (the exchange will say so itself).
 */
export async function levelsAfterExchange(deps: HandoffLevelsDeps, projectId: string, handoffToken: string): Promise<string[] | undefined> {
  const attempt = await deps.attempts.peekHandoff(projectId, handoffToken);
  if (!attempt || attempt.user_id === null) return undefined;
  const now = deps.clock.now();
  const target = attempt.session_id !== null ? await deps.sessions.store.find(attempt.session_id) : undefined;
  const factors = mergeFactors(stepsUp(target, attempt.project_id, attempt.user_id, now) ? target.factors : [], attempt.factors);
  return assuranceLevels(factors, await deps.sessions.settingsFor(projectId), now);
}
