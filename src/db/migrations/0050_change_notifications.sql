-- Change notifications for per-process caches (src/cache): every UPDATE or DELETE of a project
-- or a user announces `proj:<id>` / `usr:<id>` on the channel gatehouse_changes, whoever the
-- writer is. PostgreSQL delivers a notification after its transaction commits (never for a
-- rolled-back one) to every process LISTENing on the database.
create or replace function gatehouse_notify_change() returns trigger
language plpgsql as $$
begin
  perform pg_notify('gatehouse_changes', tg_argv[0] || ':' || old.id);
  return null;
end;
$$;

create trigger projects_notify_change after update or delete on projects
  for each row execute function gatehouse_notify_change('proj');

create trigger users_notify_change after update or delete on users
  for each row execute function gatehouse_notify_change('usr');
