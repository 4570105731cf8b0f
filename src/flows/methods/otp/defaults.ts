import type { DefaultsFragment } from '../defaults-draft.js';

/**
 * E-mail codes where the schema enables them (DESIGN §4.11; `field`: the code's, passed in by
 * `index.ts`): "e-mail me a code" beside the identifier and the password switches to `login_code`,
 * a definition of its own (purpose `login_code`), so that an operator can also make it the `login`
 * of an audience like any other definition.
 */
export const otpDefaults =
  (field: string): DefaultsFragment =>
  (draft, schema) => {
    if (!schema.methods.has('otp')) return;
    const login = draft.definition('login');
    for (const name of ['identify', 'password']) {
      draft.action(draft.step(login, name), { name: 'email_code', kind: 'navigate', primary: false, text_key: 'action.email_me_a_code' }, { target: 'login_code', action: 'switch' });
    }
    const codes = draft.definition('login_code', { purposes: { login_code: 'identify' }, alternative: true });
    draft.addStep(codes, {
      name: 'identify',
      fields: [draft.identifier],
      actions: [
        { name: 'send_code', kind: 'submit', primary: true, text_key: 'action.email_me_a_code' },
        { name: 'use_password', kind: 'navigate', primary: false, text_key: 'action.use_password' },
      ],
      on_success: 'send_otp',
      transitions: { send_code: { target: 'code' }, use_password: { target: 'login', action: 'switch' } },
    });
    draft.addStep(codes, {
      name: 'code',
      fields: [field],
      actions: [
        { name: 'verify', kind: 'submit', primary: true, text_key: 'action.verify_code' },
        { name: 'resend', kind: 'navigate', primary: false, text_key: 'action.resend_code' },
      ],
      transitions: { verify: { target: 'done' }, resend: { target: 'identify' } },
    });
    draft.addStep(codes, { name: 'done', complete: 'redirect' });
  };
