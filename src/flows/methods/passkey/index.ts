import type { FactorDescription } from '../../../sessions/levels.js';
import type { AuthMethod } from '../declaration.js';
import { passkeyDefaults } from './defaults.js';
import { passkeyTexts } from './texts.js';
import { passkeyMarkup } from './ui.js';
import { passkeyStepExtensions, passkeySubmitMembers } from './view.js';
import { offerAutofill, passkeyLogin } from './login.js';
import { passkeyRegister } from './register.js';

/**
 * A passkey proves a device; verified with user verification it is a multi-factor authenticator on
 * its own (AAL2 alone). `amr`: `hwk` when its key is bound to one device, `swk` when it is synced.
 */
const PASSKEY_FACTOR: FactorDescription = {
  kind: (factor) => (factor.payload.user_verified === true ? 'multi' : 'possession'),
  amr: (factor) => (factor.payload.backup_state === true ? 'swk' : 'hwk'),
};

/**
 * Passkeys (WebAuthn, DESIGN §4.10): no step field; actions of kind `passkey` (sign in, with or
 * without an identifier first) and `passkey_register` (a passkey-only account on a `create_user`
 * step, or a new passkey for the signed-in user elsewhere). Ceremonies live in `src/passkeys`.
 */
export const passkeyMethod: AuthMethod = {
  name: 'passkey',
  defaults: passkeyDefaults,
  texts: passkeyTexts,
  ui: passkeyMarkup,
  stepExtensions: passkeyStepExtensions,
  submitMembers: passkeySubmitMembers,
  needsSchemaKey: true,
  // `webauthn`: the name factors of passkeys had in sessions written before the method was renamed.
  factors: { passkey: PASSKEY_FACTOR, webauthn: { kind: PASSKEY_FACTOR.kind } },
  actionKinds: ['passkey', 'passkey_register'],
  legacyFrameKey: 'ch',
  act: (ctx, action, input) => (action.kind === 'passkey' ? passkeyLogin(ctx, input) : passkeyRegister(ctx, input)),
  rendersOn: (step) => (step.actions ?? []).some((action) => action.kind === 'passkey'),
  async render(ctx) {
    if ((ctx.step.actions ?? []).some((action) => action.kind === 'passkey')) await offerAutofill(ctx);
  },
};
