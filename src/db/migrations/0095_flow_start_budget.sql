-- Flow starts per client IP, project and minute (DESIGN §4.6a "Unauthenticated writes are
-- budgeted"): each POST /flow stores a shell session and a run row, so starts take this budget
-- in the statement that writes them. The flow sweeper drops windows a few minutes old.
create table flow_start_budget (
  project_id text not null references projects (id) on delete cascade,
  ip text not null,
  window_start timestamptz not null,
  count integer not null,
  primary key (project_id, ip, window_start)
);
create index flow_start_budget_window on flow_start_budget (window_start);
