import type { AuthMethod } from '../method.js';
import { offerAutofill, passkeyLogin } from './login.js';
import { passkeyRegister } from './register.js';

/**
 * Passkeys (WebAuthn, DESIGN §4.10): no step field; actions of kind `passkey` (sign in, with or
 * without an identifier first) and `passkey_register` (a passkey-only account on a `create_user`
 * step, or a new passkey for the signed-in user elsewhere). Ceremonies live in `src/passkeys`.
 */
export const passkeyMethod: AuthMethod = {
  name: 'passkey',
  needsSchemaKey: true,
  actionKinds: ['passkey', 'passkey_register'],
  legacyFrameKey: 'ch',
  act: (ctx, action, input) => (action.kind === 'passkey' ? passkeyLogin(ctx, input) : passkeyRegister(ctx, input)),
  rendersOn: (step) => (step.actions ?? []).some((action) => action.kind === 'passkey'),
  async render(ctx) {
    if ((ctx.step.actions ?? []).some((action) => action.kind === 'passkey')) await offerAutofill(ctx);
  },
};
