-- Change notifications for the per-process flow definition cache (src/flows/definitions): every
-- INSERT, UPDATE or DELETE of a flow definition announces `fdef:<project_id>` on the channel
-- gatehouse_changes (migration 0050), whoever the writer is. Inserts count too: a new definition
-- can change which one serves a purpose. A project's definitions are cached together, so the
-- topic names the project; PostgreSQL folds identical notifications of one transaction into one.
create or replace function gatehouse_notify_flow_definition_change() returns trigger
language plpgsql as $$
begin
  if tg_op <> 'INSERT' then
    perform pg_notify('gatehouse_changes', 'fdef:' || old.project_id);
  end if;
  if tg_op = 'INSERT' or (tg_op = 'UPDATE' and new.project_id is distinct from old.project_id) then
    perform pg_notify('gatehouse_changes', 'fdef:' || new.project_id);
  end if;
  return null;
end;
$$;

create trigger flow_definitions_notify_change after insert or update or delete on flow_definitions
  for each row execute function gatehouse_notify_flow_definition_change();
