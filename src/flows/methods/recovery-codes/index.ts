import { AppError } from '../../../core/errors.js';
import { RECOVERY_CODES_LOW } from '../../../mfa/recovery-codes.js';
import type { AuthMethod, StepHook } from '../declaration.js';
import { recoveryCodesDefaults } from './defaults.js';
import { recoveryCodeTexts } from './texts.js';
import { recoveryCodesMarkup } from './ui.js';
import { recoveryCodesStepExtensions } from './view.js';
import { recentlyProvenUser } from '../proof.js';

export const RECOVERY_CODE_FACTOR_FIELD = 'x-auth-methods#recovery_code';

const wrongCode = (flowId: string) => new AppError('flow.invalid_credentials', 'The recovery code is wrong or was already used.', { flow_id: flowId, fields: { recovery_code: 'error.invalid_code' } });

/** `generate_recovery_codes`: a new set replaces the old one; the codes are in this response only. */
const generateRecoveryCodes: StepHook = {
  name: 'generate_recovery_codes',
  async run(ctx) {
    const userId = await recentlyProvenUser(ctx, 'generate_recovery_codes');
    ctx.view.extend({ recovery_codes: await ctx.services.recoveryCodes.generate(ctx.projectId, userId) });
    return undefined;
  },
};

/**
 * Recovery codes (DESIGN §4.12): a second factor for when the authenticator is lost. Each code
 * signs in once (dashes and case do not matter); the factor records how many are left and the
 * next step warns (`step.warning`) when two or fewer remain.
 */
export const recoveryCodeFactorMethod: AuthMethod = {
  name: 'recovery_code',
  defaults: recoveryCodesDefaults(RECOVERY_CODE_FACTOR_FIELD),
  texts: recoveryCodeTexts,
  ui: recoveryCodesMarkup,
  stepExtensions: recoveryCodesStepExtensions,
  budget: 'account',
  needsSchemaKey: true,
  // A code from the set the user stored proves that set, like a device.
  factors: { recovery_code: { kind: () => 'possession', amr: () => 'otp' } },
  // 10 base32 characters, shown as XXXXX-XXXXX; typed with dashes or spaces anywhere.
  field: { ref: RECOVERY_CODE_FACTOR_FIELD, type: 'code', maxLength: 32, pattern: { regex: /^[A-Za-z2-7\s-]{10,32}$/, error: 'error.invalid_code' }, secret: true },
  hooks: [generateRecoveryCodes],

  checksCredentials: (step) => (step.fields ?? []).includes(RECOVERY_CODE_FACTOR_FIELD),

  async verify(ctx, code) {
    const { recoveryCodes } = ctx.services;
    const checked = await ctx.checkSecret('recovery_code', async (userId) => {
      const remaining = await recoveryCodes.use(ctx.projectId, userId, code);
      return remaining === undefined ? undefined : { value: remaining, payload: { remaining } };
    });
    if (!checked) throw wrongCode(ctx.flowId);
    if (checked.value <= RECOVERY_CODES_LOW) ctx.view.warn('warning.recovery_codes_low');
    return undefined;
  },
};
