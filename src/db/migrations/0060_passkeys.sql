-- Passkeys (WebAuthn, DESIGN §4.10) and what the credentials API lists for every method.

-- Every method's credential is one `credentials` row, so that one table lists them all; passkeys
-- keep their key material in `passkeys` below (their `secret` is '').
alter table credentials add column name text;
alter table credentials add column last_used_at timestamptz;

create table passkeys (
  credential_row_id text primary key references credentials (id) on delete cascade,
  project_id text not null references projects (id) on delete cascade,
  user_id text not null references users (id) on delete cascade,
  -- The WebAuthn credential ID (base64url): what assertions name and the factor records.
  webauthn_id text not null,
  -- COSE_Key bytes as the authenticator attested them.
  public_key bytea not null,
  sign_count bigint not null default 0,
  transports jsonb not null default '[]'::jsonb,
  aaguid text not null,
  backup_eligible boolean not null,
  backup_state boolean not null,
  device_type text not null,
  constraint passkeys_project_webauthn_id_key unique (project_id, webauthn_id)
);
create index passkeys_user on passkeys (user_id);

-- The WebAuthn user.id of each user: 32 random bytes (base64url), never the Gatehouse user id,
-- so that an authenticator's storage reveals nothing about the account.
create table webauthn_user_handles (
  project_id text not null references projects (id) on delete cascade,
  user_id text primary key references users (id) on delete cascade,
  handle text not null,
  created_at timestamptz not null,
  constraint webauthn_user_handles_project_handle_key unique (project_id, handle)
);

-- Challenges spent by a verification (sha256 of the challenge): one insert ... on conflict do
-- nothing decides which of concurrent submits wins. Rows are useless after expires_at.
create table webauthn_used_challenges (
  challenge_hash text primary key,
  project_id text not null references projects (id) on delete cascade,
  expires_at timestamptz not null
);
create index webauthn_used_challenges_expires on webauthn_used_challenges (expires_at);
