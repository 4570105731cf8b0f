-- Per-project overrides of the mail templates (Liquid), per message and language (DESIGN §4.11).
create table mail_templates (
  project_id text not null references projects (id) on delete cascade,
  template text not null,
  language text not null,
  subject text not null,
  text_body text not null,
  html_body text,
  updated_at timestamptz not null,
  primary key (project_id, template, language)
);

-- The courier retries transient SMTP failures: a message is `pending` until its final status, and
-- the outbox keeps how many deliveries were tried.
alter table outbox add column attempts integer not null default 0;
alter table outbox drop constraint outbox_status_check;
alter table outbox add constraint outbox_status_check check (status in ('logged', 'pending', 'sent', 'failed'));
