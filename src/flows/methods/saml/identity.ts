import { AppError } from '../../../core/errors.js';
import { DEFAULT_ATTRIBUTES, EMAIL_NAMEID_FORMAT } from '../../../saml/attributes.js';
import type { OpenedSamlProvider } from '../../../saml/service.js';
import type { Enrollment, MethodContext, ProvenFactor } from '../method.js';
import { samlServices } from './services.js';
import { samlState, type PendingIdentity } from './state.js';
import type { VerifiedAssertion } from './verify.js';

/** The factor a SAML sign-in proves (DESIGN §4.20): AAL1 only. */
export const samlFactor = (identity: PendingIdentity): ProvenFactor => ({ method: 'saml', payload: { provider_id: identity.p, name_id: identity.s } });

/** An attribute's first value as a string. */
function valueOf(raw: unknown): string | undefined {
  const value = Array.isArray(raw) ? raw[0] : raw;
  if (typeof value === 'string' && value.length > 0 && value.length <= 1024) return value;
  return undefined;
}

/**
 * The schema properties an assertion fills: each property's attribute as the operator named it,
 * else the first of the common claim URIs the assertion holds; `email` falls back on a NameID of
 * the emailAddress format.
 */
export function mappedValues(ctx: MethodContext, provider: OpenedSamlProvider, assertion: VerifiedAssertion): Record<string, string> {
  const values: Record<string, string> = {};
  const properties = new Set([...Object.keys(DEFAULT_ATTRIBUTES), ...Object.keys(provider.attributes)]);
  for (const property of properties) {
    const field = ctx.schema.fields.get(property);
    if (field === undefined || (field.type !== undefined && field.type !== 'string')) continue;
    const names = provider.attributes[property] !== undefined ? [provider.attributes[property]] : DEFAULT_ATTRIBUTES[property] ?? [];
    const value = names.map((name) => valueOf(assertion.attributes[name])).find((found) => found !== undefined);
    if (value !== undefined) values[property] = value;
  }
  if (values.email === undefined && ctx.schema.fields.has('email') && assertion.nameIdFormat === EMAIL_NAMEID_FORMAT && /^[^@\s]+@[^@\s]+$/.test(assertion.nameId)) values.email = assertion.nameId;
  return values;
}

/** The schema identifier the assertion's e-mail fills. */
export function emailProperty(ctx: MethodContext): string | undefined {
  return ctx.schema.identifiers.includes('email') ? 'email' : undefined;
}

/** Links the identity to `userId` (inside `trx` when given); a link that exists already is not replaced. */
export async function writeLink(ctx: MethodContext, identity: PendingIdentity, userId: string, trx?: Parameters<Enrollment['write']>[0]): Promise<{ inserted: boolean; userId: string }> {
  const { services, projectId } = ctx;
  return samlServices(ctx).links.insert({ projectId, providerId: identity.p, nameId: identity.s, userId, credentialId: services.ids.next('cred'), name: identity.n, at: services.clock.now() }, trx);
}

const provenByProvider = (kept: string | undefined, identity: PendingIdentity) => kept === undefined || (identity.e !== undefined && kept.toLowerCase() === identity.e.toLowerCase());

/**
 * The link of an identity a new user is created with (just in time, or `create_user` after
 * `user_not_found`). A user keeping an address the IdP is not trusted for waits for a code to prove
 * it before the link is written (`linkWaitingIdentity`), as SSO does (DESIGN §4.14).
 */
export function linkEnrollment(ctx: MethodContext, identity: PendingIdentity, property: string | undefined): Enrollment {
  const state = samlState(ctx);
  if (property !== undefined && !provenByProvider(ctx.collected(property), identity)) {
    return { write: async () => undefined, done: async () => state.hold({ ...identity, w: property }) };
  }
  return {
    async write(trx, user) {
      const written = await writeLink(ctx, identity, user.id, trx);
      if (!written.inserted) throw new AppError('user.already_exists', 'The identity was linked meanwhile.', { linked_user_id: written.userId });
    },
    factor: samlFactor(identity),
    async done(userId) {
      state.hold(undefined);
      if (property !== undefined && identity.e !== undefined && ctx.collected(property) !== undefined) await ctx.services.users.markVerified(ctx.projectId, userId, property);
    },
  };
}

/** After a code proved `field` of the user this flow created: the identity that waited for it is linked. */
export async function linkWaitingIdentity(ctx: MethodContext, userId: string, field: string): Promise<void> {
  const state = samlState(ctx);
  const identity = state.identity();
  if (identity?.w === undefined || identity.w !== field || ctx.createdUser !== userId) return;
  const { w: _proven, ...waiting } = identity;
  const written = await writeLink(ctx, waiting, userId);
  state.hold(undefined);
  if (written.userId === userId) await ctx.prove(samlFactor(waiting), userId);
}
