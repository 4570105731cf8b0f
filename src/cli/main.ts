#!/usr/bin/env node
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig, type Config } from '../config.js';
import type { Container } from '../container.js';
import { isScope, SCOPES } from '../core/scopes.js';
import { ADMIN } from '../events/types.js';
import { VERSION } from '../core/version.js';
import { GROUPS, groupHelp, HELP } from './help.js';
import { formatChecklist, productionModeOf, ProductionRefusal, runProductionChecks } from './production.js';
import { describeStartupError } from './startup-errors.js';

// The service itself (Fastify, PGlite, every domain) is imported only by the commands that need
// it, so `--help` and usage or configuration errors answer at once.
const openEngineLazily = async (config: Config) => {
  const { openEngine } = await import('../db/engine.js');
  return openEngine({ databaseUrl: config.databaseUrl, dataDir: config.databaseUrl ? undefined : config.dataDir });
};

class UsageError extends Error {}

const DEVICE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';

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

async function serve(production: boolean | undefined): Promise<void> {
  // Production mode checks the environment before anything is read or generated, and names
  // every unsafe setting at once rather than the first one.
  const mode = productionModeOf(process.env, production);
  if (mode) {
    const failed = runProductionChecks(process.env).filter((result) => result.problem);
    if (failed.length > 0) throw new ProductionRefusal(mode, failed);
  }
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
      url: { type: 'string' },
      scope: { type: 'string' },
      credentials: { type: 'string' },
      'print-token': { type: 'boolean' },
      'grant-type': { type: 'string', multiple: true },
      production: { type: 'boolean' },
    },
    strict: true,
  });
  if (values.help) return void console.log(HELP[command]);
  if (values.production && command !== 'serve') throw new UsageError('--production is an option of serve only');
  switch (command) {
    case 'serve':
      return serve(values.production);
    case 'doctor': {
      const results = runProductionChecks(process.env);
      console.log(formatChecklist(results));
      if (results.some((result) => result.problem)) process.exitCode = 1;
      return;
    }
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
      const project = await withContainer((c) => c.projects.create({ name: values.name!, preview_origins: values['preview-origin'] }, { actor: ADMIN }));
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
      console.log(JSON.stringify(await withContainer((c) => existingProject(c, values.project!, () => c.projects.rotateSecret(values.project!, ADMIN))), null, 2));
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
        if (command === 'user delete') return c.users.delete(user.projectId, user.id, ADMIN);
        const { unlockUser } = await import('../users/unlock.js');
        await unlockUser(c, user, ADMIN);
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
        return c.serviceKeys.create(values.project!, { name: values.name, scopes }, ADMIN);
      });
      console.log(JSON.stringify(key, null, 2));
      return;
    }
    case 'client create': {
      const redirectUris = values['redirect-uri'] ?? [];
      // --grant-type device (RFC 8628) alone needs no redirect URI; the default code flow does.
      const grantTypes = values['grant-type']?.map((grant) => ({ device: DEVICE_GRANT, code: 'authorization_code', refresh: 'refresh_token' })[grant] ?? grant);
      const codeFlow = grantTypes === undefined || grantTypes.includes('authorization_code');
      if (!values.project || (codeFlow && redirectUris.length === 0)) throw new UsageError('client create needs --project and at least one --redirect-uri (or --grant-type device)');
      const client = await withContainer(async (c) => {
        if (!(await c.projects.row(values.project!))) throw new UsageError(`project ${values.project} does not exist`);
        return c.oauth.oidcClients.create(values.project!, {
          name: values.name,
          redirect_uris: redirectUris,
          login_uri: values['login-uri'],
          post_logout_redirect_uris: values['post-logout-redirect-uri'],
          backchannel_logout_uri: values['backchannel-logout-uri'],
          token_endpoint_auth_method: values.public ? 'none' : 'client_secret_basic',
          grant_types: grantTypes as never,
        }, ADMIN);
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
    case 'events tail': {
      if (!values.project) throw new UsageError('events tail needs --project');
      const { apiGetter, tailEvents } = await import('./events.js');
      let stopped = false;
      const stop = () => void (stopped = true);
      process.on('SIGINT', stop);
      process.on('SIGTERM', stop);
      const get = apiGetter(loadConfig(), process.env.GATEHOUSE_TOKEN, UsageError);
      await tailEvents(values.project, {
        get,
        print: (line) => console.log(line),
        warn: (message) => console.error(message),
        ready: (newest) => console.error(`gatehouse: following the events of ${values.project} after ${newest ? newest.id : 'the start'} (Ctrl-C stops)`),
        sleep: (ms) => new Promise((resolve) => setTimeout(() => resolve(!stopped), ms)),
      });
      return;
    }
    case 'login': {
      const { credentialsPath, login, LoginError } = await import('./login.js');
      const url = values.url ?? process.env.GATEHOUSE_PUBLIC_URL ?? `http://127.0.0.1:${process.env.PORT ?? 8080}`;
      const done = await login({ url, clientId: values['client-id'], scope: values.scope, credentialsFile: values.credentials ?? credentialsPath() }).catch((error: unknown) => {
        throw error instanceof LoginError ? new UsageError(error.message) : error;
      });
      console.log(values['print-token'] ? done.stored.access_token : JSON.stringify({ url: done.url, client_id: done.stored.client_id, scope: done.stored.scope, expires_at: done.stored.expires_at, stored_in: done.file }, null, 2));
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
  if (error instanceof ProductionRefusal) {
    // The one message that keeps its lines: one per unsafe setting.
    console.error(`gatehouse: ${error.message}`);
    process.exit(1);
  }
  const known = error instanceof UsageError || error instanceof ConfigError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS');
  const detail = (error as { details?: unknown }).details;
  const message = known ? (error as Error).message : describeStartupError(error);
  // One line, always: multi-line messages (a compiler or driver error) are folded.
  const line = `${message}${detail && !known ? ` ${JSON.stringify(detail)}` : ''}`.replace(/\s*\n\s*/g, ' ').trim();
  console.error(`gatehouse: ${line}`);
  process.exit(1);
});
