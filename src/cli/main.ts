#!/usr/bin/env node
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig, type Config } from '../config.js';
import type { Container } from '../container.js';
import { SAML_HELP } from './saml.js';
import { isScope, SCOPES } from '../core/scopes.js';
import { VERSION } from '../core/version.js';
import { describeStartupError } from './startup-errors.js';

// The service itself (Fastify, PGlite, every domain) is imported only by the commands that need
// it, so `--help` and usage or configuration errors answer at once.
const openEngineLazily = async (config: Config) => {
  const { openEngine } = await import('../db/engine.js');
  return openEngine({ databaseUrl: config.databaseUrl, dataDir: config.databaseUrl ? undefined : config.dataDir });
};

const HELP: Record<string, string> = {
  main: `Usage: gatehouse <command> [options]

Commands:
  serve                               Serve the API (default)
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
  client create --project ID --redirect-uri URL [--redirect-uri URL ...] [--name NAME] [--public] [--login-uri URL]
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

Run "gatehouse <command> --help" for a command's options, "gatehouse --version" for the version.
Configuration comes from the environment (see docs/configuration.md).`,
  serve: 'Usage: gatehouse serve\n\nServes the API on HOST:PORT (default 127.0.0.1:8080). Stops gracefully on SIGTERM or SIGINT.',
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
    'Usage: gatehouse client create --project PROJECT_ID --redirect-uri URL [--redirect-uri URL ...] [--name NAME] [--public] [--login-uri URL] [--post-logout-redirect-uri URL ...] [--backchannel-logout-uri URL]\n\nRegisters an OIDC client (authorization code + PKCE) and prints it as JSON; client_secret is shown once (none with --public). --post-logout-redirect-uri may be given more than once: where /auth/logout may send the browser back; --backchannel-logout-uri receives Back-Channel Logout tokens when a session ends. See docs/oauth.md.',
  'oauth rotate-keys':
    'Usage: gatehouse oauth rotate-keys\n\nRetires the current signing key (it stays in /auth/jwks until the tokens it signed have expired) and makes a new one current.',
  'sso put':
    'Usage: SSO_CLIENT_SECRET=... gatehouse sso put --project PROJECT_ID --provider SLUG --template oidc|google|microsoft|apple|gitlab|github --client-id ID [--issuer URL] [--name NAME] [--link none|verified_email]\n\nCreates or replaces the provider and prints it as JSON (never the secret). The client secret is read from the SSO_CLIENT_SECRET environment variable, not an argument, so it stays out of process lists and shell history; without it a replacement keeps the stored secret. See docs/sso.md.',
  'sso list': 'Usage: gatehouse sso list --project PROJECT_ID\n\nPrints the project\'s upstream identity providers as JSON, without secrets.',
  'mail list':
    'Usage: gatehouse mail list [--project PROJECT_ID] [--to ADDRESS] [--limit N] [--json]\n\nPrints the latest messages of the outbox (newest first, default 10, at most 100) with their codes and links: what the embedded courier kept instead of sending (no SMTP_URL). With the embedded database in use by a running server, asks that server (GATEHOUSE_PUBLIC_URL, admin token). See docs/operations.md.',
  'sso delete': 'Usage: gatehouse sso delete --project PROJECT_ID --provider SLUG\n\nRemoves the provider (nothing happens when it does not exist).',
  ...SAML_HELP,
};

class UsageError extends Error {}

async function existingProject<T>(c: Container, id: string, fn: () => Promise<T>): Promise<T> {
  if (!(await c.projects.row(id))) throw new UsageError(`project ${id} does not exist`);
  return fn();
}

/** Commands other than serve cannot log the generated admin token, so on success they say where it went. */
function announceGeneratedAdminToken(config: Config): void {
  if (config.adminTokenGenerated) console.error(`gatehouse: generated the instance admin token into ${config.dataDir}/admin-token`);
}

async function withContainer<T>(fn: (container: Container) => Promise<T>): Promise<T> {
  const config = loadConfig();
  const { createContainer, closeContainer } = await import('../container.js');
  const { migrate } = await import('../db/migrate.js');
  const engine = await openEngineLazily(config);
  const container = createContainer(config, { engine });
  try {
    await migrate(engine);
    const result = await fn(container);
    announceGeneratedAdminToken(config);
    return result;
  } finally {
    await closeContainer(container);
  }
}

async function serve(): Promise<void> {
  const config = loadConfig();
  const { startServer } = await import('../main.js');
  // Printed before anything can fail: when the very first start fails (port taken, database
  // down), the token is already in the file and the next start would never print it.
  if (config.adminTokenGenerated) {
    const { createLogger, immediateStdout } = await import('../http/log-redaction.js');
    createLogger(config.logLevel, immediateStdout()).warn(
      { admin_token: config.adminToken, stored_in: `${config.dataDir}/admin-token` },
      'generated the instance admin token; it is printed only this once',
    );
  }
  let server;
  try {
    server = await startServer(config);
  } catch (error) {
    throw new UsageError(describeStartupError(error, config));
  }
  let stopping = false;
  const stop = (signal: string) => {
    // A second signal means "now": give up on draining.
    if (stopping) {
      console.error(`gatehouse: ${signal} again, exiting without finishing requests`);
      process.exit(1);
    }
    stopping = true;
    server.container.logger.info({ signal }, 'shutting down');
    server.stop().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(`gatehouse: shutdown failed: ${String(error)}`);
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

const GROUPS = ['project', 'key', 'client', 'oauth', 'user', 'sso', 'saml', 'mail'];

/** `gatehouse project --help` (or just `gatehouse project`): the usage of each of its commands. */
function groupHelp(group: string): string {
  const commands = Object.keys(HELP).filter((name) => name.startsWith(`${group} `));
  return `Usage: gatehouse ${group} <command> [options]\n\n${commands.map((name) => HELP[name].split('\n')[0].replace(/^Usage: /, '  ')).join('\n')}`;
}

async function run(argv: string[]): Promise<void> {
  const [first, second] = argv;
  if (first === '--version' || first === '-v' || first === 'version') return void console.log(VERSION);
  if (GROUPS.includes(first) && (second === undefined || second === '--help' || second === '-h')) return void console.log(groupHelp(first));
  const command = GROUPS.includes(first) ? `${first} ${second ?? ''}`.trim() : (first ?? 'serve');
  const rest = argv.slice(command.split(' ').length);
  if (command === '--help' || command === '-h' || command === 'help') return void console.log(HELP.main);
  if (!(command in HELP) || command === 'main') throw new UsageError(`unknown command "${command}" (see gatehouse --help)`);
  const { values } = parseArgs({
    args: rest,
    options: {
      help: { type: 'boolean', short: 'h' },
      name: { type: 'string' },
      project: { type: 'string' },
      user: { type: 'string' },
      yes: { type: 'boolean' },
      scopes: { type: 'string' },
      'preview-origin': { type: 'string', multiple: true },
      'redirect-uri': { type: 'string', multiple: true },
      'login-uri': { type: 'string' },
      'post-logout-redirect-uri': { type: 'string', multiple: true },
      'backchannel-logout-uri': { type: 'string' },
      public: { type: 'boolean' },
      provider: { type: 'string' },
      template: { type: 'string' },
      issuer: { type: 'string' },
      'client-id': { type: 'string' },
      link: { type: 'string' },
      'metadata-url': { type: 'string' },
      'metadata-file': { type: 'string' },
      domain: { type: 'string', multiple: true },
      to: { type: 'string' },
      limit: { type: 'string' },
      json: { type: 'boolean' },
    },
    strict: true,
  });
  if (values.help) return void console.log(HELP[command]);
  switch (command) {
    case 'serve':
      return serve();
    case 'migrate': {
      const config = loadConfig();
      const { migrate } = await import('../db/migrate.js');
      const engine = await openEngineLazily(config);
      const result = await migrate(engine).finally(() => engine.close());
      announceGeneratedAdminToken(config);
      console.log(result.applied.length ? `applied ${result.applied.join(', ')}` : 'database is up to date');
      return;
    }
    case 'project create': {
      if (!values.name) throw new UsageError('project create needs --name');
      const project = await withContainer((c) => c.projects.create({ name: values.name!, preview_origins: values['preview-origin'] }));
      console.log(JSON.stringify(project, null, 2));
      return;
    }
    case 'project list': {
      const all = await withContainer(async (c) => {
        const projects = [];
        let pageToken: string | undefined;
        do {
          const page = await c.projects.list({ limit: 100, pageToken });
          projects.push(...page.items);
          pageToken = page.nextPageToken;
        } while (pageToken);
        return projects;
      });
      console.log(JSON.stringify(all, null, 2));
      return;
    }
    case 'project rotate-secret': {
      if (!values.project) throw new UsageError('project rotate-secret needs --project');
      console.log(JSON.stringify(await withContainer((c) => existingProject(c, values.project!, () => c.projects.rotateSecret(values.project!))), null, 2));
      return;
    }
    case 'project delete': {
      if (!values.project || !values.yes) throw new UsageError('project delete needs --project and --yes (it deletes everything in the project)');
      await withContainer((c) => existingProject(c, values.project!, () => c.projects.delete(values.project!)));
      console.log(JSON.stringify({ deleted: values.project }, null, 2));
      return;
    }
    case 'user unlock':
    case 'user delete': {
      if (!values.project || !values.user) throw new UsageError(`${command} needs --project and --user`);
      if (command === 'user delete' && !values.yes) throw new UsageError('user delete needs --yes (it erases the user)');
      await withContainer(async (c) => {
        const user = await c.users.find(values.project!, values.user!);
        if (!user) throw new UsageError(`user ${values.user} does not exist in project ${values.project}`);
        if (command === 'user delete') return c.users.delete(user.projectId, user.id);
        const { unlockUser } = await import('../users/unlock.js');
        await unlockUser(c, user);
      });
      console.log(JSON.stringify({ [command === 'user delete' ? 'deleted' : 'unlocked']: values.user }, null, 2));
      return;
    }
    case 'key create': {
      if (!values.project || !values.scopes) throw new UsageError('key create needs --project and --scopes');
      const scopes = values.scopes.split(',').map((s) => s.trim()).filter(Boolean);
      // Checked before the database is opened, so a typo fails at once.
      const unknown = scopes.filter((scope) => !isScope(scope));
      if (scopes.length === 0) throw new UsageError('key create needs at least one scope in --scopes');
      if (unknown.length > 0) throw new UsageError(`unknown scope "${unknown[0]}" (known: ${SCOPES.join(', ')})`);
      const key = await withContainer(async (c) => {
        if (!(await c.projects.row(values.project!))) throw new UsageError(`project ${values.project} does not exist`);
        return c.serviceKeys.create(values.project!, { name: values.name, scopes });
      });
      console.log(JSON.stringify(key, null, 2));
      return;
    }
    case 'client create': {
      const redirectUris = values['redirect-uri'] ?? [];
      if (!values.project || redirectUris.length === 0) throw new UsageError('client create needs --project and at least one --redirect-uri');
      const client = await withContainer(async (c) => {
        if (!(await c.projects.row(values.project!))) throw new UsageError(`project ${values.project} does not exist`);
        return c.oauth.oidcClients.create(values.project!, {
          name: values.name,
          redirect_uris: redirectUris,
          login_uri: values['login-uri'],
          post_logout_redirect_uris: values['post-logout-redirect-uri'],
          backchannel_logout_uri: values['backchannel-logout-uri'],
          token_endpoint_auth_method: values.public ? 'none' : 'client_secret_basic',
        });
      });
      console.log(JSON.stringify(client, null, 2));
      return;
    }
    case 'sso put':
    case 'sso list':
    case 'sso delete':
    case 'saml put':
    case 'saml list':
    case 'saml delete': {
      const { ssoCommand } = await import('./sso.js');
      const { samlCommand } = await import('./saml.js');
      const work = (c: Container) => (command.startsWith('saml') ? samlCommand(c, command, values, UsageError) : ssoCommand(c, command as 'sso put', values, UsageError));
      const result = await withContainer((c) => existingProject(c, values.project ?? '', () => work(c)));
      console.log(JSON.stringify(result, null, 2));
      return;
    }
    case 'mail list': {
      const { formatMail, mailList } = await import('./mail.js');
      const messages = await mailList(values, withContainer, loadConfig, UsageError);
      console.log(values.json ? JSON.stringify(messages, null, 2) : formatMail(messages));
      return;
    }
    case 'oauth rotate-keys': {
      const kid = await withContainer((c) => c.oauth.signingKeys.rotate());
      console.log(JSON.stringify({ current_kid: kid }, null, 2));
      return;
    }
  }
}

// Everything this process creates (the data directory, the embedded database's files, the
// generated admin token and secret, the lock file) is readable by its owner only: 0600 files,
// 0700 folders, whatever the umask of the shell that started it.
process.umask(0o077);

run(process.argv.slice(2)).catch((error: unknown) => {
  const known = error instanceof UsageError || error instanceof ConfigError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS');
  const detail = (error as { details?: unknown }).details;
  const message = known ? (error as Error).message : describeStartupError(error);
  // One line, always: multi-line messages (a compiler or driver error) are folded.
  const line = `${message}${detail && !known ? ` ${JSON.stringify(detail)}` : ''}`.replace(/\s*\n\s*/g, ' ').trim();
  console.error(`gatehouse: ${line}`);
  process.exit(1);
});
