import { invalidAction, validationFailed } from '../../errors.js';
import { FLOW_TTL_MS } from '../../state.js';
import type { AuthMethod, StepHook } from '../declaration.js';
import { provenWithin } from '../proof.js';
import { resumeSaml, SAML_RETURN } from './acs.js';
import { samlDefaults } from './defaults.js';
import { screenHomeRealm } from './hrd.js';
import { emailProperty, linkEnrollment, linkWaitingIdentity, samlFactor, writeLink } from './identity.js';
import { createSamlServices, samlServices } from './services.js';
import { startChosen } from './start.js';
import { samlState } from './state.js';
import { samlTexts } from './texts.js';

/** `link_saml`: links the identity that returned unlinked to the user it matched, once that user proved the account in this flow. */
const linkSaml: StepHook = {
  name: 'link_saml',
  async run(ctx) {
    const state = samlState(ctx);
    const identity = state.identity();
    const userId = ctx.userId;
    if (identity === undefined || userId === undefined) throw invalidAction(ctx.flowId, 'link_saml', 'No SAML sign-in waits to be linked.');
    if (!(await provenWithin(ctx, userId, FLOW_TTL_MS, undefined, true))) throw invalidAction(ctx.flowId, 'link_saml', 'Prove the existing account first.');
    const written = await writeLink(ctx, identity, userId);
    if (written.userId !== userId) throw validationFailed(ctx.flowId, { sso: 'error.sso_account_exists' }, 'This sign-in is linked to another account.');
    state.hold(undefined);
    await ctx.prove(samlFactor(identity), userId);
    return undefined;
  },
};

/**
 * SAML 2.0 sign-in (DESIGN §4.20): a method on the seam used like SSO. Its providers are listed in
 * a step's `sso_providers` beside SSO's (`render`), an `sso` action naming one is this method's
 * (`claimsAction`), the browser leaves with an AuthnRequest (HTTP-Redirect) and comes back to
 * `POST /flow/saml/acs` (`resume`, served by the engine). Outcomes follow SSO's rules; the factor
 * is `saml` with `provider_id` and `name_id`, AAL1 only. Home-realm discovery screens the
 * identifier and password steps (`screen`).
 */
export const samlMethod: AuthMethod = {
  name: 'saml',
  createServices: createSamlServices,
  needsSchemaKey: true,
  texts: samlTexts,
  defaults: samlDefaults,
  // The IdP says nothing we can check about how the user proved it: AAL1 only, and no `amr`.
  factors: { saml: { kind: () => 'other' } },
  outcomes: ['link_saml'],
  hooks: [linkSaml],
  afterVerified: linkWaitingIdentity,
  upstreamReturn: SAML_RETURN,
  resume: resumeSaml,
  screen: screenHomeRealm,

  async claimsAction(ctx, action, input) {
    const id = input.sso_provider_id;
    if (action.kind !== 'sso' || id === undefined || !ctx.schema.methods.has('saml')) return false;
    const listed = ctx.step.sso_providers ?? [];
    if (!listed.includes(id) && !listed.includes('*')) return false;
    return (await samlServices(ctx).providers.summaries(ctx.projectId, [id])).length > 0;
  },
  async act(ctx, _action, input) {
    await startChosen(ctx, input.fields, input.sso_provider_id!, input.return_to);
    return { stay: true };
  },

  async pendingEnrollment(ctx) {
    const identity = samlState(ctx).identity();
    return identity === undefined ? undefined : linkEnrollment(ctx, identity, emailProperty(ctx));
  },

  rendersOn: (step) => (step.sso_providers?.length ?? 0) > 0,
  async render(ctx, view) {
    const listed = ctx.step.sso_providers;
    if (!listed?.length || !ctx.schema.methods.has('saml')) return;
    const providers = await samlServices(ctx).providers.summaries(ctx.projectId, listed);
    if (providers.length > 0) view.sso_providers = [...(view.sso_providers ?? []), ...providers];
  },
};
