-- Project secret rotation (POST /projects/{id}/rotate_secret): the replaced secret keeps working
-- until previous_secret_valid_until, so deployments can switch without downtime.
alter table projects add column previous_secret_hash text;
alter table projects add column previous_secret_valid_until timestamptz;
create index projects_previous_secret on projects (previous_secret_hash) where previous_secret_hash is not null;
