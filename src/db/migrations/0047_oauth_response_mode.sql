-- OAuth 2.0 Form Post Response Mode: how the authorization response reaches the client.
alter table oauth_authorizations add column response_mode text not null default 'query' check (response_mode in ('query', 'form_post'));
