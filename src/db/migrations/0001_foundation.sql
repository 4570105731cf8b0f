-- Projects, teams and service keys: the tenancy every other table hangs from.
create table projects (
  id text primary key,
  name text not null,
  secret_hash text not null unique,
  preview_secret_hash text not null unique,
  preview_origins jsonb not null default '[]'::jsonb,
  settings jsonb not null default '{}'::jsonb,
  created_at timestamptz not null,
  updated_at timestamptz not null
);
create index projects_created on projects (created_at, id);

create table teams (
  id text primary key,
  project_id text not null references projects (id) on delete cascade,
  name text not null,
  name_key text not null,
  status text not null default 'active',
  created_at timestamptz not null,
  updated_at timestamptz not null,
  constraint teams_project_name_key unique (project_id, name_key)
);
create index teams_project_created on teams (project_id, created_at, id);

create table service_keys (
  id text primary key,
  project_id text not null references projects (id) on delete cascade,
  name text not null,
  client_id text not null unique,
  secret_hash text not null,
  scopes jsonb not null,
  created_at timestamptz not null,
  last_used_at timestamptz
);
create index service_keys_project_created on service_keys (project_id, created_at, id);
