import type { FlowDefinitionTables } from './definitions/store.js';

/** Every table of the flow engine, listed once in `src/db/schema.ts`. */
export type FlowTables = FlowDefinitionTables;
