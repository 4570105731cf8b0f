import type { MethodMarkup } from '../markup.js';
import type { StepView } from '../../view.js';

const KINDS = ['passkey', 'passkey_register'];

/** Read defensively: the challenge is the step extension passkey actions and autofill add. */
const challengeOf = (step: StepView) => (step as StepView & { challenge?: { mediation?: string } }).challenge;

/**
 * The passkey ceremony is run by the page's script (`ui/client/main.ts`): it reads the challenge
 * from the JSON block, fills `challenge_response` and submits the button's form.
 */
export const passkeyMarkup: MethodMarkup = {
  // Conditional mediation offers passkeys in the account field's autofill: the browser looks for `webauthn`.
  autocomplete(field, step, generic) {
    if (challengeOf(step)?.mediation !== 'conditional') return generic;
    if (generic === 'username') return 'username webauthn';
    return generic === undefined && field.type === 'text' ? 'username webauthn' : generic;
  },
  formEnd(step, { esc, jsonBlock, t }) {
    const challenge = challengeOf(step);
    if (!step.actions.some((action) => KINDS.includes(action.kind)) && !challenge) return '';
    let html = `<input type="hidden" name="challenge_response" value="">`;
    if (challenge) html += jsonBlock('gh-challenge', challenge);
    // Conditional UI is silent; an immediate ceremony tells a browser without JavaScript why nothing happens.
    if (challenge && challenge.mediation !== 'conditional') html += `<noscript><p class="alert" role="alert">${esc(t('ui.passkey_needs_js'))}</p></noscript>`;
    return html;
  },
  // No field to validate: the ceremony is the answer.
  button: (action) => ({ noValidate: true, data: { passkey: action.kind } }),
};
