-- Abuse protection for flows (DESIGN §4.6a): counters live in the database so that they hold
-- across processes. Timestamps come from the service clock.

-- Spent captcha proofs: a proof is accepted once (replay protection) until its challenge expires.
create table captcha_spent (
  signature text primary key,
  project_id text not null references projects (id) on delete cascade,
  expires_at timestamptz not null
);
create index captcha_spent_expires on captcha_spent (expires_at);

-- Consecutive password failures per account key (a hash of project + normalised identifier, so
-- that unknown identifiers are throttled exactly like known ones).
create table login_failures (
  project_id text not null references projects (id) on delete cascade,
  account_key text not null,
  failures integer not null,
  locked_until timestamptz,
  updated_at timestamptz not null,
  primary key (project_id, account_key)
);

-- Failed credential checks per client IP and minute.
create table ip_failures (
  project_id text not null references projects (id) on delete cascade,
  ip text not null,
  window_start timestamptz not null,
  count integer not null,
  primary key (project_id, ip, window_start)
);
create index ip_failures_window on ip_failures (window_start);

-- Client events (fingerprint, telemetry) of a flow, stored against its session.
create table flow_events (
  id text primary key,
  project_id text not null references projects (id) on delete cascade,
  flow_id text not null,
  session_id text not null,
  type text not null,
  payload jsonb not null,
  ip text,
  created_at timestamptz not null
);
create index flow_events_session on flow_events (session_id, type, created_at);

-- Fingerprints a user has signed in from (hashes).
create table known_fingerprints (
  project_id text not null references projects (id) on delete cascade,
  user_id text not null,
  fingerprint_hash text not null,
  first_seen timestamptz not null,
  last_seen timestamptz not null,
  primary key (project_id, user_id, fingerprint_hash)
);

-- One-time codes (recovery): stored hashed, 10 minutes, at most 5 attempts, consumed atomically;
-- a new code for the same user and purpose invalidates the previous one.
create table one_time_codes (
  id text primary key,
  project_id text not null references projects (id) on delete cascade,
  user_id text,
  purpose text not null,
  code_hash text not null,
  attempts integer not null default 0,
  created_at timestamptz not null,
  expires_at timestamptz not null,
  consumed_at timestamptz
);
create index one_time_codes_user on one_time_codes (project_id, user_id, purpose);
