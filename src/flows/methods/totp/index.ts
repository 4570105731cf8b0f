import { AppError } from '../../../core/errors.js';
import { enrollmentView, newTotpSecret } from '../../../mfa/totp.js';
import { factorKind } from '../../../sessions/levels.js';
import { valueAt } from '../../../schemas/document.js';
import type { AuthMethod, StepContext, StepHook } from '../method.js';
import { checkSecret } from '../secret.js';
import { recentlyProvenUser, settingsUser } from '../settings/proof.js';

export const TOTP_FIELD = 'x-auth-methods#totp';

const wrongCode = (flowId: string) => new AppError('flow.invalid_credentials', 'The code is wrong, expired or was already used.', { flow_id: flowId, fields: { totp: 'error.invalid_code' } });

/**
 * A second factor is due when the identified user has TOTP and the flow's factors do not yet
 * reach AAL2 (no possession or multi-factor authenticator among them).
 */
async function secondFactorDue({ run, step }: StepContext): Promise<string | undefined> {
  if (!step.transitions?.second_factor || run.frame.u === undefined) return undefined;
  const { deps, entry, projectId } = run;
  const attempt = entry.a === undefined ? undefined : run.attempt?.id === entry.a ? run.attempt : await deps.attempts.get(projectId, entry.a).catch(() => undefined);
  const kinds = new Set((attempt?.factors ?? []).filter((f) => f.payload.user_id === run.frame.u).map(factorKind));
  if (kinds.has('multi') || kinds.has('possession')) return undefined;
  const known = run.userMethods?.userId === run.frame.u ? run.userMethods.methods.has('totp') : undefined;
  return (known ?? (await deps.totp.enrolled(projectId, run.frame.u))) ? 'second_factor' : undefined;
}

/** `enable_totp`: the first code from the authenticator app confirms the seed the step showed. */
const enableTotp: StepHook = {
  name: 'enable_totp',
  takes: [TOTP_FIELD],
  async run({ run }, values) {
    const { deps, frame, projectId } = run;
    const userId = await recentlyProvenUser(run, 'enable_totp');
    const code = values.get(TOTP_FIELD);
    if (frame.ts === undefined || code === undefined) throw wrongCode(frame.id);
    if (!(await deps.totp.enable(projectId, userId, frame.ts, code))) throw wrongCode(frame.id);
    frame.ts = undefined;
    return undefined;
  },
};

/** The issuer and account name an authenticator app lists the entry under. */
async function labels({ run, loaded }: StepContext, userId: string): Promise<{ issuer: string; label: string }> {
  const [project, user] = await Promise.all([run.deps.projects.row(run.projectId), run.deps.users.find(run.projectId, userId)]);
  const identifier = loaded.schema.identifiers.map((path) => (user ? valueAt(user.attributes, path) : undefined)).find((value) => typeof value === 'string');
  return { issuer: project?.name ?? 'Gatehouse', label: typeof identifier === 'string' ? identifier : userId };
}

/**
 * TOTP (RFC 6238, DESIGN §4.12): verified as a second factor after the password (`second_factor`
 * outcome), enrolled in a settings flow: the `enable_totp` step shows `step.totp` with a new seed
 * that lives in the encrypted flow cookie until a first code confirms it.
 */
export const totpMethod: AuthMethod = {
  name: 'totp',
  needsSchemaKey: true,
  field: { ref: TOTP_FIELD, type: 'code', maxLength: 6, pattern: { regex: /^\d{6}$/, error: 'error.invalid_code' }, secret: true },
  hooks: [enableTotp],

  checksCredentials: (step) => (step.fields ?? []).includes(TOTP_FIELD),

  async verify(ctx, code) {
    const { deps, frame, projectId } = ctx.run;
    // Counted per user and factor (DESIGN §4.6a): knowing the password buys no guesses at six digits.
    const checked = await checkSecret(ctx, 'totp', async (userId) => ((await deps.totp.verify(projectId, userId, code)) ? true : undefined));
    if (!checked) throw wrongCode(frame.id);
    await ctx.run.recordFactor({ method: 'totp' }, checked.userId);
    return undefined;
  },

  followUp: secondFactorDue,

  async render(ctx, view) {
    const { run, step } = ctx;
    if (step.on_success !== 'enable_totp') return;
    const userId = await settingsUser(run);
    if (userId === undefined) return;
    if (run.frame.ts === undefined) {
      run.frame.ts = newTotpSecret();
      run.stateChanged = true;
    }
    const { issuer, label } = await labels(ctx, userId);
    view.totp = await enrollmentView(run.frame.ts, issuer, label);
  },
};
