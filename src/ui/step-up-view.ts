import type { FlowResponse, StepAction } from '../flows/view.js';
import type { Entry } from './entry.js';
import type { StepExtras } from './step.js';

/*
 * Step-up on the hosted pages (`?aal=`): an app sends a signed-in user whose session lacks a
 * level. Every step says why the page asks again and offers only the ways that can reach the
 * level (what happens when the proof still falls short: step-up.ts).
 */

/** The note above every step of a step-up: why the page asks again. */
export function stepUpNotice(entry: Entry): string | undefined {
  if (entry.aal === undefined) return undefined;
  return entry.aal === '2' ? 'ui.step_up.stronger' : 'ui.step_up.recent';
}

/**
 * Whether an action leads somewhere a step-up cannot use: a new account is another user (the
 * exchange would not merge it into this session), and, for AAL2, e-mail codes and upstream SSO
 * count towards AAL1 only (src/sessions/levels.ts). Known by the default definitions' names and
 * texts; a custom definition's own actions stay.
 */
function leadsAway(action: StepAction, aal: string): boolean {
  if (action.name === 'sign_up' || action.text_key === 'action.sign_up') return true;
  if (aal !== '2') return false;
  return action.kind === 'sso' || action.name === 'email_code' || action.text_key === 'action.email_me_a_code';
}

/** The step as a step-up shows it: without the actions that cannot reach the level. */
export function stepForLevel(body: FlowResponse, entry: Entry): FlowResponse {
  const aal = entry.aal;
  if (aal === undefined) return body;
  const step = { ...(body.step as typeof body.step & StepExtras) };
  step.actions = step.actions.filter((action) => !leadsAway(action, aal));
  if (!step.actions.some((action) => action.kind === 'sso')) delete step.sso_providers;
  return { ...body, step };
}
