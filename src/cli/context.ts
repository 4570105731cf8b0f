import type { parseArgs, ParseArgsConfig } from 'node:util';
import { loadConfig, type Config } from '../config.js';
import type { Container } from '../container.js';

// The service itself (Fastify, PGlite, every domain) is imported only by the commands that need
// it, so `--help` and usage or configuration errors answer at once.
export const openEngineLazily = async (config: Config) => {
  const { openEngine } = await import('../db/engine.js');
  return openEngine({ databaseUrl: config.databaseUrl, dataDir: config.databaseUrl ? undefined : config.dataDir });
};

/** A mistake in the command line: printed as one line, exit code 1. */
export class UsageError extends Error {}

export async function existingProject<T>(c: Container, id: string, fn: () => Promise<T>): Promise<T> {
  if (!(await c.projects.row(id))) throw new UsageError(`project ${id} does not exist`);
  return fn();
}

/** Commands other than serve cannot log the generated admin token, so on success they say where it went. */
export function announceGeneratedAdminToken(config: Config): void {
  if (config.adminTokenGenerated) console.error(`gatehouse: generated the instance admin token into ${config.dataDir}/admin-token`);
}

export async function withContainer<T>(fn: (container: Container) => Promise<T>): Promise<T> {
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

/** Every option any command takes; `--help` of a command says which are its own (src/cli/help.ts). */
export const CLI_OPTIONS = {
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
} as const satisfies ParseArgsConfig['options'];

/** The option values of one command line, as `parseArgs` reads them with CLI_OPTIONS. */
export type CliValues = ReturnType<typeof parseArgs<{ options: typeof CLI_OPTIONS; strict: true }>>['values'];
