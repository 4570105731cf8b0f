import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { CLIENT_TYPES_FILE, clientTypesSource } from './client-types.js';

// Writes packages/client/src/generated/openapi.ts from the route schemas.
writeFileSync(CLIENT_TYPES_FILE, await clientTypesSource());
console.log(`wrote ${fileURLToPath(CLIENT_TYPES_FILE)}`);
