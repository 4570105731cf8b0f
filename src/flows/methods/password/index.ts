import { AppError } from '../../../core/errors.js';
import { validationFailed } from '../../errors.js';
import type { AuthMethod, Enrollment, StepContext, StepHook } from '../method.js';
import { checkSecret } from '../secret.js';
import { recentlyProvenUser } from '../settings/proof.js';

export const PASSWORD_FIELD = 'x-auth-methods#password';

export function invalidCredentials(flowId: string): AppError {
  return new AppError('flow.invalid_credentials', 'The credentials are invalid.', { flow_id: flowId, fields: { password: 'error.invalid_credentials' } });
}

/** A refused password answers on the field, with the rule that refused it. */
async function withPolicyOnField<T>(flowId: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof AppError && error.code === 'auth.password_policy') {
      throw validationFailed(flowId, { password: 'error.password_policy' }, error.message, { rule: error.details.rule });
    }
    throw error;
  }
}

/** `set_password`: a user who proved control of the account (a recovery code) sets a new password. */
const setPassword: StepHook = {
  name: 'set_password',
  takes: [PASSWORD_FIELD],
  async run({ run }, values) {
    const { frame, deps, projectId } = run;
    const password = values.get(PASSWORD_FIELD);
    if (password === undefined) return undefined;
    const grant = frame.pv;
    const refused = () => new AppError('flow.invalid_action', 'Prove control of the account first.', { flow_id: frame.id, action: 'set_password' });
    if (grant === undefined || frame.u === undefined) throw refused();
    const userId = frame.u;
    // One proof, one password (DESIGN §4.6a): the grant is spent in the password's transaction, so
    // a replayed or concurrent submit of the same `_zflow` sets nothing. The password-set hook lifts
    // the lock-out of the user's identifiers there too (flows/module.ts).
    const within = async (trx: Parameters<typeof deps.codes.useGrant>[0]) => {
      if (!(await deps.codes.useGrant(trx, projectId, grant))) throw refused();
    };
    await withPolicyOnField(frame.id, () => deps.passwords.setPassword(projectId, userId, password, { actor: 'self', within }));
    frame.pv = undefined;
    return undefined;
  },
};

/** `change_password` (settings flows): the signed-in user, proven within 15 minutes, sets a new password; audited. */
const changePassword: StepHook = {
  name: 'change_password',
  takes: [PASSWORD_FIELD],
  async run({ run }, values) {
    const password = values.get(PASSWORD_FIELD);
    if (password === undefined) return undefined;
    const userId = await recentlyProvenUser(run, 'change_password');
    await withPolicyOnField(run.frame.id, () => run.deps.passwords.setPassword(run.projectId, userId, password, { actor: 'self' }));
    return undefined;
  },
};

/**
 * The password method: verify on login, with lock-out and dummy hashing so that unknown, locked
 * and wrong answers are indistinguishable; set at registration (`create_user`) and on recovery
 * (`set_password`).
 */
export const passwordMethod: AuthMethod = {
  name: 'password',
  needsSchemaKey: true,
  field: { ref: PASSWORD_FIELD, type: 'password', maxLength: 4096, secret: true },
  hooks: [setPassword, changePassword],

  checksCredentials: (step) => (step.fields ?? []).includes(PASSWORD_FIELD) && step.on_success !== 'create_user' && step.on_success !== 'set_password' && step.on_success !== 'change_password',

  async verify(ctx, password) {
    const { deps, frame, projectId } = ctx.run;
    // Unknown identifiers are counted and cost a dummy hash, so that their answers and timing
    // match a known account's (locked or not).
    const checked = await checkSecret(
      ctx,
      'password',
      async (userId) => {
        const verified = await deps.passwords.verifyReadingMethods(projectId, userId, password);
        if (!verified.ok) return undefined;
        ctx.run.userMethods = { userId, methods: new Set(verified.methods) };
        return true;
      },
      () => deps.passwords.dummyVerify(),
    );
    if (!checked) throw invalidCredentials(frame.id);
    await ctx.run.recordFactor({ method: 'password' }, checked.userId);
    return undefined;
  },

  async enroll(ctx: StepContext, password, attributes): Promise<Enrollment> {
    const { run, loaded } = ctx;
    const { deps, frame, projectId } = run;
    const input = { schema: loaded.def.user_schema ?? loaded.row.schema_uri, attributes };
    const write = await withPolicyOnField(frame.id, () => deps.passwords.prepareForNewUser(projectId, input, { actor: 'self' }, password));
    return {
      write,
      factor: { method: 'password' },
      // The new user's own counter (the one its sign-ins will count against); nothing is read first.
      done: (userId) => deps.risk.recordSuccess(projectId, deps.risk.accountKeyFor(projectId, { userId, identifier: run.collectedIdentifier() }, 'password'), userId, run.entry.ss),
    };
  },
};
