import { AppError } from '../../../core/errors.js';
import { enrollmentView, newTotpSecret } from '../../../mfa/totp.js';
import { factorKind } from '../../../sessions/levels.js';
import { valueAt } from '../../../schemas/document.js';
import type { MethodContext } from '../method.js';
import type { AuthMethod, StepHook } from '../declaration.js';
import { totpDefaults } from './defaults.js';
import { totpTexts } from './texts.js';
import { totpMarkup } from './ui.js';
import { totpStepExtensions } from './view.js';
import { recentlyProvenUser } from '../proof.js';

export const TOTP_FIELD = 'x-auth-methods#totp';

const wrongCode = (flowId: string) => new AppError('flow.invalid_credentials', 'The code is wrong, expired or was already used.', { flow_id: flowId, fields: { totp: 'error.invalid_code' } });

/** The seed an `enable_totp` step showed, until a first code confirms it. */
const seedOf = (ctx: MethodContext) => ctx.state<string>('totp');

/**
 * A second factor is due when the identified user has TOTP and the flow's factors do not yet
 * reach AAL2 (no possession or multi-factor authenticator among them).
 */
async function secondFactorDue(ctx: MethodContext): Promise<string | undefined> {
  const userId = ctx.userId;
  if (!ctx.step.transitions?.second_factor || userId === undefined) return undefined;
  const kinds = new Set((await ctx.factors(userId, { flowOnly: true })).map(factorKind));
  if (kinds.has('multi') || kinds.has('possession')) return undefined;
  const known = ctx.credentialMethodsOf(userId)?.has('totp');
  return (known ?? (await ctx.services.totp.enrolled(ctx.projectId, userId))) ? 'second_factor' : undefined;
}

/** `enable_totp`: the first code from the authenticator app confirms the seed the step showed. */
const enableTotp: StepHook = {
  name: 'enable_totp',
  takes: [TOTP_FIELD],
  async run(ctx, values) {
    const userId = await recentlyProvenUser(ctx, 'enable_totp');
    const code = values.get(TOTP_FIELD);
    const seed = seedOf(ctx);
    const secret = seed.get();
    if (secret === undefined || code === undefined) throw wrongCode(ctx.flowId);
    if (!(await ctx.services.totp.enable(ctx.projectId, userId, secret, code))) throw wrongCode(ctx.flowId);
    seed.clear();
    return undefined;
  },
};

/** The issuer and account name an authenticator app lists the entry under. */
async function labels(ctx: MethodContext, userId: string): Promise<{ issuer: string; label: string }> {
  const { projects, users } = ctx.services;
  const [project, user] = await Promise.all([projects.row(ctx.projectId), users.find(ctx.projectId, userId)]);
  const identifier = ctx.schema.identifiers.map((path) => (user ? valueAt(user.attributes, path) : undefined)).find((value) => typeof value === 'string');
  return { issuer: project?.name ?? 'Gatehouse', label: typeof identifier === 'string' ? identifier : userId };
}

/**
 * TOTP (RFC 6238, DESIGN §4.12): verified as a second factor after the password (`second_factor`
 * outcome), enrolled in a settings flow: the `enable_totp` step shows `step.totp` with a new seed
 * that lives in the encrypted flow cookie until a first code confirms it.
 */
export const totpMethod: AuthMethod = {
  name: 'totp',
  defaults: totpDefaults(TOTP_FIELD),
  texts: totpTexts,
  ui: totpMarkup,
  stepExtensions: totpStepExtensions,
  budget: 'account',
  needsSchemaKey: true,
  // A code from an app proves the device that holds the seed.
  factors: { totp: { kind: () => 'possession', amr: () => 'otp' } },
  field: { ref: TOTP_FIELD, type: 'code', maxLength: 6, pattern: { regex: /^\d{6}$/, error: 'error.invalid_code' }, secret: true },
  hooks: [enableTotp],
  legacyFrameKey: 'ts',

  checksCredentials: (step) => (step.fields ?? []).includes(TOTP_FIELD),

  async verify(ctx, code) {
    const { totp } = ctx.services;
    // Counted per user and factor (DESIGN §4.6a): knowing the password buys no guesses at six digits.
    const checked = await ctx.checkSecret('totp', async (userId) => ((await totp.verify(ctx.projectId, userId, code)) ? { value: true } : undefined));
    if (!checked) throw wrongCode(ctx.flowId);
    return undefined;
  },

  followUp: secondFactorDue,
  followsUpOn: (step) => step.transitions?.second_factor !== undefined,
  rendersOn: (step) => step.on_success === 'enable_totp',

  async render(ctx, view) {
    if (ctx.step.on_success !== 'enable_totp') return;
    const userId = await ctx.signedIn();
    if (userId === undefined) return;
    const seed = seedOf(ctx);
    const secret = seed.get() ?? newTotpSecret();
    if (seed.get() === undefined) seed.set(secret);
    const { issuer, label } = await labels(ctx, userId);
    view.totp = await enrollmentView(secret, issuer, label);
  },
};
