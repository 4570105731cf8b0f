import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { Logger } from 'pino';
import { buildApp } from '../../src/app.js';
import { testConfig, type Config } from '../../src/config.js';
import { createContainer, type Container } from '../../src/container.js';
import { freePort } from '../../src/main.js';
import { ManualClock } from '../../src/core/clock.js';
import { openTestEngine, type TestEngine } from './engine.js';

export interface TestApp {
  app: FastifyInstance;
  container: Container;
  clock: ManualClock;
  adminToken: string;
  /** Creates a project through the API and returns its id and secrets. */
  createProject(name?: string): Promise<{ id: string; project_secret: string; preview_secret: string }>;
  close(): Promise<void>;
}

/** A whole Gatehouse on a fresh database with a manual clock; use `app.inject` or listen for real HTTP. */
export async function createTestApp(overrides: Partial<Config> = {}, options: { logger?: Logger; poolSize?: number; beforeBuild?: (engine: TestEngine['engine']) => Promise<void> } = {}): Promise<TestApp> {
  const testEngine = await openTestEngine({ poolSize: options.poolSize });
  await options.beforeBuild?.(testEngine.engine);
  const clock = new ManualClock(new Date());
  const config = testConfig(overrides);
  const container = createContainer(config, { engine: testEngine.engine, clock, logger: options.logger });
  const app = await buildApp(container);
  let counter = 0;
  return {
    app,
    container,
    clock,
    adminToken: config.adminToken,
    createProject: async (name) => {
      const response = await app.inject({
        method: 'POST',
        url: '/projects',
        headers: { authorization: `Bearer ${config.adminToken}` },
        payload: { name: name ?? `Project ${++counter}` },
      });
      if (response.statusCode !== 201) throw new Error(`createProject failed: ${response.statusCode} ${response.body}`);
      return response.json();
    },
    close: async () => {
      await app.close();
      for (const close of [...container.closers].reverse()) await close();
      await testEngine.close();
    },
  };
}

/**
 * A test app listening on a real loopback port whose public URL names that port. The public URL
 * is never taken from a request (DESIGN §4.8), so it must be known before the app is built: the
 * port is chosen first. `base` is the address the tests call (`http://127.0.0.1:<port>`), which is
 * the public URL unless `overrides.publicUrl` says otherwise.
 */
export async function createListeningTestApp(overrides: Partial<Config> = {}, options: { logger?: Logger; publicHost?: string } = {}): Promise<TestApp & { base: string }> {
  const port = await freePort('127.0.0.1');
  const base = `http://127.0.0.1:${port}`;
  // Browsers refuse IP addresses as passkey relying parties: such tests name `localhost` here.
  const publicUrl = options.publicHost ? `http://${options.publicHost}:${port}` : base;
  const t = await createTestApp({ publicUrl, ...overrides }, options);
  await t.app.listen({ port, host: '127.0.0.1' });
  return Object.assign(t, { base });
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** Asserts the error body shape every failure must have and returns it. */
export function errorBody(response: LightMyRequestResponse): { code: string; message: string; details: Record<string, unknown> } {
  const body = response.json();
  if (typeof body.code !== 'string' || typeof body.message !== 'string' || typeof body.details !== 'object' || body.details === null) {
    throw new Error(`not an error body: ${response.body}`);
  }
  return body;
}
