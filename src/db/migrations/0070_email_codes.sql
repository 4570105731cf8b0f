-- E-mail codes and magic links (DESIGN §4.11). One row of one_time_codes holds the code and, when
-- magic links are enabled, the link token's HMAC beside it: consuming either consumes both, and
-- both share the row's 5 attempts.
alter table one_time_codes add column link_hash text;

-- Which attributes the user proved to own (metadata.verified: property path -> ISO time). A code
-- or link that reached the address sets its path; a changed value forgets it.
alter table users add column verified jsonb not null default '{}'::jsonb;

-- Mail per recipient (DESIGN §4.6a, issue 20 item 4): at most N messages per address (a hash of
-- the project and the folded address, so unknown addresses count exactly like known ones) per
-- window. The window starts with its first message; taking a send is one statement.
create table mail_recipient_budget (
  project_id text not null references projects (id) on delete cascade,
  recipient_key text not null,
  window_start timestamptz not null,
  count integer not null,
  primary key (project_id, recipient_key)
);
create index mail_recipient_budget_window on mail_recipient_budget (window_start);
