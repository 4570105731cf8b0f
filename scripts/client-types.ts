import openapiTS, { astToString } from 'openapi-typescript';
import { buildApp } from '../src/app.js';
import { testConfig } from '../src/config.js';
import { closeContainer, createContainer } from '../src/container.js';
import { openPglite } from '../src/db/engine.js';
import { migrate } from '../src/db/migrate.js';

export const CLIENT_TYPES_FILE = new URL('../packages/client/src/generated/openapi.ts', import.meta.url);

const HEADER = `/**
 * Generated from Gatehouse's own /openapi.json by openapi-typescript: do not edit.
 * Regenerate with \`npm run generate:client\`; packages/client/src/generated.test.ts fails when
 * this file and the route schemas drift apart.
 */
`;

/** The service's OpenAPI document, from a throwaway in-memory instance (the routes' schemas are all it needs). */
export async function serviceOpenApi(): Promise<Record<string, unknown>> {
  const engine = await openPglite();
  await migrate(engine);
  const container = createContainer(testConfig(), { engine });
  const app = await buildApp(container);
  try {
    const response = await app.inject({ method: 'GET', url: '/openapi.json' });
    if (response.statusCode !== 200) throw new Error(`/openapi.json answered ${response.statusCode}`);
    return response.json();
  } finally {
    await app.close();
    await closeContainer(container);
    await engine.close().catch(() => undefined);
  }
}

/** The TypeScript types of the whole API, as the client package commits them. */
export async function clientTypesSource(): Promise<string> {
  const document = await serviceOpenApi();
  const ast = await openapiTS(document as unknown as Parameters<typeof openapiTS>[0], { exportType: true, alphabetize: true });
  return HEADER + astToString(ast);
}
