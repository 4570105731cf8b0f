import { AppError } from '../../../core/errors.js';
import { RECOVERY_CODES_LOW } from '../../../mfa/recovery-codes.js';
import type { AuthMethod, StepHook } from '../method.js';
import { checkSecret } from '../secret.js';
import { recentlyProvenUser } from '../settings/proof.js';

export const RECOVERY_CODE_FACTOR_FIELD = 'x-auth-methods#recovery_code';

const wrongCode = (flowId: string) => new AppError('flow.invalid_credentials', 'The recovery code is wrong or was already used.', { flow_id: flowId, fields: { recovery_code: 'error.invalid_code' } });

/** `generate_recovery_codes`: a new set replaces the old one; the codes are in this response only. */
const generateRecoveryCodes: StepHook = {
  name: 'generate_recovery_codes',
  async run({ run }) {
    const userId = await recentlyProvenUser(run, 'generate_recovery_codes');
    run.extensions.recovery_codes = await run.deps.recoveryCodes.generate(run.projectId, userId);
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
  needsSchemaKey: true,
  // 10 base32 characters, shown as XXXXX-XXXXX; typed with dashes or spaces anywhere.
  field: { ref: RECOVERY_CODE_FACTOR_FIELD, type: 'code', maxLength: 32, pattern: { regex: /^[A-Za-z2-7\s-]{10,32}$/, error: 'error.invalid_code' }, secret: true },
  hooks: [generateRecoveryCodes],

  checksCredentials: (step) => (step.fields ?? []).includes(RECOVERY_CODE_FACTOR_FIELD),

  async verify(ctx, code) {
    const { run } = ctx;
    const { deps, frame, projectId } = run;
    const checked = await checkSecret(ctx, 'recovery_code', (userId) => deps.recoveryCodes.use(projectId, userId, code));
    if (!checked) throw wrongCode(frame.id);
    const remaining = checked.value;
    await run.recordFactor({ method: 'recovery_code', payload: { remaining } }, checked.userId);
    if (remaining <= RECOVERY_CODES_LOW) run.extensions.warning = 'warning.recovery_codes_low';
    return undefined;
  },
};
