import { SealedBox } from '../../../core/sealed-box.js';
import { SAML_SP_KEY_PURPOSE, SamlProviderService } from '../../../saml/service.js';
import type { MethodContext, MethodKit } from '../method.js';
import { SamlLinkStore } from './store.js';

/** What only the SAML method uses: the providers as sign-ins read them, its links and used assertion ids. */
export interface SamlServices {
  providers: SamlProviderService;
  links: SamlLinkStore;
}

/** `AuthMethod.createServices`: built once with the app. */
export const createSamlServices = (kit: MethodKit): SamlServices => ({
  providers: new SamlProviderService({ db: kit.db, box: new SealedBox(kit.keys, SAML_SP_KEY_PURPOSE), clock: kit.clock, publicUrl: kit.publicUrl, outbound: kit.outbound }),
  links: new SamlLinkStore(kit.db),
});

export const samlServices = (ctx: MethodContext): SamlServices => ctx.servicesOf<SamlServices>('saml');
