import { randomBytes } from 'node:crypto';
import { sha256Hex } from '../../../core/crypto.js';
import { ownOriginsOf } from '../../../core/public-url.js';
import { ALL_PROVIDERS, SSO_CALLBACK_PATH } from '../../../sso/service.js';
import { newCallbackChecks, UpstreamFailure } from '../../../sso/upstream.js';
import { validationFailed } from '../../errors.js';
import type { SubmitInput } from '../../view.js';
import type { MethodContext } from '../method.js';
import type { ActionAnswer } from '../declaration.js';
import { ssoState } from './state.js';
import { ssoServices } from './services.js';

/** The cookie that binds an upstream sign-in to the browser that started it (DESIGN §4.14). */
export const SSO_COOKIE = '_zsso';
/** How long an upstream sign-in may take. */
export const SSO_TTL_MS = 10 * 60 * 1000;

/** The callback URL registered upstream: on the public URL, never on the Host a request names. */
export function callbackUrl(ctx: MethodContext): string {
  return `${ctx.services.publicUrl}${SSO_CALLBACK_PATH}`;
}

/** `return_to`, when it is an http(s) URL without credentials on an origin the request may use; else why not. */
async function returnToProblem(ctx: MethodContext, returnTo: string | undefined): Promise<string | undefined> {
  if (returnTo === undefined) return 'error.required';
  let url: URL;
  try {
    url = new URL(returnTo);
  } catch {
    return 'error.invalid';
  }
  if ((url.protocol !== 'https:' && url.protocol !== 'http:') || url.username !== '' || url.password !== '' || returnTo.length > 2048) return 'error.invalid';
  const { services } = ctx;
  const project = await services.projects.row(ctx.projectId);
  const allowed = new Set([...ownOriginsOf(services.publicUrl), ...(project?.preview_origins ?? []).map((o) => new URL(o).origin)]);
  // The browser returns to the site that asked: an Origin that was sent must be the target's too.
  const { origin } = ctx.request;
  if (origin !== undefined && origin !== url.origin) return 'error.invalid';
  return allowed.has(url.origin) ? undefined : 'error.invalid';
}

/**
 * An `sso` action: checks the provider and `return_to`, then answers the same step with
 * `redirect_uri` = the upstream authorization URL (code flow, PKCE S256, state, nonce). The
 * checks wait in the flow frame; `_zsso` holds the flow id and a binding secret whose hash the
 * frame keeps, so only this browser can finish the sign-in.
 */
export async function startSso(ctx: MethodContext, input: SubmitInput): Promise<ActionAnswer> {
  const { services, step } = ctx;
  ctx.read(input.fields, { fields: [] });
  const providerId = input.sso_provider_id;
  const listed = step.sso_providers ?? [];
  const offered = providerId !== undefined && (listed.includes(providerId) || listed.includes(ALL_PROVIDERS));
  const provider = offered ? await services.sso.providers.enabledProvider(ctx.projectId, providerId) : undefined;
  const problems: Record<string, string> = {};
  if (!provider) problems.sso_provider_id = providerId === undefined ? 'error.required' : 'error.invalid';
  const returnProblem = await returnToProblem(ctx, input.return_to);
  if (returnProblem) problems.return_to = returnProblem;
  if (!provider || Object.keys(problems).length > 0) throw validationFailed(ctx.flowId, problems, 'The sign-in provider or return address is not accepted.');
  const checks = await newCallbackChecks();
  let url: string;
  try {
    url = await ssoServices(ctx).upstream.authorizationUrl(provider, callbackUrl(ctx), checks);
  } catch (error) {
    if (!(error instanceof UpstreamFailure)) throw error;
    ctx.request.log?.('sso provider unreachable', { provider_id: provider.id, reason: error.reason });
    throw validationFailed(ctx.flowId, { sso_provider_id: 'error.sso_failed' }, 'The sign-in provider cannot be reached; try again later.');
  }
  const binding = randomBytes(32).toString('base64url');
  const state = ssoState(ctx);
  state.hold(undefined);
  state.start({ p: provider.id, st: checks.state, n: checks.nonce, v: checks.codeVerifier, b: sha256Hex(binding), r: input.return_to!, x: services.clock.now().getTime() + SSO_TTL_MS });
  ctx.view.redirect(url);
  ctx.view.setCookie({ name: SSO_COOKIE, value: `${ctx.flowId}.${binding}`, maxAgeMs: SSO_TTL_MS });
  return { stay: true };
}
