import type { AuthenticatedClient, Form } from './client-auth.js';
import { DEVICE_CODE_GRANT } from './clients.js';
import { TOKEN_EXCHANGE_GRANT } from './discovery.js';
import type { OAuthPlane } from './plane.js';
import type { TokenResponse } from './tokens.js';

export interface GrantContext {
  oauth: OAuthPlane;
  client: AuthenticatedClient;
  form: Form;
  issuer: string;
}

export type GrantHandler = (context: GrantContext) => Promise<TokenResponse>;

/** grant_type -> handler; a grant type missing here answers unsupported_grant_type. */
export const grantHandlers = new Map<string, GrantHandler>([
  ['client_credentials', ({ oauth, client, form }) => oauth.tokens.clientCredentials(client, form.scope)],
  [TOKEN_EXCHANGE_GRANT, ({ oauth, client, form, issuer }) => oauth.userTokens.exchange(client, form, issuer)],
  ['authorization_code', ({ oauth, client, form, issuer }) => oauth.authorization.redeem(client, form, issuer)],
  ['refresh_token', ({ oauth, client, form, issuer }) => oauth.userTokens.refresh(client, form, issuer)],
  [DEVICE_CODE_GRANT, ({ oauth, client, form, issuer }) => oauth.device.poll(client, form, issuer)],
]);
