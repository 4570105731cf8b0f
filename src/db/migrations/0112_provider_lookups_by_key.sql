-- A provider is found by its key (project_id, id) on every SSO and SAML sign-in. Its statement
-- is prepared, and PostgreSQL keeps the generic plan it made first: on near-empty tables the
-- index (project_id, created_at, id) matched the lookup as well as the primary key did, was
-- chosen, and then read every provider of the project for each sign-in
-- (test/generic-plans.test.ts). Without it the lookup has one index to use. Listings of a
-- project's providers read its rows through the primary key's project prefix and sort them:
-- a project has a handful of providers (a sign-in page shows at most 200).
drop index if exists sso_providers_project_created;
drop index if exists saml_providers_project_created;
