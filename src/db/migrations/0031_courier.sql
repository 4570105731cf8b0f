-- Outgoing mail (DESIGN §2 mail). In the embedded default (no SMTP_URL) the whole message is kept
-- here and written to the log so that it is visible in development; with SMTP only the envelope
-- and delivery status are kept (bodies can carry one-time codes).
create table outbox (
  id text primary key,
  project_id text references projects (id) on delete cascade,
  recipient text not null,
  subject text not null,
  template text not null,
  body text,
  status text not null check (status in ('logged', 'sent', 'failed')),
  error text,
  created_at timestamptz not null,
  sent_at timestamptz
);
create index outbox_project_created on outbox (project_id, created_at, id);
create index outbox_recipient on outbox (recipient, created_at);
