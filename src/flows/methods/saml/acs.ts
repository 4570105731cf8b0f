import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { Type } from 'typebox';
import { digestsEqual, sha256Hex } from '../../../core/crypto.js';
import { AppError } from '../../../core/errors.js';
import { SAML_ACS_PATH } from '../../../saml/service.js';
import type { UpstreamAnswer, UpstreamReturn } from '../declaration.js';
import type { MethodContext } from '../method.js';
import { decide } from './outcome.js';
import { samlServices } from './services.js';
import { SAML_COOKIE } from './start.js';
import { samlState, type SamlState } from './state.js';
import { SamlRefusal, verifyResponse } from './verify.js';

/** The largest response accepted (posted, and inflated from the packed GET form). */
const MAX_RESPONSE_BYTES = 256 * 1024;

/**
 * The HTTP-POST binding's form (`SAMLResponse`, `RelayState`), and `z`: the response packed by the
 * POST (raw DEFLATE, base64url) for the 303 to the GET, where the SameSite=Lax binding cookie is sent.
 */
const AcsParams = Type.Object(
  {
    SAMLResponse: Type.Optional(Type.String({ maxLength: MAX_RESPONSE_BYTES * 2 })),
    RelayState: Type.Optional(Type.String({ maxLength: 512 })),
    z: Type.Optional(Type.String({ maxLength: 64 * 1024 })),
  },
  { additionalProperties: false },
);

/**
 * `POST /flow/saml/acs` (DESIGN §4.20), served by the engine: the POST packs the response and
 * answers 303 to the GET (a cross-site POST carries no SameSite=Lax cookie; the top-level GET it
 * becomes does), where `_zsaml` names the flow and proves the browser that started the sign-in.
 */
export const SAML_RETURN: UpstreamReturn = {
  path: SAML_ACS_PATH,
  params: AcsParams,
  bindingCookie: SAML_COOKIE,
  summaries: {
    get: 'The SAML ACS, second leg: the packed response with the browser\'s _zsaml (sets _zflow, clears _zsaml, 303 to return_to?flow=<id>)',
    post: 'The SAML Assertion Consumer Service (HTTP-POST binding): 303 to the GET form with the response packed',
  },
  maxPostBytes: MAX_RESPONSE_BYTES * 2,
  unusable: (reason) => new AppError('flow.sso_failed', 'This sign-in cannot be completed in this browser; start it again.', { reason }),
  binds(slot, secret) {
    const pending = (slot as SamlState | undefined)?.so;
    return pending !== undefined && digestsEqual(sha256Hex(secret), pending.b);
  },
  fromPost(form) {
    const response = Buffer.from(form.SAMLResponse ?? '', 'base64');
    return { z: deflateRawSync(response).toString('base64url'), ...(form.RelayState !== undefined ? { RelayState: form.RelayState } : {}) };
  },
};

/** The response as base64 (what node-saml reads), from the packed form or as posted. */
function responseOf(params: Record<string, string>): string | undefined {
  if (params.z !== undefined) {
    try {
      return inflateRawSync(Buffer.from(params.z, 'base64url'), { maxOutputLength: MAX_RESPONSE_BYTES }).toString('base64');
    } catch {
      return undefined;
    }
  }
  return params.SAMLResponse;
}

/**
 * The ACS for a flow whose binding secret held: the pending request is used up first (one answer
 * per AuthnRequest), the response verified strictly (`verifyResponse`), its assertion id taken
 * once in the database, then the outcome decided. Every failure keeps the step with `step.error`
 * and is logged with why.
 */
export async function resumeSaml(ctx: MethodContext, params: Record<string, string>, binding: string): Promise<UpstreamAnswer> {
  const state = samlState(ctx);
  const pending = state.started();
  if (!pending || !SAML_RETURN.binds({ so: pending }, binding)) throw SAML_RETURN.unusable('the _zsaml cookie does not match the flow');
  state.start(undefined);
  const returnTo = pending.r;
  const fail = (reason: string, error = 'error.sso_failed'): UpstreamAnswer => {
    state.hold(undefined);
    return { returnTo, error, reason, details: { provider_id: pending.p } };
  };
  const now = ctx.services.clock.now();
  if (pending.x <= now.getTime()) return fail('the sign-in took too long');
  const response = responseOf(params);
  if (!response) return fail('no readable SAMLResponse');
  const services = samlServices(ctx);
  const provider = await services.providers.opened(ctx.projectId, pending.p);
  if (!provider) return fail('the provider was removed or disabled, or its metadata cannot be read');
  let assertion;
  try {
    assertion = await verifyResponse(provider, response, pending.i, now);
  } catch (error) {
    if (error instanceof SamlRefusal) return fail(error.message);
    throw error;
  }
  if (!(await services.links.takeAssertion(ctx.projectId, provider.id, assertion.assertionId, assertion.forgetAfter))) return fail('the assertion was used before (replay)');
  const outcome = await decide(ctx, provider, assertion);
  if ('error' in outcome) return fail(outcome.reason, outcome.error);
  return { returnTo, outcome: outcome.trigger };
}
