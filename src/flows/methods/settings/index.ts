import { AppError } from '../../../core/errors.js';
import { SELF } from '../../../events/types.js';
import { invalidAction, validationFailed } from '../../errors.js';
import type { AuthMethod, StepHook } from '../declaration.js';
import { settingsDefaults } from './defaults.js';
import { settingsTexts } from './texts.js';
import { settingsMarkup } from './ui.js';
import { settingsStepExtensions } from './view.js';
import { FRESH_PASSWORD_MS, provenWithin, RECENT_SIGN_IN_MS, recentlyProvenUser } from '../proof.js';

/** Purpose of the self-service settings flows (DESIGN §4.13): bound to the caller's signed-in session. */
export const SETTINGS_PURPOSE = 'settings';

/** The credential a settings step removes (an id of `GET /users/{id}/credentials`); submitted as `credential_id`. */
export const CREDENTIAL_ID_FIELD = 'x-flow#credential_id';

/** Second factors: without one of them a password alone signs in. */
const SECOND_FACTORS = new Set(['totp', 'recovery_code']);

/** `require_recent_sign_in` (an invisible first step): `reauthenticate` when the last sign-in is older than 15 minutes. */
const requireRecentSignIn: StepHook = {
  name: 'require_recent_sign_in',
  async run(ctx) {
    const userId = await ctx.signedIn();
    if (userId === undefined) throw invalidAction(ctx.flowId, 'settings', 'Only a signed-in session can change its credentials.');
    return (await provenWithin(ctx, userId, RECENT_SIGN_IN_MS)) ? undefined : 'reauthenticate';
  },
};

/**
 * `remove_credential`: removes one of the signed-in user's credentials (audited). Removing the
 * last second factor needs a password verified in this flow within 5 minutes: without one the
 * flow follows `confirm_password` (the credential waits in the flow) to a step that asks for it.
 * The user's only credential is never removed here (they could not sign in again).
 */
const removeCredential: StepHook = {
  name: 'remove_credential',
  takes: [CREDENTIAL_ID_FIELD],
  async run(ctx, values) {
    const { flowId, projectId, step } = ctx;
    const { userCredentials } = ctx.services;
    const waiting = ctx.state<string>('settings');
    const userId = await recentlyProvenUser(ctx, 'remove_credential');
    const credentialId = values.get(CREDENTIAL_ID_FIELD) ?? waiting.get();
    if (credentialId === undefined) throw validationFailed(flowId, { credential_id: 'error.required' });
    const credentials = await userCredentials.list(projectId, userId);
    const target = credentials.find((credential) => credential.id === credentialId);
    // Another user's credential is answered exactly like one that does not exist.
    if (!target) throw validationFailed(flowId, { credential_id: 'error.unknown_credential' }, 'No such credential of yours.');
    const rest = credentials.filter((credential) => credential.id !== credentialId);
    if (rest.length === 0) throw validationFailed(flowId, { credential_id: 'error.last_credential' }, 'Your only credential cannot be removed; add another one first.');
    const lastSecondFactor = SECOND_FACTORS.has(target.method) && !rest.some((credential) => SECOND_FACTORS.has(credential.method));
    if (lastSecondFactor && !(await provenWithin(ctx, userId, FRESH_PASSWORD_MS, 'password', true))) {
      if (!step.transitions?.confirm_password) {
        throw new AppError('flow.invalid_action', 'Confirm your password first to remove your last second factor.', { flow_id: flowId, action: 'remove_credential' });
      }
      waiting.set(credentialId);
      return 'confirm_password';
    }
    await userCredentials.remove(projectId, userId, credentialId, SELF);
    waiting.clear();
    return undefined;
  },
};

/**
 * The settings flow's own parts (DESIGN §4.13), built in: the re-authentication check at its start
 * and the removal of a credential. Adding a passkey, TOTP, recovery codes and a new password are
 * the hooks and actions of those methods.
 */
export const settingsMethod: AuthMethod = {
  name: 'settings',
  defaults: settingsDefaults(CREDENTIAL_ID_FIELD),
  texts: settingsTexts,
  ui: settingsMarkup,
  stepExtensions: settingsStepExtensions,
  needsSchemaKey: false,
  field: { ref: CREDENTIAL_ID_FIELD, type: 'text', maxLength: 64, pattern: { regex: /^cred_[0-9a-z]{1,59}$/, error: 'error.unknown_credential' }, secret: false },
  hooks: [requireRecentSignIn, removeCredential],
  sessionBoundPurposes: [SETTINGS_PURPOSE],
  legacyFrameKey: 'rc',

  /** A step that removes a credential lists the signed-in user's own, so a frontend can offer a choice, not a text box. */
  rendersOn: (step) => step.fields?.includes(CREDENTIAL_ID_FIELD) ?? false,
  async render(ctx, view) {
    if (!ctx.step.fields?.includes(CREDENTIAL_ID_FIELD)) return;
    const userId = await ctx.signedIn();
    if (userId === undefined) return;
    const credentials = await ctx.services.userCredentials.list(ctx.projectId, userId);
    view.credentials = credentials.map(({ id, method, name, created_at }) => ({ id, method, name, created_at }));
  },
};
