import { SsoLinkStore } from '../../../sso/links.js';
import { UpstreamClient } from '../../../sso/upstream.js';
import type { MethodContext, MethodKit } from '../method.js';

/** What only the SSO method uses: its links to upstream identities and the OpenID client. */
export interface SsoServices {
  links: SsoLinkStore;
  upstream: UpstreamClient;
}

/** `AuthMethod.createServices`: built once with the app. */
export const createSsoServices = (kit: MethodKit): SsoServices => ({ links: new SsoLinkStore(kit.db), upstream: new UpstreamClient(kit.clock, { outbound: kit.outbound }) });

export const ssoServices = (ctx: MethodContext): SsoServices => ctx.servicesOf<SsoServices>('sso');
