import { AppError } from '../../../core/errors.js';
import { SYSTEM } from '../../../events/types.js';
import { mailLanguage } from '../../../courier/templates.js';
import { mailAfterAnswer, storedAddress } from '../mail.js';
import type { MethodContext } from '../method.js';
import type { AuthMethod, StepHook } from '../declaration.js';
import { recoveryDefaults } from './defaults.js';
import { recoveryTexts } from './texts.js';
import { CODE_TTL_MS } from '../../codes/service.js';

/** The one-time code a recovery step asks for; submitted as `code`. */
export const RECOVERY_CODE_FIELD = 'x-flow#code';

/** The id of the one-time code this frame sent (the code itself is never stored). */
const sentCode = (ctx: MethodContext) => ctx.state<string>('recovery_by_mail');

/** `send_recovery_code`: a code for the identified user, or for nobody, so that both take the same path. */
const sendRecoveryCode: StepHook = {
  name: 'send_recovery_code',
  async run(ctx) {
    const { codes, projects, events } = ctx.services;
    await ctx.takeMailBudget();
    // Known and unknown identifiers alike: the same statements, the event naming the user or nobody.
    const issued = await events.transaction(async (trx) => {
      const code = await codes.issue(ctx.projectId, ctx.userId, 'recovery', { trx });
      const data = { method: 'recovery_by_mail', flow_id: ctx.flowId, known_account: ctx.userId !== undefined };
      await events.record(trx, { type: 'recovery.requested', projectId: ctx.projectId, actor: SYSTEM, subjectId: ctx.userId ?? null, data });
      return code;
    });
    sentCode(ctx).set(issued.id);
    ctx.grant.forget();
    const to = await storedAddress(ctx, ctx.userId);
    if (to !== undefined) {
      const project = await projects.row(ctx.projectId);
      mailAfterAnswer(ctx, {
        projectId: ctx.projectId,
        to: to.address,
        template: 'recovery_code',
        language: mailLanguage(ctx.request.acceptLanguage),
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
  defaults: recoveryDefaults(RECOVERY_CODE_FIELD),
  texts: recoveryTexts,
  needsSchemaKey: false,
  field: { ref: RECOVERY_CODE_FIELD, type: 'code', maxLength: 1024, pattern: { regex: /^\d{6,12}$/, error: 'error.invalid_code' }, secret: true },
  hooks: [sendRecoveryCode],
  legacyFrameKey: 'oc',

  checksCredentials: (step) => (step.fields ?? []).includes(RECOVERY_CODE_FIELD),
  // The captcha decision before a code is checked reads the account's password counter, as a sign-in's does.
  precheckFactor: 'password',

  async verify(ctx, code) {
    const sent = sentCode(ctx);
    const codeId = sent.get();
    const outcome = codeId !== undefined ? await ctx.services.codes.consume(ctx.projectId, codeId, code) : 'wrong';
    if (outcome !== 'consumed') {
      if (outcome === 'exhausted') {
        throw new AppError('flow.code_exhausted', 'The code was tried too often; ask for a new one.', { flow_id: ctx.flowId, fields: { code: 'error.code_exhausted' } });
      }
      throw new AppError('flow.invalid_credentials', 'The code is invalid or has expired.', { flow_id: ctx.flowId, fields: { code: 'error.invalid_code' } });
    }
    if (ctx.userId !== undefined) ctx.grant.give(codeId!);
    else ctx.grant.forget();
    sent.clear();
    return undefined;
  },
};
