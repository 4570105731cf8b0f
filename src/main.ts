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
    const { applied } = await migrate(engine);
    container = createContainer(config, { engine });
    if (applied.length > 0) container.logger.info({ migrations: applied }, 'applied database migrations');
    const app = await buildApp(container);
    const url = await app.listen({ port: config.port, host: config.host });
    const running = container;
    return {
      app,
      container: running,
      url,
      // Fastify stops accepting, waits for in-flight requests, then storage closes.
      stop: async () => {
        // Node closes the keep-alive connections that are idle when close() is called; one that
        // finishes its request during the drain would hold the process until its keep-alive
        // timeout (72 s), so idle connections are closed as they appear.
        const closeIdle = setInterval(() => app.server.closeIdleConnections(), 50);
        try {
          await app.close();
        } finally {
          clearInterval(closeIdle);
        }
        await closeContainer(running);
      },
    };
  } catch (error) {
    if (container) await closeContainer(container).catch(() => {});
    else await engine.close().catch(() => {});
    throw error;
  }
}
