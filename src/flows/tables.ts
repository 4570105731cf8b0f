import type { CourierTables } from '../courier/store.js';
import type { FlowDefinitionTables } from './definitions/store.js';

/** Every table of the flow engine and its courier, listed once in `src/db/schema.ts`. */
export type FlowTables = FlowDefinitionTables & CourierTables;
