-- The admin console (issue 33, docs/console.md): its OAuth client in the system project, and the
-- one-time set-up links that make the first operator.

-- The console's public OAuth client (code + PKCE), made with the system project. A new public URL
-- makes a new client; the old one goes.
alter table instance add column console_client_id text null references oauth_clients (id) on delete set null;

-- Set-up links, printed at start while no operator exists. Only the SHA-256 of the token is kept;
-- `used_at` is set in the statement that takes it, inside the transaction that grants the role.
create table console_setup_tokens (
  token_hash text primary key,
  created_at timestamptz not null,
  expires_at timestamptz not null,
  used_at timestamptz null,
  used_by text null references users (id) on delete set null
);
