-- TOTP and recovery codes (DESIGN §4.12). Each is one `credentials` row per user, so the
-- credentials API lists and removes them like every other method.

-- TOTP: the row's `secret` holds the seed sealed with AES-256-GCM under a key derived from
-- GATEHOUSE_SECRET (it must be read back to compute codes). One per user.
create unique index credentials_one_totp on credentials (user_id) where method = 'totp';

-- A TOTP time step accepted for a user: the insert ... on conflict do nothing decides which of
-- concurrent submits of one code wins, so a code is used once.
create table totp_used_steps (
  project_id text not null references projects (id) on delete cascade,
  user_id text not null references users (id) on delete cascade,
  time_step bigint not null,
  used_at timestamptz not null,
  primary key (user_id, time_step)
);

-- Recovery codes: one `credentials` row per user stands for the current set (its `secret` is
-- ''); the codes hang off it, so replacing the set (delete the row, insert a new one) forgets
-- every old code in the same transaction.
create unique index credentials_one_recovery_code_set on credentials (user_id) where method = 'recovery_code';

create table recovery_codes (
  credential_row_id text not null references credentials (id) on delete cascade,
  project_id text not null references projects (id) on delete cascade,
  user_id text not null references users (id) on delete cascade,
  -- HMAC-SHA256 (base64url) of the code's canonical form under a key derived from GATEHOUSE_SECRET
  code_hash text not null,
  used_at timestamptz,
  primary key (credential_row_id, code_hash)
);
create index recovery_codes_user on recovery_codes (user_id);
