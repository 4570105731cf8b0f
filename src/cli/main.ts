#!/usr/bin/env node
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../config.js';
import type { Container } from '../container.js';
import { VERSION } from '../core/version.js';
import { adminCommand } from './admin.js';
import { announceGeneratedAdminToken, CLI_OPTIONS, existingProject, openEngineLazily, UsageError, withContainer } from './context.js';
import { GROUPS, groupHelp, HELP } from './help.js';
import { formatChecklist, productionModeOf, productionNotices, ProductionRefusal, runProductionChecks } from './production.js';
import { applyHeapGrowth, semiSpaceFlag } from './heap-growth.js';
import { describeStartupError } from './startup-errors.js';

async function serve(production: boolean | undefined): Promise<void> {
  // Production mode checks the environment before anything is read or generated, and names
  // every unsafe setting at once rather than the first one.
  const mode = productionModeOf(process.env, production);
  if (mode) {
    const failed = runProductionChecks(process.env).filter((result) => result.problem);
    if (failed.length > 0) throw new ProductionRefusal(mode, failed);
    for (const notice of productionNotices(process.env)) console.error(`gatehouse: production mode (${mode}) starts with ${notice}`);
  }
  const config = loadConfig();
  const heapGrowth = applyHeapGrowth(config.heapGrowthPercent);
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
  server.container.logger.info({ heap_growth: heapGrowth }, 'V8 old-generation growth between full collections (GATEHOUSE_HEAP_GROWTH_PERCENT)');
  const semiSpace = semiSpaceFlag();
  if (semiSpace) server.container.logger.info({ semi_space: semiSpace }, 'V8 young generation bounded by the node command line');
  else server.container.logger.warn({ semi_space: 'node default' }, 'V8 young generation left to node (64 MB semi-spaces on Node 24): start node with --max-semi-space-size=8, or NODE_OPTIONS=--max-semi-space-size=8, as npm start does (docs/operations.md, Memory)');
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
    options: CLI_OPTIONS,
    strict: true,
  });
  if (values.help) return void console.log(HELP[command]);
  if (values.production && command !== 'serve') throw new UsageError('--production is an option of serve only');
  switch (command) {
    case 'serve':
      return serve(values.production);
    case 'doctor': {
      const results = runProductionChecks(process.env);
      console.log(formatChecklist(results, productionNotices(process.env)));
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
    case 'project create':
    case 'project list':
    case 'project rotate-secret':
    case 'project delete':
    case 'user unlock':
    case 'user delete':
    case 'key create':
    case 'client create':
      return adminCommand(command, values);
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
