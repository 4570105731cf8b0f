import { ALL_PROVIDERS } from '../../../sso/service.js';
import type { FlowStepDef } from '../../definitions/types.js';
import type { DefaultsFragment } from '../defaults-draft.js';
import { PASSWORD_FIELD as PASSWORD } from '../password/index.js';
import { TOTP_FIELD } from '../totp/index.js';

const back = { name: 'back', kind: 'navigate', primary: false, text_key: 'action.back' };

/**
 * The default `settings` definition (DESIGN §4.13; `credentialIdField`: its own, passed in by
 * `index.ts`), started with the signed-in session: an invisible check asks for the password (or a
 * passkey) again when the last sign-in is older than 15 minutes; the menu then adds a passkey,
 * sets up TOTP, makes new recovery codes, changes the password or removes a credential
 * (`credential_id`; the last second factor only after a fresh password).
 */
export const settingsDefaults = (credentialIdField: string): DefaultsFragment => (draft, schema) => {
  const passkeys = schema.methods.has('passkey');
  const totp = schema.methods.has('totp');
  const recoveryCodes = schema.methods.has('recovery_code');
  const password = schema.methods.has('password');
  const sso = schema.methods.has('sso');
  const steps: FlowStepDef[] = [
    { name: 'check', on_success: 'require_recent_sign_in', transitions: { reauthenticate: { target: password || passkeys ? 'reauthenticate' : 'done' }, next: { target: 'menu' } } },
    {
      name: 'menu',
      fields: [credentialIdField],
      actions: [
        ...(passkeys ? [{ name: 'add_passkey', kind: 'passkey_register', primary: false, text_key: 'action.add_passkey' }] : []),
        ...(totp ? [{ name: 'setup_totp', kind: 'navigate', primary: false, text_key: 'action.setup_totp' }] : []),
        ...(recoveryCodes ? [{ name: 'new_recovery_codes', kind: 'navigate', primary: false, text_key: 'action.new_recovery_codes' }] : []),
        ...(password ? [{ name: 'change_password', kind: 'navigate', primary: false, text_key: 'action.change_password' }] : []),
        ...(sso ? [{ name: 'connect_sso', kind: 'sso', primary: false, text_key: 'action.connect_sso' }] : []),
        { name: 'remove_credential', kind: 'submit', primary: false, text_key: 'action.remove_credential' },
        { name: 'finish', kind: 'navigate', primary: true, text_key: 'action.finish' },
      ],
      on_success: 'remove_credential',
      transitions: {
        ...(passkeys ? { add_passkey: { target: 'menu' } } : {}),
        ...(totp ? { setup_totp: { target: 'totp' } } : {}),
        ...(recoveryCodes ? { new_recovery_codes: { target: 'recovery_codes' } } : {}),
        ...(password ? { change_password: { target: 'password' }, confirm_password: { target: 'confirm_removal' } } : {}),
        remove_credential: { target: 'menu' },
        finish: { target: 'done' },
        ...(sso ? { callback: { target: 'menu' } } : {}),
      },
      ...(sso ? { sso_providers: [ALL_PROVIDERS] } : {}),
    },
    { name: 'done', complete: 'show' },
  ];
  if (password || passkeys) {
    // Either credential proves it is still the user (a passkey of this user only: the challenge allows theirs).
    steps.push({
      name: 'reauthenticate',
      fields: password ? [PASSWORD] : [],
      actions: [
        ...(password ? [{ name: 'confirm', kind: 'submit', primary: true, text_key: 'action.confirm' }] : []),
        ...(passkeys ? [{ name: 'use_passkey', kind: 'passkey', primary: !password, text_key: 'action.sign_in_with_passkey' }] : []),
      ],
      transitions: { ...(password ? { confirm: { target: 'menu' } } : {}), ...(passkeys ? { use_passkey: { target: 'menu' } } : {}) },
    });
  }
  if (password) {
    steps.push(
      {
        name: 'password',
        fields: [PASSWORD],
        actions: [{ name: 'save', kind: 'submit', primary: true, text_key: 'action.save_password' }, back],
        on_success: 'change_password',
        transitions: { save: { target: 'menu' }, back: { target: 'menu' } },
      },
      {
        name: 'confirm_removal',
        fields: [PASSWORD],
        actions: [{ name: 'remove', kind: 'submit', primary: true, text_key: 'action.remove_credential' }, back],
        on_success: 'remove_credential',
        transitions: { remove: { target: 'menu' }, back: { target: 'menu' } },
      },
    );
  }
  if (totp) {
    steps.push({
      name: 'totp',
      fields: [TOTP_FIELD],
      actions: [{ name: 'enable', kind: 'submit', primary: true, text_key: 'action.enable_totp' }, back],
      on_success: 'enable_totp',
      // New recovery codes right away, so that losing the phone does not lock the user out.
      transitions: { enable: { target: recoveryCodes ? 'recovery_codes' : 'menu' }, back: { target: 'menu' } },
    });
  }
  if (recoveryCodes) {
    steps.push(
      {
        name: 'recovery_codes',
        actions: [{ name: 'generate', kind: 'submit', primary: true, text_key: 'action.generate_recovery_codes' }, back],
        on_success: 'generate_recovery_codes',
        transitions: { generate: { target: 'recovery_codes_shown' }, back: { target: 'menu' } },
      },
      {
        name: 'recovery_codes_shown',
        actions: [{ name: 'continue', kind: 'navigate', primary: true, text_key: 'action.continue' }],
        transitions: { continue: { target: 'menu' } },
      },
    );
  }
  draft.definition('settings', { purposes: { settings: 'check' } }).steps.push(...steps);
};
