/** The usage texts of the `gatehouse` commands (`gatehouse --help`, `gatehouse <command> --help`). */
import { SAML_HELP } from './saml.js';

export const HELP: Record<string, string> = {
  main: `Usage: gatehouse <command> [options]

Commands:
  serve [--production]                Serve the API (default); --production refuses unsafe settings
  doctor                              Print the production checklist (✔/✘); exits 1 on a ✘
  migrate                             Apply pending database migrations and exit
  project create --name NAME          Create a project; prints its id and secrets once
  project list                        List every project (id, name, preview origins)
  project rotate-secret --project ID  Issue a new project secret; the old one works 24 more hours
  project delete --project ID --yes   Delete a project and everything in it
  user unlock --project ID --user ID  Lift a user's password lock-out
  user delete --project ID --user ID --yes
                                      Erase a user with its sessions, tokens and credentials
  key create --project ID --scopes a,b [--name NAME]
                                      Create a service key; prints its client id and secret once
  client create --project ID --redirect-uri URL [--redirect-uri URL ...] [--name NAME] [--public] [--login-uri URL] [--grant-type code|refresh|device ...]
                [--post-logout-redirect-uri URL ...] [--backchannel-logout-uri URL]
                                      Register an OIDC client; prints its client id (and secret) once
  oauth rotate-keys                   Retire the current ID-token signing key and make a new one current
  sso put --project ID --provider SLUG --template T --client-id ID [--issuer URL] [--name NAME] [--link none|verified_email]
                                      Add or replace an upstream identity provider (secret from SSO_CLIENT_SECRET)
  sso list --project ID               List a project's upstream identity providers (no secrets)
  sso delete --project ID --provider SLUG
                                      Remove an upstream identity provider
  saml put|list|delete --project ID [--provider SLUG] …   SAML 2.0 identity providers (docs/saml.md)
  mail list [--project ID] [--to ADDRESS] [--limit N] [--json]
                                      The latest mail of the outbox, with its codes and links
  events tail --project ID            Follow a project's event log: one line per new event
  login [--url URL] [--print-token]   Sign an operator in (device code, in a browser); stores the tokens

Run "gatehouse <command> --help" for a command's options, "gatehouse --version" for the version.
Configuration comes from the environment (see docs/configuration.md).`,
  serve:
    'Usage: gatehouse serve [--production]\n\nServes the API on HOST:PORT (default 127.0.0.1:8080). Stops gracefully on SIGTERM or SIGINT.\n\n--production (or NODE_ENV=production) refuses to start while a setting is unsafe, listing every one (see gatehouse doctor).',
  doctor:
    'Usage: gatehouse doctor\n\nPrints the production checklist for the current environment, each check with ✔ or ✘, and exits 1 when one fails. Starts nothing, opens no database and writes no file. See docs/operations.md#production-checklist.',
  migrate: 'Usage: gatehouse migrate\n\nApplies pending migrations to DATABASE_URL (or the embedded database) and exits.',
  'project create': 'Usage: gatehouse project create --name NAME [--preview-origin URL ...]\n\nCreates a project and prints its id, project_secret and preview_secret as JSON (shown once).',
  'project list': 'Usage: gatehouse project list\n\nPrints every project (without secrets) as JSON, oldest first.',
  'project rotate-secret':
    'Usage: gatehouse project rotate-secret --project PROJECT_ID\n\nPrints the new project_secret (shown once) and previous_valid_until; the old secret keeps working until then. Rotating twice ends the older secret at once.',
  'project delete': 'Usage: gatehouse project delete --project PROJECT_ID --yes\n\nDeletes the project and everything in it (users, sessions, keys, clients) in one transaction.',
  'user unlock': 'Usage: gatehouse user unlock --project PROJECT_ID --user USER_ID\n\nLifts the password lock-out (and the "disabled until reset" state) of the user\'s identifiers.',
  'user delete':
    'Usage: gatehouse user delete --project PROJECT_ID --user USER_ID --yes\n\nErases the user: its sessions, tokens, pending attempts and credentials go in one transaction.',
  'key create':
    'Usage: gatehouse key create --project PROJECT_ID --scopes scope1,scope2 [--name NAME]\n\nCreates a service key and prints client_id and client_secret as JSON (shown once).',
  'client create':
    'Usage: gatehouse client create --project PROJECT_ID --redirect-uri URL [--redirect-uri URL ...] [--name NAME] [--public] [--login-uri URL] [--post-logout-redirect-uri URL ...] [--backchannel-logout-uri URL] [--grant-type code|refresh|device ...]\n\nRegisters an OIDC client (authorization code + PKCE) and prints it as JSON; client_secret is shown once (none with --public). --grant-type (repeatable; default code and refresh) opts in to grants: device is the device authorization grant (RFC 8628), and a client with only device and refresh needs no --redirect-uri. --post-logout-redirect-uri may be given more than once: where /auth/logout may send the browser back; --backchannel-logout-uri receives Back-Channel Logout tokens when a session ends. See docs/oauth.md.',
  'oauth rotate-keys':
    'Usage: gatehouse oauth rotate-keys\n\nRetires the current signing key (it stays in /auth/jwks until the tokens it signed have expired) and makes a new one current.',
  'sso put':
    'Usage: SSO_CLIENT_SECRET=... gatehouse sso put --project PROJECT_ID --provider SLUG --template oidc|google|microsoft|apple|gitlab|github --client-id ID [--issuer URL] [--name NAME] [--link none|verified_email]\n\nCreates or replaces the provider and prints it as JSON (never the secret). The client secret is read from the SSO_CLIENT_SECRET environment variable, not an argument, so it stays out of process lists and shell history; without it a replacement keeps the stored secret. See docs/sso.md.',
  'sso list': 'Usage: gatehouse sso list --project PROJECT_ID\n\nPrints the project\'s upstream identity providers as JSON, without secrets.',
  'mail list':
    'Usage: gatehouse mail list [--project PROJECT_ID] [--to ADDRESS] [--limit N] [--json]\n\nPrints the latest messages of the outbox (newest first, default 10, at most 100) with their codes and links: what the embedded courier kept instead of sending (no SMTP_URL). With the embedded database in use by a running server, asks that server (GATEHOUSE_PUBLIC_URL, admin token). See docs/operations.md.',
  login:
    'Usage: gatehouse login [--url URL] [--client-id ID] [--scope SCOPES] [--credentials FILE] [--print-token]\n\nSigns an operator (a user of the system project) in to the Gatehouse at --url (default GATEHOUSE_PUBLIC_URL, else http://127.0.0.1:8080) with the device authorization grant: prints a code to enter at <url>/ui/device in any browser, waits for the approval (AAL2, as the console), and stores the tokens in --credentials (default GATEHOUSE_CREDENTIALS, else $XDG_CONFIG_HOME/gatehouse/credentials.json, else ~/.config/gatehouse/credentials.json; mode 0600). Prints where they went, or with --print-token only the access token. See docs/operators.md.',
  'events tail':
    'Usage: gatehouse events tail --project PROJECT_ID\n\nFollows the project\'s event log from its newest event: asks the running server (GATEHOUSE_PUBLIC_URL) for new events once a second and prints one line each (time, type, subject, actor, data) until stopped (Ctrl-C). The credential is GATEHOUSE_TOKEN (a project secret, or a service key\'s access token with the scope event.read), else the instance admin token. See docs/events.md.',
  'sso delete': 'Usage: gatehouse sso delete --project PROJECT_ID --provider SLUG\n\nRemoves the provider (nothing happens when it does not exist).',
  ...SAML_HELP,
};

export const GROUPS = ['project', 'key', 'client', 'oauth', 'user', 'sso', 'saml', 'mail', 'events'];

/** `gatehouse project --help` (or just `gatehouse project`): the usage of each of its commands. */
export function groupHelp(group: string): string {
  const commands = Object.keys(HELP).filter((name) => name.startsWith(`${group} `));
  return `Usage: gatehouse ${group} <command> [options]\n\n${commands.map((name) => HELP[name].split('\n')[0].replace(/^Usage: /, '  ')).join('\n')}`;
}
