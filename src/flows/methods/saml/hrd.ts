import { validationFailed } from '../../errors.js';
import type { Screened } from '../declaration.js';
import type { MethodContext } from '../method.js';
import type { SubmitInput } from '../../view.js';
import { emailProperty } from './identity.js';
import { samlServices } from './services.js';
import { returnToProblem, startSaml } from './start.js';

const PASSWORD = 'x-auth-methods#password';

/**
 * Home-realm discovery (DESIGN §4.20): an address whose domain a provider lists signs in at that
 * IdP. A step that takes the address and can follow the IdP's return (`callback`) sends the browser
 * there instead of going on (the submit answers `redirect_uri`); a step that would check a password
 * for such an address refuses it (`error.sso_required`), so staff cannot bypass company SSO. Settings
 * flows are not screened. A provider that cannot be used refuses too: the domain never falls back
 * to passwords.
 */
export async function screenHomeRealm(ctx: MethodContext, values: ReadonlyMap<string, string>, input: SubmitInput): Promise<Screened> {
  if (!ctx.schema.methods.has('saml') || ctx.boundUser !== undefined) return undefined;
  const property = emailProperty(ctx);
  if (property === undefined) return undefined;
  const typed = values.get(property);
  const password = values.has(PASSWORD);
  const address = typed ?? (password ? (ctx.collected(property) ?? ctx.identifier) : undefined);
  if (!address) return undefined;
  const providerId = await samlServices(ctx).providers.providerOfAddress(ctx.projectId, address);
  if (providerId === undefined) return undefined;
  const refuse = () => validationFailed(ctx.flowId, { [password ? 'password' : property]: 'error.sso_required' }, 'Addresses of this domain sign in with their organisation\'s single sign-on.', { sso_provider_id: providerId });
  if (typed === undefined || !ctx.step.transitions?.callback) {
    if (password) throw refuse();
    return undefined;
  }
  const fallback = `${ctx.services.publicUrl}/ui/login?${new URLSearchParams({ project_id: ctx.projectId, flow: ctx.flowId })}`;
  const returnTo = input.return_to !== undefined && (await returnToProblem(ctx, input.return_to)) === undefined ? input.return_to : fallback;
  if (!(await startSaml(ctx, providerId, returnTo))) throw refuse();
  ctx.request.log?.('home realm: sent to the SAML provider', { flow_id: ctx.flowId, provider_id: providerId });
  return 'stay';
}
