/**
 * A second "process" on the test app's PostgreSQL database: its own container with its own pool
 * and LISTEN connection (sharing the test app's clock), for tests of what crosses processes.
 */
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.js';
import { testConfig } from '../../src/config.js';
import { closeContainer, createContainer, type Container } from '../../src/container.js';
import { openPostgres } from '../../src/db/engine.js';
import type { TestApp } from './app.js';

/** How long a notification may take on a loaded machine before a test gives up. */
export const DELIVERY_BOUND_MS = 5_000;

export function within<T>(promise: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not arrive within ${DELIVERY_BOUND_MS} ms`)), DELIVERY_BOUND_MS);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

export async function until(condition: () => boolean, what: string): Promise<void> {
  await within(
    (async () => {
      while (!condition()) await new Promise((resolve) => setTimeout(resolve, 5));
    })(),
    what,
  );
}

export interface SecondProcess {
  /** The URL of the shared database (for SQL that goes around both processes). */
  url: string;
  container: Container;
  app: FastifyInstance;
  close(): Promise<void>;
}

/** Opens the second process and waits until both processes LISTEN. PostgreSQL only. */
export async function openSecondProcess(a: TestApp): Promise<SecondProcess> {
  const database = (await a.container.engine.db.selectNoFrom((eb) => eb.fn<string>('current_database', []).as('name')).executeTakeFirstOrThrow()).name;
  const base = new URL(process.env.DATABASE_URL!);
  base.pathname = `/${database}`;
  const url = base.toString();
  const container = createContainer(testConfig(), { engine: await openPostgres(url, 4), clock: a.clock });
  const app = await buildApp(container);
  await until(() => a.container.changes.healthy && container.changes.healthy, 'both LISTEN subscriptions');
  return {
    url,
    container,
    app,
    close: async () => {
      await app.close();
      await closeContainer(container);
    },
  };
}
