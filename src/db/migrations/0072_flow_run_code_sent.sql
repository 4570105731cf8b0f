-- The 60-second gap between two mails of one flow (DESIGN §4.11) is a budget: it is taken on the
-- flow's run in the statement that checks it, not remembered in the client's cookie, which an old
-- copy could replay.
alter table flow_runs add column code_sent_at timestamptz;
