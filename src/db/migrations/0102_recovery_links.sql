-- Recovery links an operator sends (POST /users/{id}/recovery_link, docs/recovery-links.md): one
-- use, one hour. Only the SHA-256 of the token is kept; `used_at` is set by the statement that
-- takes the link, inside the transaction that completes the sign-in it opens.
create table recovery_links (
  token_hash text primary key,
  project_id text not null references projects (id) on delete cascade,
  user_id text not null references users (id) on delete cascade,
  created_at timestamptz not null,
  expires_at timestamptz not null,
  used_at timestamptz null
);

create index recovery_links_user on recovery_links (user_id);
create index recovery_links_expiry on recovery_links (expires_at);
