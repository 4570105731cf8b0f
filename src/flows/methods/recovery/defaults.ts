import type { DefaultsFragment } from '../defaults-draft.js';
import { PASSWORD_FIELD } from '../password/index.js';

/**
 * Recovery by mail's default definition (`field`: the code's, passed in by `index.ts`): identifier →
 * one-time code by mail → new password → complete. `login` pivots to it (`forgot_password`) and
 * resumes when it completes.
 */
export const recoveryDefaults =
  (field: string): DefaultsFragment =>
  (draft) => {
    const recovery = draft.definition('recovery', { purposes: { recovery: 'request' } });
    draft.addStep(recovery, {
      name: 'request',
      fields: [draft.identifier],
      actions: [{ name: 'send_code', kind: 'submit', primary: true, text_key: 'action.send_code' }],
      on_success: 'send_recovery_code',
      transitions: { send_code: { target: 'code' } },
    });
    draft.addStep(recovery, {
      name: 'code',
      fields: [field],
      actions: [
        { name: 'verify', kind: 'submit', primary: true, text_key: 'action.verify_code' },
        { name: 'resend', kind: 'navigate', primary: false, text_key: 'action.resend_code' },
      ],
      transitions: { verify: { target: 'new_password' }, resend: { target: 'request' } },
    });
    draft.addStep(recovery, {
      name: 'new_password',
      fields: [PASSWORD_FIELD],
      actions: [{ name: 'save', kind: 'submit', primary: true, text_key: 'action.save_password' }],
      on_success: 'set_password',
      transitions: { save: { target: 'done' } },
    });
    draft.addStep(recovery, { name: 'done', complete: 'show' });
  };
