import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.js';
import type { Config } from './config.js';
import { closeContainer, createContainer, type Container } from './container.js';
import { openEngine } from './db/engine.js';
import { migrate } from './db/migrate.js';

export interface RunningServer {
  app: FastifyInstance;
  container: Container;
  url: string;
  stop(): Promise<void>;
}

/** Opens storage, migrates, composes and listens. Errors are thrown for the caller to report. */
export async function startServer(config: Config): Promise<RunningServer> {
  const engine = await openEngine({ databaseUrl: config.databaseUrl, dataDir: config.databaseUrl ? undefined : config.dataDir });
  let container: Container | undefined;
  try {
    await migrate(engine);
    container = createContainer(config, { engine });
    const app = await buildApp(container);
    const url = await app.listen({ port: config.port, host: config.host });
    const running = container;
    return {
      app,
      container: running,
      url,
      // Fastify stops accepting, waits for in-flight requests, then storage closes.
      stop: async () => {
        await app.close();
        await closeContainer(running);
      },
    };
  } catch (error) {
    if (container) await closeContainer(container).catch(() => {});
    else await engine.close().catch(() => {});
    throw error;
  }
}

/** Turns a start-up failure into one line a person can act on. */
export function describeStartupError(error: unknown, config?: Pick<Config, 'port' | 'host' | 'databaseUrl'>): string {
  const err = error as { code?: string; message?: string; variable?: string };
  if (err.code === 'EADDRINUSE') return `PORT: ${config?.host}:${config?.port} is already in use`;
  if (err.code === 'EACCES') return `PORT: not allowed to listen on ${config?.host}:${config?.port}`;
  if (err.code === 'EADDRNOTAVAIL') return `HOST: address ${config?.host} is not available on this machine`;
  if (err.code === 'ECONNREFUSED' || err.code === 'ENOTFOUND' || err.code === '3D000' || err.code === '28P01') {
    return `DATABASE_URL: cannot connect to the database (${err.code}: ${err.message})`;
  }
  return err.message ?? String(error);
}
