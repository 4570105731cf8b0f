import { AppError } from '../../../core/errors.js';
import type { OpenedProvider, UpstreamProfile } from '../../../sso/upstream.js';
import { provenWithin, RECENT_SIGN_IN_MS } from '../proof.js';
import type { MethodContext } from '../method.js';
import { ssoState, type PendingIdentity } from './state.js';
import { emailProperty, linkEnrollment, mappedValues, ssoFactor, writeLink } from './identity.js';
import { ssoServices } from './services.js';

/** Where an upstream sign-in leads: a transition to follow, or a text key for `step.error` and why (for the log). */
export type SsoOutcome = { trigger: string } | { error: string; reason: string };

const failed = (reason: string): SsoOutcome => ({ error: 'error.sso_failed', reason });
const accountExists = (reason: string): SsoOutcome => ({ error: 'error.sso_account_exists', reason });

/** Signs the linked user in: the `sso` factor, and the link's last use. */
async function signIn(ctx: MethodContext, identity: PendingIdentity, link: { userId: string; credentialId?: string }): Promise<SsoOutcome> {
  const { services } = ctx;
  ctx.identify(link.userId);
  ssoState(ctx).hold(undefined);
  await ctx.prove(ssoFactor(identity), link.userId);
  const credentialId = link.credentialId ?? (await ssoServices(ctx).links.find(ctx.projectId, { providerId: identity.p, subject: identity.s }))?.credentialId;
  if (credentialId !== undefined) await ssoServices(ctx).links.touch(credentialId, services.clock.now());
  return { trigger: 'callback' };
}

/**
 * What a proven upstream identity does to the flow (DESIGN §4.14), in this order:
 * 1. a settings flow links it to the signed-in user (unless it is someone else's);
 * 2. an identity linked before signs its user in;
 * 3. an e-mail the provider verified that belongs to a user is never linked silently: the
 *    operator's `link: "verified_email"` links it when the user verified it too, else the flow
 *    follows `link_account` (the user proves the account, then `link_sso`), else it fails;
 * 4. an address the provider did not verify is never trusted (account pre-hijacking): it matches
 *    nobody, offers no `link_account`, and creates no user holding it; the flow follows
 *    `user_not_found` (where a code must prove it before the identity links), else the step shows
 *    `error.sso_email_unverified`, whether or not an account holds the address;
 * 5. an unknown identity follows `user_not_found` with the mapped claims collected, else a user is
 *    created from them and linked.
 */
export async function decide(ctx: MethodContext, provider: OpenedProvider, profile: UpstreamProfile): Promise<SsoOutcome> {
  const { services: deps, projectId, step } = ctx;
  const state = ssoState(ctx);
  const property = emailProperty(ctx, provider);
  const verifiedEmail = profile.emailVerified ? profile.email : undefined;
  const identity: PendingIdentity = {
    p: provider.id,
    s: profile.subject,
    ...(verifiedEmail !== undefined ? { e: verifiedEmail } : {}),
    n: `${provider.name}${profile.email ? ` (${profile.email})` : ''}`.slice(0, 200),
  };
  const link = await ssoServices(ctx).links.find(projectId, { providerId: provider.id, subject: profile.subject });

  if (ctx.boundUser !== undefined) {
    const userId = await ctx.signedIn();
    if (userId === undefined) return failed('settings: the session is no longer signed in');
    if (!(await provenWithin(ctx, userId, RECENT_SIGN_IN_MS))) return failed('settings: the last sign-in is older than 15 minutes');
    if (link && link.userId !== userId) return accountExists('settings: the identity is linked to another user');
    if (!link && (await writeLink(ctx, identity, userId)).userId !== userId) return accountExists('settings: the identity was linked to another user meanwhile');
    return { trigger: 'callback' };
  }
  if (link) return signIn(ctx, identity, link);

  if (verifiedEmail !== undefined && property !== undefined) {
    const user = await deps.users.findByIdentifier(projectId, ctx.schema.id, verifiedEmail);
    if (user) {
      // A concurrent first sign-in of this identity may have created that user since the read
      // above: its link commits with it, so this read sees it, and the identity signs in.
      const linkedMeanwhile = await ssoServices(ctx).links.find(projectId, { providerId: provider.id, subject: profile.subject });
      if (linkedMeanwhile) return signIn(ctx, identity, linkedMeanwhile);
      if (provider.link === 'verified_email' && user.metadata.verified?.[property] !== undefined) {
        const written = await writeLink(ctx, identity, user.id);
        return signIn(ctx, identity, { userId: written.userId });
      }
      if (!step.transitions?.link_account) return accountExists('the verified e-mail belongs to an unlinked user and the step has no link_account');
      ctx.identify(user.id);
      ctx.collect(new Map([[property, verifiedEmail]]));
      state.hold(identity);
      return { trigger: 'link_account' };
    }
  }

  const unverified = property !== undefined && profile.email !== undefined && verifiedEmail === undefined;
  if (unverified && !step.transitions?.user_not_found) return { error: 'error.sso_email_unverified', reason: 'the provider did not verify the e-mail address' };
  ctx.collect(new Map(Object.entries(mappedValues(ctx, provider, profile))));
  state.hold(identity);
  ctx.identify(undefined);
  if (step.transitions?.user_not_found) return { trigger: 'user_not_found' };
  return createLinkedUser(ctx, identity, property);
}

/**
 * Just-in-time: the user from the mapped claims and its link, in one transaction (`createUser`,
 * with the link as the one enrollment, its refusals thrown). A taken identifier is a race won by the same identity
 * (its user signs in) or another account's address.
 */
async function createLinkedUser(ctx: MethodContext, identity: PendingIdentity, property: string | undefined): Promise<SsoOutcome> {
  try {
    await ctx.createUser([linkEnrollment(ctx, identity, property)], 'throw');
    return { trigger: 'callback' };
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    if (error.code === 'user.invalid') return failed('the mapped claims do not satisfy the user schema');
    if (error.code !== 'user.already_exists') throw error;
    const winner = await ssoServices(ctx).links.find(ctx.projectId, { providerId: identity.p, subject: identity.s });
    if (winner) return signIn(ctx, identity, winner);
    return accountExists('an account holds the mapped identifier and the identity is not linked');
  }
}
