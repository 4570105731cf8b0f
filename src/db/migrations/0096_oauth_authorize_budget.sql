-- Authorization requests per client IP, project and minute (DESIGN §4.6a "Unauthenticated writes
-- are budgeted"): each GET/POST /auth/authorize with a public client_id and a registered
-- redirect_uri stores an oauth_authorizations row, so the request takes this budget in the
-- statement that writes it (rule ip_authorizations_per_minute). The OAuth sweeper drops windows
-- a few minutes old.
create table oauth_authorize_budget (
  project_id text not null references projects (id) on delete cascade,
  ip text not null,
  window_start timestamptz not null,
  count integer not null,
  primary key (project_id, ip, window_start)
);
create index oauth_authorize_budget_window on oauth_authorize_budget (window_start);
