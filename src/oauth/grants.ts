import type { Container } from '../container.js';
import type { AuthenticatedClient, Form } from './client-auth.js';
import { TOKEN_EXCHANGE_GRANT } from './discovery.js';
import type { TokenResponse } from './tokens.js';

export interface GrantContext {
  container: Container;
  client: AuthenticatedClient;
  form: Form;
  issuer: string;
}

export type GrantHandler = (context: GrantContext) => Promise<TokenResponse>;

/** grant_type -> handler; a grant type missing here answers unsupported_grant_type. */
export const grantHandlers = new Map<string, GrantHandler>([
  ['client_credentials', ({ container, client, form }) => container.oauth.tokens.clientCredentials(client, form.scope)],
  [TOKEN_EXCHANGE_GRANT, ({ container, client, form, issuer }) => container.oauth.userTokens.exchange(client, form, issuer)],
  ['authorization_code', ({ container, client, form, issuer }) => container.oauth.authorization.redeem(client, form, issuer)],
  ['refresh_token', ({ container, client, form, issuer }) => container.oauth.userTokens.refresh(client, form, issuer)],
]);
