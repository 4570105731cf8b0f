-- OAuth2 / OIDC plane: signing keys (private halves encrypted with a KeyRing-derived key) and
-- issued tokens (stored as SHA-256 hashes; revocation is a column the next request reads).
create table oauth_signing_keys (
  kid text primary key,
  alg text not null,
  public_jwk jsonb not null,
  private_jwk_enc text not null,
  status text not null check (status in ('current', 'retired')),
  created_at timestamptz not null,
  retired_at timestamptz,
  -- A retired key stays in the JWKS until every token it signed has expired.
  publish_until timestamptz
);
create unique index oauth_signing_keys_one_current on oauth_signing_keys (status) where status = 'current';

create table oauth_tokens (
  id text primary key,
  token_hash text not null unique,
  kind text not null check (kind in ('access', 'refresh')),
  project_id text not null references projects (id) on delete cascade,
  client_id text not null,
  user_id text,
  session_id text,
  -- Every token descended from one grant (refresh rotation); reuse revokes the whole family.
  family_id text,
  scopes jsonb not null,
  created_at timestamptz not null,
  expires_at timestamptz not null,
  used_at timestamptz,
  revoked_at timestamptz
);
create index oauth_tokens_family on oauth_tokens (family_id) where family_id is not null;
create index oauth_tokens_session on oauth_tokens (session_id) where session_id is not null;
create index oauth_tokens_expires on oauth_tokens (expires_at);
