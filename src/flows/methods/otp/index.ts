import { AppError } from '../../../core/errors.js';
import { mailLanguage } from '../../../courier/templates.js';
import { CODE_TTL_MS, LINK_TOKEN } from '../../codes/service.js';
import { collectedIdentifierField, mailAfterAnswer, storedAddress } from '../mail.js';
import type { FactorDescription } from '../../../sessions/levels.js';
import type { MethodContext } from '../method.js';
import type { AuthMethod, StepHook } from '../declaration.js';
import { otpDefaults } from './defaults.js';
import { otpTexts } from './texts.js';

/** Codes and links: RFC 8176 `otp`; an inbox proves no device (NIST 800-63B §5.1.3), so AAL1 only. */
const MAILED_FACTOR: FactorDescription = { kind: () => 'other', amr: () => 'otp' };

/** The step field of e-mail codes; it takes the magic-link token too (DESIGN §4.9, §4.11). */
export const OTP_FIELD = 'x-auth-methods#otp';

/** Within one flow, a new message is sent at most once a minute (`resend` answers 429 sooner). */
export const RESEND_INTERVAL_MS = 60 * 1000;

/** The id of the one-time code this frame sent (the code itself is never stored). */
const sentCode = (ctx: MethodContext) => ctx.state<string>('otp');

/** The link a message carries: the hosted UI's link page, which never signs in another browser. */
function linkUrl(ctx: MethodContext, token: string): string {
  const url = new URL(`${ctx.services.publicUrl}/ui/link`);
  url.searchParams.set('flow', ctx.flowId);
  url.searchParams.set('token', token);
  return url.toString();
}

/**
 * `send_otp`: one message to the identified user's stored address with a 6-digit code and, where
 * the schema enables `magic_link`, a link token in the same one-time row. Unknown addresses take
 * the same path (budget, a code issued for nobody) and get no mail, so the answer is the same.
 */
const sendOtp: StepHook = {
  name: 'send_otp',
  async run(ctx) {
    const { clock, codes, projects } = ctx.services;
    // Taken on the run in one statement: a replayed older `_zflow` cannot skip the gap.
    const send = await ctx.throttle(RESEND_INTERVAL_MS);
    if (!send.taken) {
      const waitMs = send.nextAt ? send.nextAt.getTime() - clock.now().getTime() : RESEND_INTERVAL_MS;
      const retryAfter = Math.max(1, Math.ceil(waitMs / 1000));
      throw new AppError('auth.rate_limited', 'A code was sent a moment ago; wait before asking for another.', { flow_id: ctx.flowId, retry_after_seconds: retryAfter }, { 'retry-after': String(retryAfter) });
    }
    await ctx.takeMailBudget();
    const link = ctx.schema.methods.has('magic_link');
    // A new code replaces the user's previous one (consumed in the same transaction).
    const issued = await codes.issue(ctx.projectId, ctx.userId, 'otp', { link });
    sentCode(ctx).set(issued.id);
    const to = await storedAddress(ctx, ctx.userId);
    if (to !== undefined) {
      const project = await projects.row(ctx.projectId);
      mailAfterAnswer(ctx, {
        projectId: ctx.projectId,
        to: to.address,
        template: issued.link !== undefined ? 'magic_link' : 'sign_in_code',
        language: mailLanguage(ctx.request.acceptLanguage),
        variables: {
          code: issued.code,
          ...(issued.link !== undefined ? { link: linkUrl(ctx, issued.link) } : {}),
          project_name: project?.name ?? '',
          expires_minutes: CODE_TTL_MS / 60_000,
          email: to.address,
        },
      });
    }
    return undefined;
  },
};

/**
 * Sign-in by a code mailed to the user (factor `otp`) or the link mailed with it (factor
 * `magic_link`), both `{channel: "email"}`. One row holds both: 10 minutes, 5 tries, one use.
 * A right answer also proves the address: `metadata.verified.<property>`.
 */
export const otpMethod: AuthMethod = {
  name: 'otp',
  defaults: otpDefaults(OTP_FIELD),
  texts: otpTexts,
  needsSchemaKey: true,
  // `magic_link` switches on the link mailed with the code (verify's `accepts.link`).
  schemaKey: { alsoKeys: ['magic_link'] },
  factors: { otp: MAILED_FACTOR, magic_link: MAILED_FACTOR },
  field: {
    ref: OTP_FIELD,
    type: 'code',
    maxLength: 64,
    pattern: { regex: /^(?:\d{6}|[A-Za-z0-9_-]{22})$/, error: 'error.invalid_code' },
    secret: true,
  },
  hooks: [sendOtp],
  legacyFrameKey: 'oc',

  checksCredentials: (step) => (step.fields ?? []).includes(OTP_FIELD),
  // The captcha decision before a code is checked reads the account's password counter, as a sign-in's does.
  precheckFactor: 'password',

  async verify(ctx, value) {
    const sent = sentCode(ctx);
    const codeId = sent.get();
    const accepts = { code: true, link: ctx.schema.methods.has('magic_link') };
    const outcome = codeId !== undefined ? await ctx.services.codes.consume(ctx.projectId, codeId, value, accepts) : 'wrong';
    const userId = ctx.userId;
    if (outcome !== 'consumed' || userId === undefined) {
      if (outcome === 'exhausted') {
        throw new AppError('flow.code_exhausted', 'The code was tried too often; ask for a new one.', { flow_id: ctx.flowId, fields: { otp: 'error.code_exhausted' } });
      }
      throw new AppError('flow.invalid_credentials', 'The code is invalid or has expired.', { flow_id: ctx.flowId, fields: { otp: 'error.invalid_code' } });
    }
    sent.clear();
    const method = LINK_TOKEN.test(value) ? 'magic_link' : 'otp';
    // A right answer proves the address too; work waiting for that proof (an SSO link) follows.
    await ctx.prove({ method, payload: { channel: 'email' } }, userId, { verifies: collectedIdentifierField(ctx) });
    return undefined;
  },
};
