import type { DefaultsFragment } from '../defaults-draft.js';
import type { FlowStepDef } from '../../definitions/types.js';

/**
 * TOTP as the second factor where the schema enables it (DESIGN §4.12; `field`: the code's, passed
 * in by `index.ts`): after the password, users who have one are asked for a code (`second_factor`).
 */
export const totpDefaults =
  (field: string): DefaultsFragment =>
  (draft, schema) => {
    if (!schema.methods.has('totp')) return;
    const step = (): FlowStepDef => ({
      name: 'totp',
      fields: [field],
      actions: [{ name: 'verify', kind: 'submit', primary: true, text_key: 'action.verify_code' }],
      transitions: { verify: { target: 'done' } },
    });
    const login = draft.definition('login');
    draft.addStep(login, step());
    draft.transition(draft.step(login, 'password'), 'second_factor', { target: 'totp' }, { after: 'forgot_password' });
    // An existing user signing in upstream from the register page meets the same second factor.
    if (schema.methods.has('sso')) draft.addStep(draft.definition('register'), step());
  };
