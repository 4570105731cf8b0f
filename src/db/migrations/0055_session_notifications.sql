-- Session rows are cached per process for the session check (src/sessions/service.ts). Every
-- UPDATE or DELETE of a session, whoever the writer is (exchange, logout, operator revoke,
-- sweeper, a cascade, psql), announces both keys the caches use: `ses:<id>` and
-- `stk:<token_hash>` (the token hash before the change: an upgrade supersedes it). Delivery
-- follows the commit, as for 0050.
create or replace function gatehouse_notify_session_change() returns trigger
language plpgsql as $$
begin
  perform pg_notify('gatehouse_changes', 'ses:' || old.id);
  perform pg_notify('gatehouse_changes', 'stk:' || old.token_hash);
  return null;
end;
$$;

create trigger sessions_notify_change after update or delete on sessions
  for each row execute function gatehouse_notify_session_change();
