import { AppError } from '../../../core/errors.js';
import { mailLanguage } from '../../../courier/templates.js';
import { mailAfterAnswer, storedAddress, takeMailBudget } from '../mail.js';
import type { AuthMethod, StepHook } from '../method.js';
import { CODE_TTL_MS } from '../../codes/service.js';

/** The one-time code a recovery step asks for; submitted as `code`. */
export const RECOVERY_CODE_FIELD = 'x-flow#code';

/** `send_recovery_code`: a code for the identified user, or for nobody, so that both take the same path. */
const sendRecoveryCode: StepHook = {
  name: 'send_recovery_code',
  async run(ctx) {
    const { deps, frame, projectId } = ctx.run;
    await takeMailBudget(ctx);
    const issued = await deps.codes.issue(projectId, frame.u, 'recovery');
    frame.oc = issued.id;
    frame.pv = undefined;
    const to = await storedAddress(ctx, frame.u);
    if (to !== undefined) {
      const project = await deps.projects.row(projectId);
      mailAfterAnswer(ctx, {
        projectId,
        to: to.address,
        template: 'recovery_code',
        language: mailLanguage(ctx.run.ctx.acceptLanguage),
        variables: { code: issued.code, project_name: project?.name ?? '', expires_minutes: CODE_TTL_MS / 60_000, email: to.address },
      });
    }
    return undefined;
  },
};

/**
 * Account recovery by a one-time code sent by mail: a right code proves control of the account
 * for this flow (`set_password` may then run). It writes no sign-in factor.
 */
export const recoveryCodeMethod: AuthMethod = {
  name: 'recovery_by_mail',
  needsSchemaKey: false,
  field: { ref: RECOVERY_CODE_FIELD, type: 'code', maxLength: 1024, pattern: { regex: /^\d{6,12}$/, error: 'error.invalid_code' }, secret: true },
  hooks: [sendRecoveryCode],

  checksCredentials: (step) => (step.fields ?? []).includes(RECOVERY_CODE_FIELD),

  async verify({ run }, code) {
    const { deps, frame, projectId } = run;
    const outcome = frame.oc !== undefined ? await deps.codes.consume(projectId, frame.oc, code) : 'wrong';
    if (outcome !== 'consumed') {
      await deps.risk.recordFailure(projectId, undefined, run.ctx.ip, await run.riskRules());
      if (outcome === 'exhausted') {
        throw new AppError('flow.code_exhausted', 'The code was tried too often; ask for a new one.', { flow_id: frame.id, fields: { code: 'error.code_exhausted' } });
      }
      throw new AppError('flow.invalid_credentials', 'The code is invalid or has expired.', { flow_id: frame.id, fields: { code: 'error.invalid_code' } });
    }
    frame.pv = frame.u !== undefined ? frame.oc : undefined;
    frame.oc = undefined;
    return undefined;
  },
};
