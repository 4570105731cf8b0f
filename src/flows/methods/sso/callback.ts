import { Type } from 'typebox';
import { digestsEqual, sha256Hex } from '../../../core/crypto.js';
import { AppError } from '../../../core/errors.js';
import { SSO_CALLBACK_PATH } from '../../../sso/service.js';
import { UpstreamFailure } from '../../../sso/upstream.js';
import type { MethodContext } from '../method.js';
import type { UpstreamAnswer, UpstreamReturn } from '../declaration.js';
import { decide } from './outcome.js';
import { callbackUrl, SSO_COOKIE } from './start.js';
import { ssoState, type SsoState } from './state.js';
import { ssoServices } from './services.js';

/** What a provider may send back (RFC 6749 §4.1.2, RFC 9207 `iss`, Apple's `user`), each once and short. */
const CallbackParams = Type.Object(
  {
    code: Type.Optional(Type.String({ maxLength: 4096 })),
    state: Type.Optional(Type.String({ maxLength: 512 })),
    iss: Type.Optional(Type.String({ maxLength: 2048 })),
    error: Type.Optional(Type.String({ maxLength: 256 })),
    error_description: Type.Optional(Type.String({ maxLength: 1024 })),
    error_uri: Type.Optional(Type.String({ maxLength: 2048 })),
    session_state: Type.Optional(Type.String({ maxLength: 512 })),
    scope: Type.Optional(Type.String({ maxLength: 2048 })),
    authuser: Type.Optional(Type.String({ maxLength: 16 })),
    prompt: Type.Optional(Type.String({ maxLength: 64 })),
    hd: Type.Optional(Type.String({ maxLength: 256 })),
    user: Type.Optional(Type.String({ maxLength: 4096 })),
  },
  { additionalProperties: false },
);

/**
 * `GET /flow/sso/callback` (DESIGN §4.14), served by the engine: `_zsso` names the flow and proves
 * the browser that started the sign-in (`binds`, checked before `resumeSso`). POST is
 * `response_mode=form_post` (Apple).
 */
export const SSO_RETURN: UpstreamReturn = {
  path: SSO_CALLBACK_PATH,
  params: CallbackParams,
  bindingCookie: SSO_COOKIE,
  summaries: {
    get: 'Where upstream identity providers send the browser back (sets _zflow, clears _zsso, 303 to return_to?flow=<id>)',
    post: 'The form_post return of an upstream provider: 303 to the GET form',
  },
  // A callback that cannot be tied to a flow of this browser: 400, nothing changes.
  unusable: (reason) => new AppError('flow.sso_failed', 'This sign-in cannot be completed in this browser; start it again.', { reason }),
  binds(slot, secret) {
    const pending = (slot as SsoState | undefined)?.so;
    return pending !== undefined && digestsEqual(sha256Hex(secret), pending.b);
  },
};

/**
 * The upstream return of a flow the binding secret proves: the state is taken once in the database
 * (a replayed callback fails); the code exchange checks state, PKCE, nonce, issuer, audience and
 * signature (`openid-client`). Every failure after the binding held keeps the step, with
 * `step.error`, and is logged with why.
 */
export async function resumeSso(ctx: MethodContext, query: Record<string, string>, binding: string): Promise<UpstreamAnswer> {
  const state = ssoState(ctx);
  const pending = state.started();
  // The engine asked `binds` first; this keeps a direct call as strict.
  if (!pending || !SSO_RETURN.binds({ so: pending }, binding)) throw SSO_RETURN.unusable('the _zsso cookie does not match the flow');
  state.start(undefined);
  const returnTo = pending.r;
  const fail = (error: string, reason: string): UpstreamAnswer => {
    state.hold(undefined);
    return { returnTo, error, reason, details: { provider_id: pending.p } };
  };

  const { services, projectId } = ctx;
  if (query.state !== pending.st) return fail('error.sso_failed', 'state does not match');
  if (!(await ssoServices(ctx).links.takeState(projectId, sha256Hex(pending.st), new Date(pending.x)))) return fail('error.sso_failed', 'state replayed');
  if (pending.x <= services.clock.now().getTime()) return fail('error.sso_failed', 'the sign-in took too long');
  if (query.error !== undefined) return fail('error.sso_failed', `upstream error: ${query.error.slice(0, 100)}`);
  const provider = await services.sso.providers.enabledProvider(projectId, pending.p);
  if (!provider) return fail('error.sso_failed', 'the provider was removed or disabled');
  const url = new URL(callbackUrl(ctx));
  for (const [name, value] of Object.entries(query)) url.searchParams.set(name, value);
  let outcome;
  try {
    const profile = await ssoServices(ctx).upstream.profile(provider, url, { state: pending.st, nonce: pending.n, codeVerifier: pending.v });
    outcome = await decide(ctx, provider, profile);
  } catch (error) {
    if (error instanceof UpstreamFailure) return fail('error.sso_failed', error.reason);
    throw error;
  }
  if ('error' in outcome) return fail(outcome.error, outcome.reason);
  return { returnTo, outcome: outcome.trigger };
}
