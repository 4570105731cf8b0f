import type { CourierTables } from '../courier/store.js';
import type { MailTemplateTables } from '../courier/template-store.js';
import type { CodeTables } from './codes/store.js';
import type { FlowDefinitionTables } from './definitions/store.js';
import type { GateTables } from './gates/store.js';
import type { FlowStartTables } from './risk/flow-starts.js';
import type { RiskTables } from './risk/store.js';

/** Every table of the flow engine and its courier, listed once in `src/db/schema.ts`. */
export type FlowTables = FlowDefinitionTables & CourierTables & GateTables & RiskTables & FlowStartTables & CodeTables & MailTemplateTables;
