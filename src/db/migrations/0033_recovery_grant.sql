-- One verified recovery code grants one password change (DESIGN §4.6a): the grant is spent in
-- the transaction that writes the password, so a replayed `_zflow` cannot set another.
alter table one_time_codes add column grant_used_at timestamptz;
