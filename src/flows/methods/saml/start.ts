import { randomBytes } from 'node:crypto';
import { sha256Hex } from '../../../core/crypto.js';
import { ownOriginsOf } from '../../../core/public-url.js';
import { validationFailed } from '../../errors.js';
import type { MethodContext } from '../method.js';
import { samlServices } from './services.js';
import { samlState } from './state.js';
import { samlClient } from './verify.js';

/** The cookie that binds a SAML sign-in to the browser that started it (as `_zsso` does for SSO, DESIGN §4.14). */
export const SAML_COOKIE = '_zsaml';
/** How long a SAML sign-in may take. */
export const SAML_TTL_MS = 10 * 60 * 1000;

/** `return_to`, when it is an http(s) URL without credentials on an origin the request may use; else why not. */
export async function returnToProblem(ctx: MethodContext, returnTo: string | undefined): Promise<string | undefined> {
  if (returnTo === undefined) return 'error.required';
  let url: URL;
  try {
    url = new URL(returnTo);
  } catch {
    return 'error.invalid';
  }
  if ((url.protocol !== 'https:' && url.protocol !== 'http:') || url.username !== '' || url.password !== '' || returnTo.length > 2048) return 'error.invalid';
  const project = await ctx.services.projects.row(ctx.projectId);
  const allowed = new Set([...ownOriginsOf(ctx.services.publicUrl), ...(project?.preview_origins ?? []).map((o) => new URL(o).origin)]);
  const { origin } = ctx.request;
  if (origin !== undefined && origin !== url.origin) return 'error.invalid';
  return allowed.has(url.origin) ? undefined : 'error.invalid';
}

/**
 * Sends the browser to the IdP: an AuthnRequest over the HTTP-Redirect binding (node-saml), its
 * ID kept in the flow frame (the encrypted `_zflow`) for the ACS to check InResponseTo against,
 * and `_zsaml` = `<flow id>.<secret>` binding the answer to this browser. Answers false when the
 * provider cannot be used (unknown, disabled, unreadable metadata).
 */
export async function startSaml(ctx: MethodContext, providerId: string, returnTo: string): Promise<boolean> {
  const provider = await samlServices(ctx).providers.opened(ctx.projectId, providerId);
  if (!provider) return false;
  const requestId = `_${randomBytes(20).toString('hex')}`;
  const url = await (await samlClient(provider, requestId)).getAuthorizeUrlAsync('', undefined, {});
  const binding = randomBytes(32).toString('base64url');
  const state = samlState(ctx);
  state.hold(undefined);
  state.start({ p: provider.id, i: requestId, b: sha256Hex(binding), r: returnTo, x: ctx.services.clock.now().getTime() + SAML_TTL_MS });
  ctx.view.redirect(url);
  ctx.view.setCookie({ name: SAML_COOKIE, value: `${ctx.flowId}.${binding}`, maxAgeMs: SAML_TTL_MS });
  return true;
}

/** Starts a sign-in the user chose (an `sso` action naming a SAML provider): provider and `return_to` are checked first. */
export async function startChosen(ctx: MethodContext, fields: Record<string, unknown>, providerId: string, returnTo: string | undefined): Promise<void> {
  ctx.read(fields, { fields: [] });
  const problem = await returnToProblem(ctx, returnTo);
  if (problem) throw validationFailed(ctx.flowId, { return_to: problem }, 'The return address is not accepted.');
  if (!(await startSaml(ctx, providerId, returnTo!))) throw validationFailed(ctx.flowId, { sso_provider_id: 'error.invalid' }, 'The sign-in provider is not accepted.');
}
