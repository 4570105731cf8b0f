-- Webhooks (issue 34, docs/events.md "Webhooks"). An endpoint subscribes to event types (or "*").
-- The signing secret is sealed (AES-GCM under the instance key); during a rotation the previous
-- one signs too until `previous_until`.
create table webhooks (
  id text primary key,
  project_id text not null references projects (id) on delete cascade,
  url text not null,
  events jsonb not null,
  description text null,
  secret_sealed text not null,
  previous_secret_sealed text null,
  previous_until timestamptz null,
  disabled_at timestamptz null,
  failing_since timestamptz null,
  created_at timestamptz not null,
  updated_at timestamptz not null
);
create index webhooks_project on webhooks (project_id);

-- One row per (event, endpoint), written by the event's own transaction (the fan-out in
-- EventLog.record), so no event is without its deliveries. The id is the `webhook-id` header: the
-- same on every retry and redelivery, so receivers de-duplicate by it. Workers claim a due row by
-- setting `leased_until`; a node killed mid-delivery leaves a lease that runs out, and any node
-- takes the row again (at least once).
create table webhook_deliveries (
  id text primary key,
  webhook_id text not null references webhooks (id) on delete cascade,
  project_id text not null references projects (id) on delete cascade,
  event_id text not null references events (id) on delete cascade,
  occurred_at timestamptz not null,
  status text not null,
  attempts integer not null default 0,
  first_attempt_at timestamptz null,
  next_at timestamptz not null,
  leased_until timestamptz null,
  last_status_code integer null,
  last_error text null,
  delivered_at timestamptz null,
  created_at timestamptz not null
);
-- Per endpoint, the oldest pending delivery goes first (ordering by event time).
create index webhook_deliveries_pending on webhook_deliveries (webhook_id, occurred_at, id) where status = 'pending';
create index webhook_deliveries_log on webhook_deliveries (webhook_id, created_at desc, id desc);
