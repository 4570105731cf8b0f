-- Sessions, auth attempts, handoff tokens and idempotency records (DESIGN §4.3, §4.4).
-- Every timestamp is written from the service clock, never from now(), so expiry is testable.

-- One row per session. `state` stores building/active; `expired` is computed from expires_at.
-- A session has exactly one current token (stored as SHA-256); an exchange replaces the hash,
-- which supersedes the previous token.
create table sessions (
  id text primary key,
  project_id text not null references projects (id) on delete cascade,
  state text not null check (state in ('building', 'active')),
  user_id text,
  -- Copied from the user at exchange so that operators can query by owner team.
  lifecycle_owner_team_id text,
  factors jsonb not null default '[]'::jsonb,
  metadata jsonb not null default '{}'::jsonb,
  user_agent jsonb not null default '{}'::jsonb,
  token_hash text not null,
  created_at timestamptz not null,
  updated_at timestamptz not null,
  expires_at timestamptz not null,
  constraint sessions_token_hash_key unique (token_hash)
);
create index sessions_project_created on sessions (project_id, created_at, id);
create index sessions_project_user_created on sessions (project_id, user_id, created_at, id);
create index sessions_expires on sessions (expires_at);

-- An authentication in progress: pending -> completed -> handed_off (15 minutes).
create table auth_attempts (
  id text primary key,
  project_id text not null references projects (id) on delete cascade,
  -- The session a completed attempt upgrades (anonymous shell) or steps up; null: a new session.
  session_id text,
  user_id text,
  state text not null check (state in ('pending', 'completed', 'handed_off')),
  factors jsonb not null default '[]'::jsonb,
  created_at timestamptz not null,
  updated_at timestamptz not null,
  expires_at timestamptz not null,
  completed_at timestamptz,
  handed_off_at timestamptz
);
create index auth_attempts_project_created on auth_attempts (project_id, created_at, id);
create index auth_attempts_expires on auth_attempts (expires_at);

-- At most one handoff token per attempt; single use (consumed_at), 60 seconds.
create table handoff_tokens (
  token_hash text primary key,
  project_id text not null references projects (id) on delete cascade,
  attempt_id text not null references auth_attempts (id) on delete cascade,
  created_at timestamptz not null,
  expires_at timestamptz not null,
  consumed_at timestamptz,
  constraint handoff_tokens_attempt_key unique (attempt_id)
);
create index handoff_tokens_expires on handoff_tokens (expires_at);

-- Responses replayed for a repeated Idempotency-Key. `response` is sealed (AES-256-GCM) because
-- it carries tokens; `request_hash` makes a reused key with a different request fail.
create table idempotency_records (
  project_id text not null references projects (id) on delete cascade,
  operation text not null,
  idempotency_key text not null,
  request_hash text not null,
  response text not null,
  created_at timestamptz not null,
  expires_at timestamptz not null,
  primary key (project_id, operation, idempotency_key)
);
create index idempotency_records_expires on idempotency_records (expires_at);
