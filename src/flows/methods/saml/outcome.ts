import { AppError } from '../../../core/errors.js';
import type { OpenedSamlProvider } from '../../../saml/service.js';
import { provenWithin, RECENT_SIGN_IN_MS } from '../proof.js';
import type { MethodContext } from '../method.js';
import { emailProperty, linkEnrollment, mappedValues, samlFactor, writeLink } from './identity.js';
import { samlServices } from './services.js';
import { samlState, type PendingIdentity } from './state.js';
import type { VerifiedAssertion } from './verify.js';

export type SamlOutcome = { trigger: string } | { error: string; reason: string };

const failed = (reason: string): SamlOutcome => ({ error: 'error.sso_failed', reason });
const accountExists = (reason: string): SamlOutcome => ({ error: 'error.sso_account_exists', reason });

async function signIn(ctx: MethodContext, identity: PendingIdentity, link: { userId: string; credentialId?: string }): Promise<SamlOutcome> {
  const links = samlServices(ctx).links;
  ctx.identify(link.userId);
  samlState(ctx).hold(undefined);
  await ctx.prove(samlFactor(identity), link.userId);
  const credentialId = link.credentialId ?? (await links.find(ctx.projectId, identity.p, identity.s))?.credentialId;
  if (credentialId !== undefined) await links.touch(credentialId, ctx.services.clock.now());
  return { trigger: 'callback' };
}

/**
 * What a verified assertion does to the flow: the rules of SSO (DESIGN §4.14), with one
 * difference (§4.20): an assertion's e-mail counts as verified only where the operator set
 * `link: "verified_email"`. So: settings link to the signed-in user; a linked NameID signs its user
 * in; a trusted e-mail of an existing user links at once when that user verified it too, else
 * `link_account` or `error.sso_account_exists`; an untrusted e-mail never links or creates a user
 * holding it (`user_not_found`, else `error.sso_email_unverified`); an unknown identity follows
 * `user_not_found` or is created just in time from the mapped attributes.
 */
export async function decide(ctx: MethodContext, provider: OpenedSamlProvider, assertion: VerifiedAssertion): Promise<SamlOutcome> {
  const { projectId, step } = ctx;
  const links = samlServices(ctx).links;
  const state = samlState(ctx);
  const property = emailProperty(ctx);
  const values = mappedValues(ctx, provider, assertion);
  const email = property !== undefined ? values[property] : undefined;
  const trusted = provider.link === 'verified_email' ? email : undefined;
  const identity: PendingIdentity = { p: provider.id, s: assertion.nameId, ...(trusted !== undefined ? { e: trusted } : {}), n: `${provider.name} (${email ?? assertion.nameId})`.slice(0, 200) };
  const link = await links.find(projectId, provider.id, assertion.nameId);

  if (ctx.boundUser !== undefined) {
    const userId = await ctx.signedIn();
    if (userId === undefined) return failed('settings: the session is no longer signed in');
    if (!(await provenWithin(ctx, userId, RECENT_SIGN_IN_MS))) return failed('settings: the last sign-in is older than 15 minutes');
    if (link && link.userId !== userId) return accountExists('settings: the identity is linked to another user');
    if (!link && (await writeLink(ctx, identity, userId)).userId !== userId) return accountExists('settings: the identity was linked to another user meanwhile');
    return { trigger: 'callback' };
  }
  if (link) return signIn(ctx, identity, link);

  if (trusted !== undefined && property !== undefined) {
    const user = await ctx.services.users.findByIdentifier(projectId, ctx.schema.id, trusted);
    if (user) {
      const linkedMeanwhile = await links.find(projectId, provider.id, assertion.nameId);
      if (linkedMeanwhile) return signIn(ctx, identity, linkedMeanwhile);
      if (user.metadata.verified?.[property] !== undefined) return signIn(ctx, identity, { userId: (await writeLink(ctx, identity, user.id)).userId });
      if (!step.transitions?.link_saml) return accountExists('the e-mail belongs to an unlinked user and the step has no link_saml');
      ctx.identify(user.id);
      ctx.collect(new Map([[property, trusted]]));
      state.hold(identity);
      return { trigger: 'link_saml' };
    }
  }

  const untrusted = email !== undefined && trusted === undefined;
  if (untrusted && !step.transitions?.user_not_found) return { error: 'error.sso_email_unverified', reason: 'the provider is not trusted for e-mail addresses (link: none)' };
  ctx.collect(new Map(Object.entries(values)));
  state.hold(identity);
  ctx.identify(undefined);
  if (step.transitions?.user_not_found) return { trigger: 'user_not_found' };
  try {
    await ctx.createUser([linkEnrollment(ctx, identity, property)], 'throw');
    return { trigger: 'callback' };
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    if (error.code === 'user.invalid') return failed('the mapped attributes do not satisfy the user schema');
    if (error.code !== 'user.already_exists') throw error;
    const winner = await links.find(projectId, provider.id, assertion.nameId);
    if (winner) return signIn(ctx, identity, winner);
    return accountExists('an account holds the mapped identifier and the identity is not linked');
  }
}
