import type { Config } from '../config.js';
import { SCOPES } from '../core/scopes.js';
import { DEVICE_CODE_GRANT } from './clients.js';
import { SIGNING_ALG } from './signing-keys.js';

export const TOKEN_EXCHANGE_GRANT = 'urn:ietf:params:oauth:grant-type:token-exchange';
export const USER_CLAIMS = ['sub', 'name', 'email', 'email_verified', 'preferred_username', 'picture', 'given_name', 'family_name'] as const;
/** The scopes an end user's tokens can carry; management scopes only come from client credentials. */
export const USER_SCOPES = ['openid', 'profile', 'email', 'offline_access'] as const;

/** One issuer for the instance: GATEHOUSE_PUBLIC_URL, never the Host a request names (DESIGN §4.8). */
export function issuerOf(config: Pick<Config, 'publicUrl'>): string {
  return config.publicUrl;
}

export function discoveryDocument(issuer: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  const authMethods = ['client_secret_basic', 'client_secret_post'];
  return {
    issuer,
    authorization_endpoint: `${issuer}/auth/authorize`,
    token_endpoint: `${issuer}/auth/token`,
    jwks_uri: `${issuer}/auth/jwks`,
    userinfo_endpoint: `${issuer}/auth/userinfo`,
    end_session_endpoint: `${issuer}/auth/logout`,
    backchannel_logout_supported: true,
    backchannel_logout_session_supported: true,
    revocation_endpoint: `${issuer}/auth/revoke`,
    introspection_endpoint: `${issuer}/auth/introspect`,
    device_authorization_endpoint: `${issuer}/auth/device_authorization`,
    grant_types_supported: ['authorization_code', 'refresh_token', 'client_credentials', TOKEN_EXCHANGE_GRANT, DEVICE_CODE_GRANT],
    response_types_supported: ['code'],
    response_modes_supported: ['query', 'form_post'],
    prompt_values_supported: ['none', 'login', 'consent', 'select_account', 'create'],
    authorization_response_iss_parameter_supported: true,
    subject_types_supported: ['public'],
    id_token_signing_alg_values_supported: [SIGNING_ALG],
    token_endpoint_auth_methods_supported: [...authMethods, 'none'],
    revocation_endpoint_auth_methods_supported: authMethods,
    introspection_endpoint_auth_methods_supported: authMethods,
    scopes_supported: [...USER_SCOPES, ...SCOPES],
    claims_supported: [...USER_CLAIMS, 'sid', 'auth_time', 'acr', 'amr', 'at_hash', 'nonce'],
    acr_values_supported: ['urn:nist:aal:1', 'urn:nist:aal:2'],
    request_parameter_supported: false,
    request_uri_parameter_supported: false,
    claims_parameter_supported: false,
    code_challenge_methods_supported: ['S256'],
    ...extra,
  };
}
