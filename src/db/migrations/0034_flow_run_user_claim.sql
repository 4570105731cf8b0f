-- A flow creates at most one user (DESIGN §4.5 "Completion happens once"): create_user claims its
-- run in the transaction that writes the user, so concurrent or replayed submits of one flow
-- cannot create a second account.
alter table flow_runs add column user_created_at timestamptz;
