import { AppError } from '../../../core/errors.js';
import { self } from '../../../events/types.js';
import type { UpstreamProfile } from '../../../sso/upstream.js';
import type { OpenedProvider } from '../../../sso/upstream.js';
import type { Enrollment, MethodContext, ProvenFactor } from '../method.js';
import { ssoState, type PendingIdentity } from './state.js';
import { ssoServices } from './services.js';

/** The factor an upstream sign-in proves (DESIGN §4.9 table). */
export const ssoFactor = (identity: PendingIdentity): ProvenFactor => ({ method: 'sso', payload: { provider_id: identity.p, subject: identity.s } });

/** The schema properties the provider's claim mapping yields, as strings (what a flow collects). */
export function mappedValues(ctx: MethodContext, provider: OpenedProvider, profile: UpstreamProfile): Record<string, string> {
  const values: Record<string, string> = {};
  for (const [property, claim] of Object.entries(provider.claims)) {
    const value = profile.claims[claim];
    if (!ctx.schema.fields.has(property)) continue;
    if (typeof value === 'string' && value.length > 0 && value.length <= 1024) values[property] = value;
    else if (typeof value === 'number' || typeof value === 'boolean') values[property] = String(value);
  }
  // An e-mail the provider did not verify still fills the property (to prefill a registration
  // step): it never links, and a user keeping it is linked only once a code proved it.
  return values;
}

/** The schema identifier the upstream e-mail fills (the property mapped from the `email` claim). */
export function emailProperty(ctx: MethodContext, provider: OpenedProvider): string | undefined {
  return Object.entries(provider.claims).find(([property, claim]) => claim === 'email' && ctx.schema.identifiers.includes(property))?.[0];
}

/**
 * Links the identity to `userId` and its `credentials` row in one statement, with the event
 * `sso.linked`, inside `trx` when given (else in a transaction of their own). A link that exists
 * already (for anyone) is not replaced: `userId` of the link is answered, and nothing is logged.
 */
export async function writeLink(ctx: MethodContext, identity: PendingIdentity, userId: string, trx?: Parameters<Enrollment['write']>[0]): Promise<{ inserted: boolean; userId: string }> {
  const { services, projectId } = ctx;
  const credentialId = services.ids.next('cred');
  const write = async (tx: Parameters<Enrollment['write']>[0]) => {
    const written = await ssoServices(ctx).links.insert({ projectId, providerId: identity.p, subject: identity.s, userId, credentialId, name: identity.n, at: services.clock.now() }, tx);
    if (written.inserted) await services.events.record(tx, { type: 'sso.linked', projectId, actor: self(userId), subjectId: userId, data: { provider_id: identity.p, credential_id: credentialId } });
    return written;
  };
  return trx ? write(trx) : services.events.transaction(write);
}

/** Whether the address a new user keeps is the one the provider verified (none kept claims nothing). */
function provenByProvider(kept: string | undefined, identity: PendingIdentity): boolean {
  return kept === undefined || (identity.e !== undefined && kept.toLowerCase() === identity.e.toLowerCase());
}

/**
 * The link of an identity a new user is created with (`create_user` after `user_not_found`, or just
 * in time). A user keeping an address the provider did not verify is created without it (DESIGN
 * §4.14): the link and its `sso` factor wait until a code proves the address (`linkWaitingIdentity`),
 * else an upstream account could sit on someone's address and outlive its owner's recovery.
 */
export function linkEnrollment(ctx: MethodContext, identity: PendingIdentity, property: string | undefined): Enrollment {
  const state = ssoState(ctx);
  if (property !== undefined && !provenByProvider(ctx.collected(property), identity)) {
    return {
      write: async () => undefined,
      async done() {
        state.hold({ ...identity, w: property });
      },
    };
  }
  return {
    async write(trx, user) {
      const written = await writeLink(ctx, identity, user.id, trx);
      // Someone else was linked meanwhile: the user is not created (the caller signs that one in).
      if (!written.inserted) throw new AppError('user.already_exists', 'The identity was linked meanwhile.', { linked_user_id: written.userId });
    },
    factor: ssoFactor(identity),
    async done(userId) {
      state.hold(undefined);
      // The address the provider verified counts as verified here too, when the user kept it.
      if (property !== undefined && identity.e !== undefined && ctx.collected(property) !== undefined) {
        await ctx.services.users.markVerified(ctx.projectId, userId, property);
      }
    },
  };
}

/**
 * After a code proved `field` of the user this flow created: the identity that waited for that
 * proof (`linkEnrollment`) is linked, and its `sso` factor recorded.
 */
export async function linkWaitingIdentity(ctx: MethodContext, userId: string, field: string): Promise<void> {
  const state = ssoState(ctx);
  const identity = state.identity();
  if (identity?.w === undefined || identity.w !== field || ctx.createdUser !== userId) return;
  const { w: _proven, ...waiting } = identity;
  const written = await writeLink(ctx, waiting, userId);
  state.hold(undefined);
  if (written.userId === userId) await ctx.prove(ssoFactor(waiting), userId);
}
