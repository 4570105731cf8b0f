import { AppError } from '../../../core/errors.js';
import { valueAt } from '../../../schemas/document.js';
import type { AuthMethod, StepContext, StepHook } from '../method.js';

/** The one-time code a recovery step asks for; submitted as `code`. */
export const RECOVERY_CODE_FIELD = 'x-flow#code';

/**
 * Where a recovery code goes: the account's own stored value of the identifier the visitor typed,
 * never the typed text. Lookups fold case and Unicode (`victim@gıthub.com` finds
 * `victim@github.com`), so mailing the typed text would hand the code to a look-alike address.
 */
async function storedAddress({ run, loaded }: StepContext, userId: string): Promise<string | undefined> {
  const field = loaded.schema.identifiers.find((name) => run.frame.c[name] !== undefined);
  if (field === undefined) return undefined;
  const user = await run.deps.users.find(run.projectId, userId);
  const stored = user ? valueAt(user.attributes, field) : undefined;
  return typeof stored === 'string' && stored.includes('@') ? stored : undefined;
}

/** `send_recovery_code`: a code for the identified user, or for nobody, so that both take the same path. */
const sendRecoveryCode: StepHook = {
  name: 'send_recovery_code',
  async run(ctx) {
    const { deps, frame, projectId } = ctx.run;
    const issued = await deps.codes.issue(projectId, frame.u, 'recovery');
    frame.oc = issued.id;
    frame.pv = undefined;
    const address = frame.u !== undefined ? await storedAddress(ctx, frame.u) : undefined;
    if (address !== undefined) {
      deps.courier.sendLater({
        projectId,
        to: address,
        subject: 'Your recovery code',
        text: `Your recovery code is ${issued.code}. It is valid for 10 minutes. If you did not ask for it, ignore this message.`,
        template: 'recovery_code',
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
