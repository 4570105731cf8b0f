import { AppError } from '../../../core/errors.js';
import { mailLanguage } from '../../../courier/templates.js';
import { CODE_TTL_MS, LINK_TOKEN } from '../../codes/service.js';
import { collectedIdentifierField, mailAfterAnswer, storedAddress, takeMailBudget } from '../mail.js';
import type { AuthMethod, StepContext, StepHook } from '../method.js';
import { linkWaitingIdentity } from '../sso/identity.js';

/** The step field of e-mail codes; it takes the magic-link token too (DESIGN §4.9, §4.11). */
export const OTP_FIELD = 'x-auth-methods#otp';

/** Within one flow, a new message is sent at most once a minute (`resend` answers 429 sooner). */
export const RESEND_INTERVAL_MS = 60 * 1000;

/** The link a message carries: the hosted UI's link page, which never signs in another browser. */
function linkUrl({ run }: StepContext, token: string): string {
  const url = new URL(`${run.deps.publicUrl}/ui/link`);
  url.searchParams.set('flow', run.frame.id);
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
    const { run, loaded } = ctx;
    const { deps, frame, projectId } = run;
    // Taken on the run in one statement: a replayed older `_zflow` cannot skip the gap.
    const send = await deps.definitions.takeCodeSend(frame.id, RESEND_INTERVAL_MS);
    if (!send.taken) {
      const waitMs = send.nextAt ? send.nextAt.getTime() - deps.clock.now().getTime() : RESEND_INTERVAL_MS;
      const retryAfter = Math.max(1, Math.ceil(waitMs / 1000));
      throw new AppError('auth.rate_limited', 'A code was sent a moment ago; wait before asking for another.', { flow_id: frame.id, retry_after_seconds: retryAfter }, { 'retry-after': String(retryAfter) });
    }
    await takeMailBudget(ctx);
    const link = loaded.schema.methods.has('magic_link');
    // A new code replaces the user's previous one (consumed in the same transaction).
    const issued = await deps.codes.issue(projectId, frame.u, 'otp', { link });
    frame.oc = issued.id;
    const to = await storedAddress(ctx, frame.u);
    if (to !== undefined) {
      const project = await deps.projects.row(projectId);
      mailAfterAnswer(ctx, {
        projectId,
        to: to.address,
        template: issued.link !== undefined ? 'magic_link' : 'sign_in_code',
        language: mailLanguage(run.ctx.acceptLanguage),
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
  needsSchemaKey: true,
  field: {
    ref: OTP_FIELD,
    type: 'code',
    maxLength: 64,
    pattern: { regex: /^(?:\d{6}|[A-Za-z0-9_-]{22})$/, error: 'error.invalid_code' },
    secret: true,
  },
  hooks: [sendOtp],

  checksCredentials: (step) => (step.fields ?? []).includes(OTP_FIELD),

  async verify(ctx, value) {
    const { run, loaded } = ctx;
    const { deps, frame, projectId } = run;
    const accepts = { code: true, link: loaded.schema.methods.has('magic_link') };
    const outcome = frame.oc !== undefined ? await deps.codes.consume(projectId, frame.oc, value, accepts) : 'wrong';
    const userId = frame.u;
    if (outcome !== 'consumed' || userId === undefined) {
      await deps.risk.recordFailure(projectId, undefined, run.ctx.ip, await run.riskRules());
      if (outcome === 'exhausted') {
        throw new AppError('flow.code_exhausted', 'The code was tried too often; ask for a new one.', { flow_id: frame.id, fields: { otp: 'error.code_exhausted' } });
      }
      throw new AppError('flow.invalid_credentials', 'The code is invalid or has expired.', { flow_id: frame.id, fields: { otp: 'error.invalid_code' } });
    }
    frame.oc = undefined;
    const method = LINK_TOKEN.test(value) ? 'magic_link' : 'otp';
    const field = collectedIdentifierField(ctx);
    await Promise.all([
      run.recordFactor({ method, payload: { channel: 'email' } }, userId),
      field !== undefined ? deps.users.markVerified(projectId, userId, field) : Promise.resolve(),
    ]);
    // An upstream identity waiting for this address to be proven (a new user kept an address its provider did not verify) links now.
    if (field !== undefined) await linkWaitingIdentity(ctx, userId, field);
    return undefined;
  },
};
