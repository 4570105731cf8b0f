-- SAML 2.0 identity providers per project (DESIGN §4.20, docs/saml.md).
create table saml_providers (
  project_id text not null references projects (id) on delete cascade,
  -- the operator's slug, unique per project
  id text not null,
  name text not null,
  -- exactly one source of the IdP metadata: the document itself, or a URL fetched and cached
  idp_metadata_xml text,
  idp_metadata_url text,
  -- the document last fetched from idp_metadata_url, and when (refreshed daily)
  metadata_cached text,
  metadata_fetched_at timestamptz,
  -- schema property path -> SAML attribute name (the defaults fill the common claim URIs)
  attributes jsonb not null,
  link text not null check (link in ('none', 'verified_email')),
  enabled boolean not null,
  -- the SP's key (SealedBox 'saml.sp-key') and self-signed certificate: IdPs encrypt assertions to it
  sp_key_sealed text not null,
  sp_certificate text not null,
  created_at timestamptz not null,
  updated_at timestamptz not null,
  primary key (project_id, id),
  check ((idp_metadata_xml is null) <> (idp_metadata_url is null))
);
create index saml_providers_project_created on saml_providers (project_id, created_at, id);

-- Home-realm discovery: an e-mail domain belongs to at most one provider of a project.
create table saml_domains (
  project_id text not null,
  domain text not null,
  provider_id text not null,
  primary key (project_id, domain),
  foreign key (project_id, provider_id) references saml_providers (project_id, id) on delete cascade
);
create index saml_domains_provider on saml_domains (project_id, provider_id);

-- SAML links: a NameID of a provider linked to one user; like every method, one `credentials`
-- row (method 'saml', `secret` ''), so the credentials API lists and removes it.
create table saml_links (
  credential_row_id text primary key references credentials (id) on delete cascade,
  project_id text not null references projects (id) on delete cascade,
  user_id text not null references users (id) on delete cascade,
  -- no foreign key: a provider deleted and created again keeps its links
  provider_id text not null,
  name_id text not null,
  constraint saml_links_identity_key unique (project_id, provider_id, name_id)
);
create index saml_links_user on saml_links (user_id);

-- Every assertion id accepted, taken once (a replayed response is refused), kept until it expires.
create table saml_used_assertions (
  project_id text not null references projects (id) on delete cascade,
  provider_id text not null,
  assertion_id text not null,
  expires_at timestamptz not null,
  primary key (project_id, provider_id, assertion_id)
);
create index saml_used_assertions_expires on saml_used_assertions (expires_at);
