import { AppError } from '../../../core/errors.js';
import { SELF } from '../../../events/types.js';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../../../schemas/keywords.js';
import { validationFailed } from '../../errors.js';
import type { Enrollment } from '../method.js';
import type { AuthMethod, StepHook } from '../declaration.js';
import { passwordDefaults } from './defaults.js';
import { passwordTexts } from './texts.js';
import { recentlyProvenUser } from '../proof.js';

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
  async run(ctx, values) {
    const password = values.get(PASSWORD_FIELD);
    if (password === undefined) return undefined;
    const refused = () => new AppError('flow.invalid_action', 'Prove control of the account first.', { flow_id: ctx.flowId, action: 'set_password' });
    const userId = ctx.userId;
    if (!ctx.grant.held || userId === undefined) throw refused();
    // One proof, one password (DESIGN §4.6a): the grant is spent in the password's transaction, so
    // a replayed or concurrent submit of the same `_zflow` sets nothing. The password-set hook lifts
    // the lock-out of the user's identifiers there too (flows/module.ts).
    const within = async (trx: Parameters<typeof ctx.grant.spend>[0]) => {
      if (!(await ctx.grant.spend(trx))) throw refused();
    };
    await withPolicyOnField(ctx.flowId, () => ctx.services.passwords.setPassword(ctx.projectId, userId, password, { actor: SELF, within }));
    ctx.grant.forget();
    return undefined;
  },
};

/** `change_password` (settings flows): the signed-in user, proven within 15 minutes, sets a new password; audited. */
const changePassword: StepHook = {
  name: 'change_password',
  takes: [PASSWORD_FIELD],
  async run(ctx, values) {
    const password = values.get(PASSWORD_FIELD);
    if (password === undefined) return undefined;
    const userId = await recentlyProvenUser(ctx, 'change_password');
    await withPolicyOnField(ctx.flowId, () => ctx.services.passwords.setPassword(ctx.projectId, userId, password, { actor: SELF }));
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
  defaults: passwordDefaults(PASSWORD_FIELD),
  texts: passwordTexts,
  budget: 'account',
  needsSchemaKey: true,
  schemaKey: { options: { minLength: { type: 'integer', minimum: PASSWORD_MIN_LENGTH, maximum: PASSWORD_MAX_LENGTH } } },
  factors: { password: { kind: () => 'knowledge', amr: () => 'pwd' } },
  field: { ref: PASSWORD_FIELD, type: 'password', maxLength: 4096, secret: true, raw: true },
  hooks: [setPassword, changePassword],

  checksCredentials: (step) => (step.fields ?? []).includes(PASSWORD_FIELD) && step.on_success !== 'create_user' && step.on_success !== 'set_password' && step.on_success !== 'change_password',

  async verify(ctx, password) {
    const { passwords } = ctx.services;
    // Unknown identifiers are counted and cost a dummy hash, so that their answers and timing
    // match a known account's (locked or not).
    const checked = await ctx.checkSecret(
      'password',
      async (userId) => {
        const verified = await passwords.verifyReadingMethods(ctx.projectId, userId, password);
        return verified.ok ? { value: true, credentialMethods: verified.methods } : undefined;
      },
      () => passwords.dummyVerify(),
    );
    if (!checked) throw invalidCredentials(ctx.flowId);
    return undefined;
  },

  async enroll(ctx, password, attributes): Promise<Enrollment> {
    const input = { schema: ctx.schemaRef, attributes };
    const write = await withPolicyOnField(ctx.flowId, () => ctx.services.passwords.prepareForNewUser(ctx.projectId, input, { actor: SELF }, password));
    return { write, factor: { method: 'password' } };
  },
};
