import type { DefaultsFragment } from '../defaults-draft.js';

const forgotPassword = () => ({ name: 'forgot_password', kind: 'navigate', primary: false, text_key: 'action.forgot_password' });

/**
 * The password's part of the defaults (`field`: its own, passed in by `index.ts`): `continue` from
 * the identifier to the `password` step, `forgot_password` pivoting to `recovery` from both, and
 * the password among the register fields. Whatever the schema enables, as the defaults always
 * were: it is the login skeleton's way on from the identifier.
 */
export const passwordDefaults =
  (field: string): DefaultsFragment =>
  (draft) => {
    const login = draft.definition('login');
    const identify = draft.step(login, 'identify');
    draft.action(identify, { name: 'continue', kind: 'submit', primary: true, text_key: 'action.continue' }, { target: 'password' }, { before: 'sign_up' });
    draft.action(identify, forgotPassword(), { target: 'recovery', action: 'pivot' });
    draft.addStep(login, {
      name: 'password',
      fields: [field],
      actions: [{ name: 'sign_in', kind: 'submit', primary: true, text_key: 'action.sign_in' }, forgotPassword()],
      transitions: { sign_in: { target: 'done' }, forgot_password: { target: 'recovery', action: 'pivot' } },
    });
    draft.step(draft.definition('register'), 'register').fields?.push(field);
  };
