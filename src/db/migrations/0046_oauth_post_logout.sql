-- RP-initiated logout: where a client may send the browser after signing out (exact URLs).
alter table oauth_clients add column post_logout_redirect_uris jsonb not null default '[]'::jsonb;
