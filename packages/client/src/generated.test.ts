import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CLIENT_TYPES_FILE, clientTypesSource } from '../../../scripts/client-types.js';

describe('@gatehouse/client types', () => {
  it('are exactly what openapi-typescript generates from the service\'s /openapi.json today (run `npm run generate:client`)', async () => {
    const committed = readFileSync(CLIENT_TYPES_FILE, 'utf8');
    const fresh = await clientTypesSource();
    // A mismatch means a route schema changed without regenerating the client.
    expect(committed === fresh, 'packages/client/src/generated/openapi.ts is stale: run `npm run generate:client`').toBe(true);
  });
});
