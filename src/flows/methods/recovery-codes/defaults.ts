import type { DefaultsFragment } from '../defaults-draft.js';

/**
 * Recovery codes where the schema enables them (DESIGN §4.12; `field`: the code's, passed in by
 * `index.ts`): the way out wherever a default definition asks for a TOTP code, for a user whose
 * app is lost, and back.
 */
export const recoveryCodesDefaults =
  (field: string): DefaultsFragment =>
  (draft, schema) => {
    if (!schema.methods.has('recovery_code')) return;
    for (const definition of [draft.definition('login'), draft.definition('register')]) {
      if (!draft.hasStep(definition, 'totp')) continue;
      draft.action(draft.step(definition, 'totp'), { name: 'use_recovery_code', kind: 'navigate', primary: false, text_key: 'action.use_recovery_code' }, { target: 'recovery_code' });
      draft.addStep(definition, {
        name: 'recovery_code',
        fields: [field],
        actions: [
          { name: 'verify', kind: 'submit', primary: true, text_key: 'action.verify_code' },
          { name: 'use_totp', kind: 'navigate', primary: false, text_key: 'action.use_totp' },
        ],
        transitions: { verify: { target: 'done' }, use_totp: { target: 'totp' } },
      });
    }
  };
