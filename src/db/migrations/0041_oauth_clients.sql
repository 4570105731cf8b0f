-- OIDC clients registered per project, and authorization requests (authorization code + PKCE).
create table oauth_clients (
  id text primary key,
  project_id text not null references projects (id) on delete cascade,
  name text not null,
  redirect_uris jsonb not null,
  -- null for public clients (token_endpoint_auth_method none: PKCE only)
  secret_hash text,
  token_endpoint_auth_method text not null check (token_endpoint_auth_method in ('client_secret_basic', 'client_secret_post', 'none')),
  -- The frontend that runs the Gatehouse login flow for this client (default: the hosted UI).
  login_uri text,
  created_at timestamptz not null
);
create index oauth_clients_project_created on oauth_clients (project_id, created_at, id);

create table oauth_authorizations (
  id text primary key,
  project_id text not null references projects (id) on delete cascade,
  client_id text not null references oauth_clients (id) on delete cascade,
  redirect_uri text not null,
  scopes jsonb not null,
  state text,
  nonce text,
  code_challenge text not null,
  created_at timestamptz not null,
  expires_at timestamptz not null,
  session_id text,
  user_id text,
  auth_time timestamptz,
  code_hash text unique,
  code_expires_at timestamptz,
  consumed_at timestamptz
);
create index oauth_authorizations_expires on oauth_authorizations (expires_at);
