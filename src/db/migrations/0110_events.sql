-- The event log (issue 34, docs/events.md): every change and every security-relevant outcome, written
-- by `EventLog.record` in the transaction that makes the change, so a rolled-back change leaves no
-- event and no change commits without one. The table is the log and the outbox at once: webhook
-- deliveries will point at event ids, so there is no second copy to keep in step.
--
-- `data` is built per type from a list of fields (src/events/types.ts), never spread from a row,
-- and never holds a secret. Deleting the project deletes its log.
create table events (
  id text primary key,
  project_id text not null references projects (id) on delete cascade,
  type text not null,
  occurred_at timestamptz not null,
  actor_kind text not null,
  actor_id text null,
  subject_kind text not null,
  subject_id text null,
  data jsonb not null default '{}'::jsonb
);

-- GET /events reads newest first with a (occurred_at, id) cursor; retention deletes from the old end.
create index events_log on events (project_id, occurred_at desc, id desc);
-- The filters `type` and `subject_id`.
create index events_type on events (project_id, type, occurred_at desc);
create index events_subject on events (project_id, subject_id, occurred_at desc);
