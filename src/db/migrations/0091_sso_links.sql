-- SSO links (DESIGN §4.14): an upstream identity (provider, subject) linked to one user. Like
-- every method, each link is one `credentials` row (method 'sso', `secret` ''), so the credentials
-- API lists and removes it; the identity lives here and goes with that row by cascade.
create table sso_links (
  credential_row_id text primary key references credentials (id) on delete cascade,
  project_id text not null references projects (id) on delete cascade,
  user_id text not null references users (id) on delete cascade,
  -- the provider's slug; no foreign key: a provider deleted and created again keeps its links
  provider_id text not null,
  -- the upstream `sub` (GitHub: the numeric user id), never reassigned by the provider
  subject text not null,
  constraint sso_links_identity_key unique (project_id, provider_id, subject)
);
create index sso_links_user on sso_links (user_id);

-- The `state` of each SSO callback that was accepted: a callback is answered once, so a replayed
-- callback URL (or a `_zflow` captured before it) is refused. Kept until the state expires.
create table sso_used_states (
  state_hash text primary key,
  project_id text not null references projects (id) on delete cascade,
  expires_at timestamptz not null
);
create index sso_used_states_expires on sso_used_states (expires_at);
