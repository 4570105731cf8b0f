import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { Logger } from 'pino';
import { buildApp } from '../../src/app.js';
import { testConfig, type Config } from '../../src/config.js';
import { createContainer, type Container } from '../../src/container.js';
import { ManualClock } from '../../src/core/clock.js';
import { openTestEngine } from './engine.js';

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
export async function createTestApp(overrides: Partial<Config> = {}, options: { logger?: Logger } = {}): Promise<TestApp> {
  const testEngine = await openTestEngine();
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

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** Asserts the error body shape every failure must have and returns it. */
export function errorBody(response: LightMyRequestResponse): { code: string; message: string; details: Record<string, unknown> } {
  const body = response.json();
  if (typeof body.code !== 'string' || typeof body.message !== 'string' || typeof body.details !== 'object' || body.details === null) {
    throw new Error(`not an error body: ${response.body}`);
  }
  return body;
}
