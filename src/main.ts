import { createServer } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.js';
import type { Config } from './config.js';
import { closeContainer, createContainer, type Container } from './container.js';
import { loopbackPublicUrl } from './core/public-url.js';
import { startTracing, tracingOn, tracingRequested } from './core/tracing.js';
import { openEngine } from './db/engine.js';
import { migrate } from './db/migrate.js';

export interface RunningServer {
  app: FastifyInstance;
  container: Container;
  url: string;
  stop(): Promise<void>;
}

/** A port the OS has free on `host` now (PORT=0 without a public URL: the URL must name the port). */
export async function freePort(host: string): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve, reject) => {
    probe.once('error', reject);
    probe.listen({ port: 0, host }, resolve);
  });
  const address = probe.address();
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no port was assigned');
  return address.port;
}

/**
 * PORT=0 asks for any free port; the default public URL (http://localhost:{PORT}) must name the
 * port the server really listens on, so it is chosen before anything captures the URL.
 */
async function withBoundPort(config: Config): Promise<Config> {
  if (config.port !== 0 || !config.publicUrlDefaulted) return config;
  const port = await freePort(config.host);
  return { ...config, port, publicUrl: loopbackPublicUrl(port) };
}

/**
 * While no operator exists, one plain line on standard output opens the console's first-run page.
 * The token is a credential: it is printed here for the person starting the server, and never
 * written to the structured log, which only says that a link was printed.
 */
async function printSetupLink(container: Container): Promise<void> {
  const link = await container.consoleAccess.setupLink();
  if (!link) return;
  container.logger.info({ expires_in_hours: 24 }, 'no operator yet: a one-time console set-up link was printed on standard output');
  process.stdout.write(`open ${link}\n`);
}

/** Opens storage, migrates, composes and listens. Errors are thrown for the caller to report. */
export async function startServer(configured: Config): Promise<RunningServer> {
  const config = await withBoundPort(configured);
  // Before the engine and the app, which install the SQL and request spans only when it is on.
  const stopTracing = tracingRequested() && !tracingOn() ? await startTracing() : async () => {};
  const engine = await openEngine({ databaseUrl: config.databaseUrl, dataDir: config.databaseUrl ? undefined : config.dataDir });
  let container: Container | undefined;
  try {
    const { applied } = await migrate(engine);
    container = createContainer(config, { engine });
    if (applied.length > 0) container.logger.info({ migrations: applied }, 'applied database migrations');
    const app = await buildApp(container);
    const url = await app.listen({ port: config.port, host: config.host });
    container.logger.info({ public_url: config.publicUrl }, 'links, callbacks and the issuer use the public URL (GATEHOUSE_PUBLIC_URL)');
    await printSetupLink(container);
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
        await stopTracing().catch(() => {});
      },
    };
  } catch (error) {
    if (container) await closeContainer(container).catch(() => {});
    else await engine.close().catch(() => {});
    await stopTracing().catch(() => {});
    throw error;
  }
}
