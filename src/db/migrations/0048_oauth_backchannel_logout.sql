-- OpenID Connect Back-Channel Logout 1.0: clients register where to receive logout tokens, and
-- every ended session with such clients leaves one delivery per client, written in the
-- transaction that ends the session and sent (with retries) by a background worker.
alter table oauth_clients add column backchannel_logout_uri text;
create table oauth_logout_deliveries (
  id text primary key,
  project_id text not null,
  client_id text not null,
  uri text not null,
  session_id text not null,
  user_id text,
  status text not null default 'pending' check (status in ('pending', 'sent', 'failed')),
  attempts integer not null default 0,
  next_at timestamptz not null,
  last_error text,
  created_at timestamptz not null,
  sent_at timestamptz
);
create index oauth_logout_deliveries_due on oauth_logout_deliveries (next_at) where status = 'pending';
