import { Type } from 'typebox';

/*
 * What SSO adds to the API's shapes (DESIGN §4.14): a step definition's `sso_providers` (ids), the
 * rendered step's `sso_providers` (summaries), and the submit body's `sso_provider_id` and
 * `return_to`. The module augmentations give the TypeScript types the same members.
 */

/** An upstream identity provider a rendered step offers. */
export interface SsoProviderView {
  id: string;
  name: string;
  template: string;
}

declare module '../../view.js' {
  interface StepView {
    /** the upstream identity providers the step offers (DESIGN §4.14) */
    sso_providers?: SsoProviderView[];
  }
  interface SubmitInput {
    /** `sso` actions: the provider to sign in with, one of `step.sso_providers` */
    sso_provider_id?: string;
    /** `sso` actions: where the browser returns after the upstream sign-in (the request's allowed origin) */
    return_to?: string;
  }
}

declare module '../../definitions/types.js' {
  interface FlowStepDef {
    /** Upstream identity providers (their ids, or `*` for every enabled one) the step offers; an action of kind `sso` starts one (DESIGN §4.14). */
    sso_providers?: string[];
  }
}

export const ssoStepExtensions = {
  // the step's last property (runtime/schemas.ts places): where clients have seen it
  sso_providers: { at: 140, schema: Type.Optional(Type.Array(Type.Object({ id: Type.String(), name: Type.String(), template: Type.String() }, { additionalProperties: true }))) },
};

export const ssoSubmitMembers = {
  sso_provider_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: '`sso` actions: one of step.sso_providers' })),
  return_to: Type.Optional(Type.String({ minLength: 1, maxLength: 2048, description: '`sso` actions: where the browser returns (with ?flow=<id>) after the upstream sign-in; on the request\'s allowed origin' })),
};

export const ssoStepProperties = {
  sso_providers: Type.Optional(Type.Array(Type.String({ pattern: '^([a-z][a-z0-9-]{0,63}|\\*)$' }), { maxItems: 20, uniqueItems: true, description: 'Upstream identity providers the step offers: ids, or `*` for every enabled one' })),
};
