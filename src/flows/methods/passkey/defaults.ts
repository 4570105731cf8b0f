import type { DefaultsFragment } from '../defaults-draft.js';

/**
 * Passkeys where the schema enables them (DESIGN §4.10): a passkey sign-in beside the identifier
 * (usernameless, or for the typed identifier) and a passkey-only registration.
 */
export const passkeyDefaults: DefaultsFragment = (draft, schema) => {
  if (!schema.methods.has('passkey')) return;
  const login = draft.step(draft.definition('login'), 'identify');
  draft.action(login, { name: 'passkey', kind: 'passkey', primary: false, text_key: 'action.sign_in_with_passkey' }, { target: 'done' });
  const register = draft.step(draft.definition('register'), 'register');
  draft.action(register, { name: 'passkey', kind: 'passkey_register', primary: false, text_key: 'action.register_with_passkey' }, { target: 'done' });
};
