-- The OAuth 2.0 device authorization grant (RFC 8628, DESIGN §4.19, issue 36, docs/oauth.md).

-- Clients opt in to grant types (RFC 7591 `grant_types`); existing clients keep what they had.
alter table oauth_clients add column grant_types jsonb not null default '["authorization_code", "refresh_token"]'::jsonb;

-- One row per device authorization request (10 minutes). The device code is kept only as its
-- SHA-256, the user code only as an HMAC (keyed by GATEHOUSE_SECRET: 20^8 codes are too few for a
-- plain hash). `status` moves pending -> approved | denied, and approved -> consumed in the one
-- conditional UPDATE of a poll that hands out the tokens; `poll_outcome` is what that UPDATE decided
-- (read back with RETURNING, so concurrent polls each learn their own answer).
create table oauth_device_codes (
  id text primary key,
  project_id text not null references projects (id) on delete cascade,
  client_id text not null references oauth_clients (id) on delete cascade,
  device_code_hash text not null unique,
  user_code_hash text not null unique,
  scopes jsonb not null,
  acr_values text null,
  status text not null check (status in ('pending', 'approved', 'denied', 'consumed')),
  interval_seconds integer not null,
  created_at timestamptz not null,
  expires_at timestamptz not null,
  last_polled_at timestamptz null,
  poll_outcome text null,
  session_id text null,
  user_id text null references users (id) on delete cascade,
  auth_time timestamptz null,
  decided_at timestamptz null
);
create index oauth_device_codes_expires on oauth_device_codes (expires_at);

-- Wrong user codes typed at /ui/device, per client IP and minute. Codes are looked up across the
-- instance (the page needs no project), so the key is the instance ('*'), not a project. The
-- budget is taken by the statement that looks the code up; the OAuth sweeper drops old windows.
create table oauth_device_code_budget (
  project_id text not null,
  ip text not null,
  window_start timestamptz not null,
  count integer not null,
  primary key (project_id, ip, window_start)
);
create index oauth_device_code_budget_window on oauth_device_code_budget (window_start);

-- `gatehouse login`: the public client of the system project that signs operators in with the
-- device grant (made on first need, like the console's).
alter table instance add column cli_client_id text null references oauth_clients (id) on delete set null;
