-- Change notifications for the per-process cache of each project's enabled SSO providers
-- (src/sso/service.ts): every INSERT, UPDATE or DELETE announces `ssop:<project_id>` on the
-- channel gatehouse_changes (migration 0050), so sign-in steps never list a provider that was
-- removed or disabled in another process for longer than the notification takes.
create or replace function gatehouse_notify_sso_provider_change() returns trigger
language plpgsql as $$
begin
  if tg_op <> 'INSERT' then
    perform pg_notify('gatehouse_changes', 'ssop:' || old.project_id);
  end if;
  if tg_op = 'INSERT' or (tg_op = 'UPDATE' and new.project_id is distinct from old.project_id) then
    perform pg_notify('gatehouse_changes', 'ssop:' || new.project_id);
  end if;
  return null;
end;
$$;

create trigger sso_providers_notify_change after insert or update or delete on sso_providers
  for each row execute function gatehouse_notify_sso_provider_change();
