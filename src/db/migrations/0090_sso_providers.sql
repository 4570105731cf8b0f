-- Upstream identity providers a project's users may sign in with (DESIGN §4.14).
create table sso_providers (
  project_id text not null references projects (id) on delete cascade,
  -- the operator's slug, unique per project
  id text not null,
  name text not null,
  template text not null check (template in ('oidc', 'google', 'microsoft', 'apple', 'gitlab', 'github')),
  -- null only for github (OAuth 2.0 without discovery)
  issuer text,
  client_id text not null,
  -- SealedBox (GATEHOUSE_SECRET subkey 'sso.client-secret'); null for a public client
  client_secret_sealed text,
  scopes jsonb not null,
  -- schema property path -> upstream claim
  claims jsonb not null,
  link text not null check (link in ('none', 'verified_email')),
  enabled boolean not null,
  created_at timestamptz not null,
  updated_at timestamptz not null,
  primary key (project_id, id)
);
create index sso_providers_project_created on sso_providers (project_id, created_at, id);
