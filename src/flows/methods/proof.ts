import { invalidAction } from '../errors.js';
import type { MethodContext } from './method.js';

/*
 * Proof of a recent sign-in, shared by every method with a settings step (DESIGN §4.13): the
 * password, TOTP, recovery codes, passkeys, SSO and the settings flow's own hooks. Port only.
 */

/** A settings change needs a factor of the user verified this recently; older: re-authenticate first. */
export const RECENT_SIGN_IN_MS = 15 * 60 * 1000;
/** Removing the last second factor needs a password verified in the flow itself this recently. */
export const FRESH_PASSWORD_MS = 5 * 60 * 1000;

/**
 * Whether a factor of the user (of `method`, if given) was verified within `windowMs` of now, in
 * the session or this flow (`flowOnly`: in this flow, as a fresh confirmation must be).
 */
export async function provenWithin(ctx: MethodContext, userId: string, windowMs: number, method?: string, flowOnly = false): Promise<boolean> {
  const now = ctx.services.clock.now().getTime();
  const factors = await ctx.factors(userId, { flowOnly });
  return factors.some((factor) => (method === undefined || factor.method === method) && now - Date.parse(factor.verified_at) < windowMs);
}

/**
 * The settings user, when they signed in within the last 15 minutes (in the session or in this
 * flow); otherwise the change is refused (400 `flow.invalid_action`) and the flow must
 * re-authenticate first.
 */
export async function recentlyProvenUser(ctx: MethodContext, action: string): Promise<string> {
  const userId = await ctx.signedIn();
  if (userId === undefined) throw invalidAction(ctx.flowId, action, 'Only a signed-in session can change its credentials.');
  if (!(await provenWithin(ctx, userId, RECENT_SIGN_IN_MS))) throw invalidAction(ctx.flowId, action, 'Sign in again first: the last sign-in is older than 15 minutes.');
  return userId;
}
