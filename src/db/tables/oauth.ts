export type TokenEndpointAuthMethod = 'client_secret_basic' | 'client_secret_post' | 'none';

/** The plane's tables as `Database` sees them: tokens and keys (oauth/store.ts), clients (clients-store.ts), logout deliveries (backchannel.ts), device codes (device/store.ts). */
export type OAuthTables = OAuthTokenTables & OAuthClientTables & LogoutDeliveryTables & DeviceCodeTables;

export interface OAuthTokenTables {
  oauth_signing_keys: {
    kid: string;
    alg: string;
    public_jwk: Record<string, unknown>;
    private_jwk_enc: string;
    status: 'current' | 'retired';
    created_at: Date;
    retired_at: Date | null;
    publish_until: Date | null;
  };
  oauth_tokens: {
    id: string;
    token_hash: string;
    kind: 'access' | 'refresh';
    project_id: string;
    client_id: string;
    user_id: string | null;
    session_id: string | null;
    family_id: string | null;
    scopes: string[];
    created_at: Date;
    expires_at: Date;
    used_at: Date | null;
    revoked_at: Date | null;
  };
}

export interface OAuthClientTables {
  oauth_clients: {
    id: string;
    project_id: string;
    name: string;
    redirect_uris: string[];
    secret_hash: string | null;
    token_endpoint_auth_method: TokenEndpointAuthMethod;
    login_uri: string | null;
    post_logout_redirect_uris: string[];
    backchannel_logout_uri: string | null;
    /** RFC 7591 `grant_types`: `authorization_code`, `refresh_token`, the device code URN */
    grant_types: string[];
    created_at: Date;
  };
  oauth_authorizations: {
    id: string;
    project_id: string;
    client_id: string;
    redirect_uri: string;
    scopes: string[];
    state: string | null;
    nonce: string | null;
    code_challenge: string;
    response_mode: 'query' | 'form_post';
    created_at: Date;
    expires_at: Date;
    session_id: string | null;
    user_id: string | null;
    auth_time: Date | null;
    code_hash: string | null;
    code_expires_at: Date | null;
    consumed_at: Date | null;
  };
  /** Authorization requests per client IP, project and minute (`ip_authorizations_per_minute`). */
  oauth_authorize_budget: { project_id: string; ip: string; window_start: Date; count: number };
}

export interface LogoutDeliveryTables {
  oauth_logout_deliveries: {
    id: string;
    project_id: string;
    client_id: string;
    uri: string;
    session_id: string;
    user_id: string | null;
    status: 'pending' | 'sent' | 'failed';
    attempts: number;
    next_at: Date;
    last_error: string | null;
    created_at: Date;
    sent_at: Date | null;
  };
}

/** RFC 8628 device authorization requests (src/db/migrations/0103_device_grant.sql). */
export interface DeviceCodeTables {
  oauth_device_codes: {
    id: string;
    project_id: string;
    client_id: string;
    device_code_hash: string;
    user_code_hash: string;
    scopes: string[];
    acr_values: string | null;
    status: 'pending' | 'approved' | 'denied' | 'consumed';
    interval_seconds: number;
    created_at: Date;
    expires_at: Date;
    last_polled_at: Date | null;
    poll_outcome: string | null;
    session_id: string | null;
    user_id: string | null;
    auth_time: Date | null;
    decided_at: Date | null;
  };
  /** Wrong user codes per client IP and minute, instance-wide (`project_id` is '*'). */
  oauth_device_code_budget: { project_id: string; ip: string; window_start: Date; count: number };
}
