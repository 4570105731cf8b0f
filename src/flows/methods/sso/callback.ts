import { constantTimeEqual, sha256Hex } from '../../../core/crypto.js';
import { AppError } from '../../../core/errors.js';
import { UpstreamFailure } from '../../../sso/upstream.js';
import type { FlowRuntime } from '../../runtime/engine.js';
import type { RequestContext } from '../../runtime/types.js';
import type { PendingSso } from '../../state.js';
import { decide } from './outcome.js';
import { callbackUrl } from './start.js';

/** The callback's answer: where the browser goes (303) and the `_zflow` to set. */
export interface CallbackAnswer {
  location: string;
  cookie: string | null;
}

/** A callback that cannot be tied to a flow of this browser: 400, nothing changes. */
function unusable(reason: string): AppError {
  return new AppError('flow.sso_failed', 'This sign-in cannot be completed in this browser; start it again.', { reason });
}

/** `return_to?flow=<id>`: the frontend reads where the flow went with `GET /flow/{id}`. */
function backTo(pending: PendingSso, flowId: string): string {
  const url = new URL(pending.r);
  url.searchParams.set('flow', flowId);
  return url.toString();
}

/**
 * `GET /flow/sso/callback` (DESIGN §4.14). `_zsso` names the flow and proves the browser that
 * started the sign-in; the state is taken once in the database (a replayed callback fails); the
 * code exchange checks state, PKCE, nonce, issuer, audience and signature (`openid-client`).
 * Every failure after the flow was found keeps its step with `step.error` and logs why.
 */
export async function ssoCallback(runtime: FlowRuntime, query: Record<string, string>, binding: string | undefined, ctx: RequestContext): Promise<CallbackAnswer> {
  const dot = binding?.indexOf('.') ?? -1;
  if (binding === undefined || dot <= 0) throw unusable('no _zsso cookie');
  const run = await runtime.open(binding.slice(0, dot), ctx).catch((error: unknown) => {
    throw error instanceof AppError && error.code === 'flow.not_found' ? unusable('the flow _zsso names is not in this browser') : error;
  });
  const pending = run.frame.so;
  if (!pending || !constantTimeEqual(sha256Hex(binding.slice(dot + 1)), pending.b)) throw unusable('the _zsso cookie does not match the flow');
  run.frame.so = undefined;
  const stepCtx = await runtime.contextOf(run);
  const fail = async (error: string, reason: string): Promise<CallbackAnswer> => {
    ctx.log?.('sso sign-in failed', { flow_id: run.frame.id, provider_id: pending.p, reason });
    run.frame.er = error;
    run.frame.si = undefined;
    return { location: backTo(pending, run.frame.id), cookie: await runtime.persist(run) };
  };

  const { deps, projectId } = run;
  if (query.state !== pending.st) return fail('error.sso_failed', 'state does not match');
  if (!(await deps.sso.links.takeState(projectId, sha256Hex(pending.st), new Date(pending.x)))) return fail('error.sso_failed', 'state replayed');
  if (pending.x <= deps.clock.now().getTime()) return fail('error.sso_failed', 'the sign-in took too long');
  if (query.error !== undefined) return fail('error.sso_failed', `upstream error: ${query.error.slice(0, 100)}`);
  const provider = await deps.sso.providers.enabledProvider(projectId, pending.p);
  if (!provider) return fail('error.sso_failed', 'the provider was removed or disabled');
  const url = new URL(callbackUrl(stepCtx));
  for (const [name, value] of Object.entries(query)) url.searchParams.set(name, value);
  let outcome;
  try {
    const profile = await deps.sso.upstream.profile(provider, url, { state: pending.st, nonce: pending.n, codeVerifier: pending.v });
    outcome = await decide(stepCtx, provider, profile);
  } catch (error) {
    if (error instanceof UpstreamFailure) return fail('error.sso_failed', error.reason);
    throw error;
  }
  if ('error' in outcome) return fail(outcome.error, outcome.reason);
  const result = await runtime.resume(run, outcome.trigger);
  return { location: backTo(pending, result.body.id), cookie: result.cookie };
}
