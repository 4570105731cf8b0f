-- User schemas (immutable revisions), users, their unique identifiers, credentials and the
-- x-audit trail.
create table user_schemas (
  id text primary key,
  project_id text not null references projects (id) on delete cascade,
  team_id text references teams (id) on delete set null,
  -- The document's $id (given, or generated from the revision id); unique within the project.
  uri text not null,
  object_type text not null,
  -- Stored as text so that GET returns the document exactly as it was posted (jsonb reorders keys).
  document text not null,
  -- Set only on the schema every new project starts with.
  is_default boolean not null default false,
  created_at timestamptz not null,
  constraint user_schemas_project_uri_key unique (project_id, uri)
);
create index user_schemas_project_created on user_schemas (project_id, created_at, id);
create index user_schemas_project_type on user_schemas (project_id, object_type, created_at, id);

create table users (
  id text primary key,
  project_id text not null references projects (id) on delete cascade,
  schema_id text not null references user_schemas (id),
  -- The schema reference as the client wrote it (revision id or $id URL), echoed back.
  schema_ref text not null,
  attributes jsonb not null,
  status text not null default 'active',
  lifecycle_owner_team_id text references teams (id) on delete set null,
  created_at timestamptz not null,
  updated_at timestamptz not null
);
create index users_project_created on users (project_id, created_at, id);

-- One row per x-unique attribute value: the unique index is what makes uniqueness hold under
-- concurrent creates. `scope` is '' for x-unique "project" and the team id for "team".
create table user_identifiers (
  project_id text not null references projects (id) on delete cascade,
  object_type text not null,
  scope text not null,
  attribute text not null,
  value text not null,
  user_id text not null references users (id) on delete cascade,
  constraint user_identifiers_unique primary key (project_id, object_type, scope, attribute, value)
);
create index user_identifiers_lookup on user_identifiers (project_id, value);
create index user_identifiers_user on user_identifiers (user_id);

-- Secrets a user signs in with. Passwords: one row per user (method 'password', secret = argon2id
-- PHC string). Other methods (passkeys...) add rows and columns of their own.
create table credentials (
  id text primary key,
  project_id text not null references projects (id) on delete cascade,
  user_id text not null references users (id) on delete cascade,
  method text not null,
  secret text not null,
  created_at timestamptz not null,
  updated_at timestamptz not null
);
create unique index credentials_one_password on credentials (user_id) where method = 'password';
create index credentials_user on credentials (user_id, method);

-- x-audit: who changed which audited attribute when; values are never stored.
create table user_audit_events (
  id text primary key,
  project_id text not null references projects (id) on delete cascade,
  user_id text not null references users (id) on delete cascade,
  attribute text not null,
  action text not null,
  actor text not null,
  created_at timestamptz not null
);
create index user_audit_events_user on user_audit_events (user_id, created_at, id);
