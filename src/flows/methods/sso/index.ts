import { invalidAction, validationFailed } from '../../errors.js';
import { FLOW_TTL_MS } from '../../state.js';
import type { AuthMethod, StepHook } from '../declaration.js';
import { ssoDefaults } from './defaults.js';
import { ssoMarkup } from './ui.js';
import { ssoStepExtensions, ssoStepProperties, ssoSubmitMembers } from './view.js';
import { provenWithin } from '../proof.js';
import { emailProperty, linkEnrollment, linkWaitingIdentity, ssoFactor, writeLink } from './identity.js';
import { resumeSso, SSO_RETURN } from './callback.js';
import { startSso } from './start.js';
import { ssoState } from './state.js';
import { ssoTexts } from './texts.js';
import { createSsoServices } from './services.js';

/**
 * `link_sso` (on the step `link_account` leads to): links the upstream identity that returned
 * unlinked to the user it matched, once that user proved the account in this flow (the step's
 * own fields, e.g. the password, are verified first). Never links without such a proof.
 */
const linkSso: StepHook = {
  name: 'link_sso',
  async run(ctx) {
    const state = ssoState(ctx);
    const identity = state.identity();
    const userId = ctx.userId;
    if (identity === undefined || userId === undefined) throw invalidAction(ctx.flowId, 'link_sso', 'No upstream sign-in waits to be linked.');
    const proven = await provenWithin(ctx, userId, FLOW_TTL_MS, undefined, true);
    if (!proven) throw invalidAction(ctx.flowId, 'link_sso', 'Prove the existing account first.');
    const written = await writeLink(ctx, identity, userId);
    if (written.userId !== userId) throw validationFailed(ctx.flowId, { sso: 'error.sso_account_exists' }, 'This sign-in is linked to another account.');
    state.hold(undefined);
    await ctx.prove(ssoFactor(identity), userId);
    return undefined;
  },
};

/**
 * Upstream SSO (DESIGN §4.14): no step field; steps list `sso_providers`, an action of kind `sso`
 * sends the browser upstream, and `GET /flow/sso/callback` brings it back (`resume`, served by the engine) with an outcome:
 * `callback` (signed in or linked), `link_account` or `user_not_found`.
 */
export const ssoMethod: AuthMethod = {
  createServices: createSsoServices,
  name: 'sso',
  defaults: ssoDefaults,
  texts: ssoTexts,
  ui: ssoMarkup,
  stepExtensions: ssoStepExtensions,
  submitMembers: ssoSubmitMembers,
  stepProperties: ssoStepProperties,
  needsSchemaKey: true,
  // Upstream says nothing we can check about how the user proved it: AAL1 only, and no `amr`.
  factors: { sso: { kind: () => 'other' } },
  actionKinds: ['sso'],
  outcomes: ['callback', 'link_account'],
  hooks: [linkSso],
  afterVerified: linkWaitingIdentity,

  stepIssues(step) {
    const listed = (step.sso_providers?.length ?? 0) > 0;
    const acts = (step.actions ?? []).some((action) => action.kind === 'sso');
    if (listed && !acts) return [{ field: 'actions', message: 'a step listing sso_providers needs an action of kind "sso"' }];
    if (acts && !listed) return [{ field: 'sso_providers', message: 'an action of kind "sso" needs sso_providers' }];
    if (acts && !step.transitions?.callback) return [{ field: 'transitions', message: 'a step with an "sso" action needs a "callback" transition' }];
    return [];
  },
  // The browser leaves for the provider; the callback's outcome carries the flow on.
  actionNeedsTransition: () => false,

  act: (ctx, _action, input) => startSso(ctx, input),

  upstreamReturn: SSO_RETURN,
  resume: resumeSso,
  // Old cookies kept the upstream sign-in and the unlinked identity under frame keys of their own.
  legacyFrameKeys: ['so', 'si'],

  async pendingEnrollment(ctx) {
    const identity = ssoState(ctx).identity();
    if (identity === undefined) return undefined;
    const provider = await ctx.services.sso.providers.enabledProvider(ctx.projectId, identity.p);
    return linkEnrollment(ctx, identity, provider ? emailProperty(ctx, provider) : undefined);
  },

  rendersOn: (step) => (step.sso_providers?.length ?? 0) > 0,
  async render({ services, projectId, step }, view) {
    if (!step.sso_providers?.length) return;
    view.sso_providers = await services.sso.providers.summaries(projectId, step.sso_providers);
  },
};
