-- Flow definitions (DESIGN §4.5) and the registry of live flows that keeps a definition in use.
create table flow_definitions (
  id text primary key,
  project_id text not null references projects (id) on delete cascade,
  name text not null,
  status text not null,
  schema_uri text not null,
  -- The user schema revision the definition was validated against.
  schema_id text not null,
  -- Purpose names and audience app ids, denormalised for resolution and the purpose filter.
  purposes jsonb not null,
  app_ids jsonb not null,
  -- Stored as text so that GET returns the definition as it was written.
  definition text not null,
  created_at timestamptz not null,
  updated_at timestamptz not null,
  constraint flow_definitions_project_name_key unique (project_id, name)
);
create index flow_definitions_project_created on flow_definitions (project_id, created_at, id);

-- One row per running flow (the cookie holds its state; this only records that it is live).
create table flow_runs (
  id text primary key,
  project_id text not null references projects (id) on delete cascade,
  definition_id text not null,
  session_id text not null,
  created_at timestamptz not null,
  expires_at timestamptz not null,
  ended_at timestamptz
);
create index flow_runs_definition on flow_runs (definition_id, expires_at);
